// stub-site (Drydock node inventory + the stub's node-state control route): the only file that knows its paths.
import { createHttpClient, type CallContext, type ServiceTokenSource } from '@slipway/common'
import type { Dispatcher } from 'undici'
import type { NodeState, SideEffects, SiteNode } from '../domain/operators.ts'

export function createSiteClient (options: { baseUrl: string, timeoutMs: number, serviceAuth?: ServiceTokenSource, dispatcher?: Dispatcher }): NonNullable<SideEffects['site']> {
  const http = createHttpClient({ component: 'site', ...options })
  return {
    listNodes: async (ctx: CallContext) => await http.getJson<SiteNode[]>('/api/v1.0/nodes', { ctx }),
    async setNodeState (hostname: string, state: NodeState, ctx: CallContext) {
      const response = await http.request('PUT', `/_stub/nodes/${encodeURIComponent(hostname)}/state`, { ctx, json: state })
      if (response.statusCode === 404) return false
      if (response.statusCode >= 300) throw new Error(`site answered PUT node state of ${hostname} with ${response.statusCode}: ${response.text.slice(0, 200)}`)
      return true
    }
  }
}
