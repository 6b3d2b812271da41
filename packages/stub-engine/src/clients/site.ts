// stub-site's step endpoint (POST /_stub/steps/{step}): the only file that knows its path and its answer's shape.
import { createHttpClient, DownstreamError, type ServiceTokenSource } from '@slipway/common'
import type { Dispatcher } from 'undici'
import type { SideEffects, SiteStepAnswer } from '../domain/operators.ts'

const LEVELS = new Set(['info', 'warning', 'error'])

/** The answer as the contract shapes it, or undefined when it is not one. */
function readAnswer (value: unknown): SiteStepAnswer | undefined {
  const answer = value as { outcome?: unknown, log?: unknown } | null
  if (answer === null || typeof answer !== 'object' || (answer.outcome !== 'success' && answer.outcome !== 'failed')) return undefined
  if (!Array.isArray(answer.log)) return undefined
  const lines = answer.log as Array<{ level?: unknown, event?: unknown } | null>
  if (!lines.every((l) => l !== null && typeof l === 'object' && LEVELS.has(String(l.level)) && typeof l.event === 'string')) {
    return undefined
  }
  return answer as SiteStepAnswer
}

export function createSiteClient (options: {
  baseUrl: string
  timeoutMs: number
  serviceAuth?: ServiceTokenSource
  dispatcher?: Dispatcher
}): NonNullable<SideEffects['site']> {
  const http = createHttpClient({ component: 'site', ...options })
  return {
    async runStep (step, call, ctx) {
      const path = `/_stub/steps/${encodeURIComponent(step)}`
      const answer = readAnswer(await http.sendJson<unknown>('POST', path, { ctx, json: call }))
      if (answer === undefined) {
        throw new DownstreamError('site', `The site answered POST ${path} with something other than a step's outcome and log`)
      }
      return answer
    }
  }
}
