// Wire shapes of the site status route: which statuses are asked for, and the nodes listed under each.
import { Type } from 'typebox'
import { QuerySchema } from './query.ts'

export const SITE_STATUS_FILTERS = ['nodes-provision-status', 'machines-power-state'] as const
export type SiteStatusFilter = (typeof SITE_STATUS_FILTERS)[number]
export const SiteStatusesQuerySchema = QuerySchema({
  filters: Type.Optional(Type.String({ description: `Comma separated: ${SITE_STATUS_FILTERS.join(', ')}; default all` }))
})
/**
 * The interface's keys (nodes-provision-status, machines-power-state), or Shipyard's nodes_provision_status /
 * machines_powerstate when configured so.
 */
export const SiteStatusesSchema = Type.Record(Type.String(), Type.Array(Type.Object({ hostname: Type.String() })))
