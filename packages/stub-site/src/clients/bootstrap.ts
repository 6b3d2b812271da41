// The bootstrap service (Promenade API) as the workflow steps call it: health, validatedesign and node labels;
// every call forwards the step's context marker and end user.
import { createHttpClient, staticServiceToken } from '@slipway/common'
import type { Dispatcher } from 'undici'
import type { StepBootstrap } from '../domain/steps-context.ts'

interface StatusBody { status?: string, details?: { messageList?: Array<{ message?: string, error?: boolean }> } }

export function createBootstrapClient (options: {
  baseUrl: string
  timeoutMs: number
  serviceToken?: string | undefined
  dispatcher?: Dispatcher | undefined
}): StepBootstrap {
  const http = createHttpClient({
    component: 'bootstrap',
    baseUrl: options.baseUrl,
    timeoutMs: options.timeoutMs,
    dispatcher: options.dispatcher,
    serviceAuth: staticServiceToken(options.serviceToken)
  })
  return {
    async health (ctx) { await http.expectOk('GET', '/health', { ctx }) },
    async validateDesign (href, ctx) {
      // a 200 or a 400 both carry the Status body; its `status` says whether the design is valid
      const response = await http.request('POST', '/validatedesign', { ctx, json: { rel: 'design', href, type: 'application/x-yaml' } })
      if (response.statusCode > 400) throw new Error(`bootstrap answered validatedesign with ${response.statusCode}`)
      const body = http.parseJson<StatusBody>(response, 'POST /validatedesign')
      const messages = (body.details?.messageList ?? []).filter((m) => m.error !== false).map((m) => m.message ?? '')
      return { valid: typeof body.status === 'string' && body.status.toLowerCase() === 'success', messages }
    },
    async putNodeLabels (node, labels, ctx) {
      await http.expectOk('PUT', `/node-labels/${encodeURIComponent(node)}`, { ctx, json: labels })
    }
  }
}
