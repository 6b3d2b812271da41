// The provisioner's node inventory (Drydock's GET /api/v1.0/nodes), read for the site statuses.
import type { Dispatcher } from 'undici'
import { createHttpClient, type CallContext, type Metrics, type ServiceTokenSource } from '@slipway/common'

export interface ProvisionerNode { hostname: string, status_name?: string, power_state?: string }

export function createProvisionerClient (options: {
  baseUrl: string
  timeoutMs: number
  serviceAuth?: ServiceTokenSource
  dispatcher?: Dispatcher
  metrics?: Pick<Metrics, 'outbound'>
}) {
  const http = createHttpClient({ component: 'provisioner', ...options })
  return {
    async nodes (ctx: CallContext): Promise<ProvisionerNode[]> {
      const body = await http.getJson<unknown>('/nodes', { ctx })
      return Array.isArray(body) ? body as ProvisionerNode[] : []
    }
  }
}

export type ProvisionerClient = ReturnType<typeof createProvisionerClient>
