// Site statuses from the provisioner's node inventory: each node's provisioning status and power state.
import type { RequestContext } from '@slipway/common'
import type { ProvisionerClient } from '../clients/provisioner.ts'
import type { SiteStatusFilter } from '../schemas/site-statuses.ts'

const LEGACY_KEYS: Record<SiteStatusFilter, string> = {
  'nodes-provision-status': 'nodes_provision_status', 'machines-power-state': 'machines_powerstate'
}

export function createSiteStatuses (deps: { provisioner: ProvisionerClient, legacyKeys: boolean }) {
  return {
    /** The statuses asked for, each under its seed key (or Shipyard's, with legacyKeys). */
    async get (filters: SiteStatusFilter[], ctx: RequestContext): Promise<Record<string, Array<{ hostname: string }>>> {
      const nodes = await deps.provisioner.nodes(ctx)
      const out: Record<string, Array<{ hostname: string }>> = {}
      for (const filter of filters) {
        const key = deps.legacyKeys ? LEGACY_KEYS[filter] : filter
        out[key] = filter === 'nodes-provision-status'
          ? nodes.map((n) => ({ hostname: n.hostname, status: n.status_name ?? null }))
          : nodes.map((n) => ({ hostname: n.hostname, power_state: n.power_state ?? null }))
      }
      return out
    }
  }
}

export type SiteStatuses = ReturnType<typeof createSiteStatuses>
