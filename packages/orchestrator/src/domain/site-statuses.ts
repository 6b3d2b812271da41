// Site statuses from the provisioner's node inventory (seed 000 §2.6, §4.14; spec/orchestrator.md §5).
import { BadRequestError, type RequestContext } from '@slipway/common'
import type { ProvisionerClient } from '../clients/provisioner.ts'

const FILTERS = ['nodes-provision-status', 'machines-power-state'] as const
type Filter = (typeof FILTERS)[number]
const LEGACY_KEYS: Record<Filter, string> = { 'nodes-provision-status': 'nodes_provision_status', 'machines-power-state': 'machines_powerstate' }

export function parseFilters (value: string | undefined): Filter[] {
  if (value === undefined || value.trim() === '') return [...FILTERS]
  const filters = value.split(',').map((f) => f.trim()).filter((f) => f !== '')
  for (const filter of filters) {
    if (!(FILTERS as readonly string[]).includes(filter)) throw new BadRequestError('Not a valid status filter', `filter ${filter} is not supported`)
  }
  return [...new Set(filters)] as Filter[]
}

export function createSiteStatuses (deps: { provisioner: ProvisionerClient, legacyKeys: boolean }) {
  return {
    async get (filtersText: string | undefined, ctx: RequestContext): Promise<Record<string, unknown[]>> {
      const filters = parseFilters(filtersText)
      const nodes = await deps.provisioner.nodes(ctx)
      const out: Record<string, unknown[]> = {}
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
