// The components that validate a design at commit (Drydock, Armada, Promenade's /validatedesign): POST <url> with the
// design reference; 200 and 400 are answers, anything else (or garbage, or silence) is an error naming the component.
import type { Dispatcher } from 'undici'
import {
  createHttpClient, DownstreamError, type CallContext, type Metrics, type ServiceTokenSource, type ValidationMessage
} from '@slipway/common'

export interface ValidatorTarget { name: string, url: string }

/** Parses VALIDATORS: `Name=URL,Name=URL`. */
export function parseValidators (text: string): ValidatorTarget[] {
  return text.split(',').map((item) => item.trim()).filter((item) => item !== '').map((item) => {
    const at = item.indexOf('=')
    if (at <= 0) throw new Error(`VALIDATORS entry '${item}' is not Name=URL`)
    return { name: item.slice(0, at), url: item.slice(at + 1) }
  })
}

function unable (name: string, diagnostic: string): ValidationMessage {
  return {
    kind: 'ValidationMessage',
    name,
    error: true,
    level: 'Error',
    message: `${name} unable to validate configdocs or an invalid response has been returned`,
    diagnostic,
    documents: [],
    source: name
  }
}

export function createValidatorClient (options: {
  targets: ValidatorTarget[]
  timeoutMs: number
  serviceAuth?: ServiceTokenSource
  dispatcher?: Dispatcher
  metrics?: Pick<Metrics, 'outbound'>
}) {
  async function one (target: ValidatorTarget, designRef: string, ctx: CallContext): Promise<ValidationMessage[]> {
    const url = new URL(target.url)
    const http = createHttpClient({
      component: target.name,
      baseUrl: url.origin,
      timeoutMs: options.timeoutMs,
      serviceAuth: options.serviceAuth,
      dispatcher: options.dispatcher,
      maxResponseBytes: 4 * 1024 * 1024,
      metrics: options.metrics
    })
    let response
    try {
      response = await http.request('POST', url.pathname, { ctx, json: { rel: 'design', href: designRef, type: 'application/x-yaml' } })
    } catch (error) {
      return [unable(target.name, error instanceof DownstreamError ? `${error.failure}: ${error.reason}` : String(error))]
    }
    if (response.statusCode > 400) return [unable(target.name, `HTTP ${response.statusCode}: ${response.text.slice(0, 300)}`)]
    let body: { details?: { messageList?: unknown } }
    try {
      body = JSON.parse(response.text) as typeof body
    } catch (error) {
      return [unable(target.name, `Unreadable JSON: ${(error as Error).message}`)]
    }
    const list = body?.details?.messageList
    if (!Array.isArray(list)) {
      return [{ ...unable(target.name, 'The answer has no details.messageList'), message: response.text.slice(0, 1000) }]
    }
    return list.map((entry) => {
      const m = (entry ?? {}) as Record<string, unknown>
      const error = m.error === true
      return {
        kind: 'ValidationMessage',
        documents: [],
        diagnostic: null,
        level: error ? 'Error' : 'Info',
        ...m,
        // the interface promises one entry per failing component named after it: a message without a name of its own
        // takes the component's
        name: typeof m.name === 'string' && m.name !== '' ? m.name : target.name,
        message: typeof m.message === 'string' ? m.message : String(m.message ?? ''),
        error,
        source: target.name
      } satisfies ValidationMessage
    })
  }

  return {
    targets: options.targets,
    /** Every configured validator, in parallel; never throws. */
    async validate (designRef: string, ctx: CallContext): Promise<ValidationMessage[]> {
      const answers = await Promise.all(options.targets.map(async (target) => await one(target, designRef, ctx)))
      return answers.flat()
    }
  }
}

export type ValidatorClient = ReturnType<typeof createValidatorClient>
