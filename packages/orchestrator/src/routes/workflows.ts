// Workflows: the engine's runs of the action workflows since a time, and one run with its steps. HTTP only — schema,
// policy, one domain call.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { BadRequestError, ErrorBodySchema } from '@slipway/common'
import type { Workflows } from '../domain/workflows.ts'
import { WorkflowDetailSchema, WorkflowEntrySchema, WorkflowParamsSchema, WorkflowsQuerySchema } from '../schemas/workflows.ts'
import { ControlResponses } from '../schemas/actions.ts'
import { VerbosityOnlySchema } from '../schemas/query.ts'
import { rule } from '../policy.ts'

const DURATION = /^P(?:(\d+)Y)?(?:(\d+)M)?(?:(\d+)W)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?)?$/
const DAY_MS = 86_400_000

/** `since`: an ISO date/time, or an ISO duration back from now; default 30 days back. */
export function sinceOf (value: string | undefined, now = new Date()): Date {
  if (value === undefined || value === '') return new Date(now.getTime() - 30 * DAY_MS)
  const duration = DURATION.exec(value)
  if (duration !== null && value !== 'P' && !value.endsWith('T')) {
    const [, y, mo, w, d, h, mi, s] = duration.map((x) => Number(x ?? 0))
    const ms = (((((y ?? 0) * 365 + (mo ?? 0) * 30 + (w ?? 0) * 7 + (d ?? 0)) * 24 + (h ?? 0)) * 60 + (mi ?? 0)) * 60 + (s ?? 0)) * 1000
    return new Date(now.getTime() - ms)
  }
  const zoned = /(Z|[+-]\d\d:?\d\d)$/.test(value) || /^\d{4}-\d\d-\d\d$/.test(value) ? value : `${value}Z`
  const date = new Date(/^\d{4}-\d\d-\d\d$/.test(zoned) ? `${zoned}T00:00:00Z` : zoned)
  if (Number.isNaN(date.getTime())) {
    throw new BadRequestError('Invalid since parameter',
      `since must be an ISO 8601 date/time or duration, got '${value}'`)
  }
  return date
}

export const workflowRoutes: FastifyPluginAsyncTypebox<{ workflows: Workflows }> = async (app, { workflows }) => {
  app.get('/workflows', {
    config: { policy: rule('list_workflows') },
    schema: {
      querystring: WorkflowsQuerySchema,
      response: { 200: Type.Array(WorkflowEntrySchema), 400: ErrorBodySchema }
    }
  }, async (request) => {
    const { since, orphans } = request.query
    if (orphans) return await workflows.orphans(since === undefined ? undefined : sinceOf(since), request.ctx)
    return await workflows.list(sinceOf(since), request.ctx)
  })

  app.get('/workflows/:workflow_id', {
    config: { policy: rule('get_workflow') },
    schema: {
      params: WorkflowParamsSchema,
      querystring: VerbosityOnlySchema,
      response: { 200: WorkflowDetailSchema, 400: ErrorBodySchema, 404: ErrorBodySchema }
    }
  }, async (request) => await workflows.detail(request.params.workflow_id, request.ctx))

  // an extension: a run no action has cannot be stopped through /actions, and one of a site workflow blocks every site
  // action; stopped here, as an action's stop does it
  app.post('/workflows/:workflow_id/control/stop', {
    config: { policy: rule('invoke_workflow_control') },
    schema: {
      params: WorkflowParamsSchema,
      querystring: VerbosityOnlySchema,
      response: ControlResponses
    }
  }, async (request, reply) => {
    const { run, reason } = await workflows.stop(request.params.workflow_id, request.ctx)
    request.log.warn({ dagId: run.dag_id, runId: run.dag_run_id, user: request.ctx.user, reason }, 'engine run without an action stopped')
    return await reply.code(202).send()
  })
}
