// The bootstrap service (Promenade API): health, validatedesign and node-labels, as the workflow operators call them.
import { createHttpClient, type CallContext, type ServiceTokenSource } from '@slipway/common'
import type { Dispatcher } from 'undici'
import type { SideEffects } from '../domain/operators.ts'

interface StatusBody { status?: string, details?: { messageList?: Array<{ message?: string, error?: boolean }> } }

export function createBootstrapClient (options: { baseUrl: string, timeoutMs: number, serviceAuth?: ServiceTokenSource, dispatcher?: Dispatcher }): NonNullable<SideEffects['bootstrap']> {
  const http = createHttpClient({ component: 'bootstrap', ...options })
  return {
    async health (ctx: CallContext) { await http.expectOk('GET', '/health', { ctx }) },
    async validateDesign (href: string, ctx: CallContext) {
      // spec/bootstrap.md §7.4: 200 or 400 carry the Status body; the operator checks `status`
      const response = await http.request('POST', '/validatedesign', { ctx, json: { rel: 'design', href, type: 'application/x-yaml' } })
      if (response.statusCode > 400) throw new Error(`bootstrap answered validatedesign with ${response.statusCode}`)
      const body = http.parseJson<StatusBody>(response, 'POST /validatedesign')
      const messages = (body.details?.messageList ?? []).filter((m) => m.error !== false).map((m) => m.message ?? '')
      return { valid: typeof body.status === 'string' && body.status.toLowerCase() === 'success', messages }
    },
    async putNodeLabels (node: string, labels: Record<string, string>, ctx: CallContext) {
      await http.expectOk('PUT', `/node-labels/${encodeURIComponent(node)}`, { ctx, json: labels })
    }
  }
}
