// Site statuses: the nodes' provisioning and the machines' power state as the provisioner reports them. HTTP only —
// schema, policy, one domain call.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { BadRequestError, ErrorBodySchema } from '@slipway/common'
import type { SiteStatuses } from '../domain/site-statuses.ts'
import { SITE_STATUS_FILTERS, SiteStatusesQuerySchema, SiteStatusesSchema, type SiteStatusFilter } from '../schemas/site-statuses.ts'
import { rule } from '../policy.ts'

/** `filters`: comma separated status types; absent or blank is all of them. */
export function filtersOf (value: string | undefined): SiteStatusFilter[] {
  if (value === undefined || value.trim() === '') return [...SITE_STATUS_FILTERS]
  const filters = value.split(',').map((f) => f.trim()).filter((f) => f !== '')
  for (const filter of filters) {
    if (!(SITE_STATUS_FILTERS as readonly string[]).includes(filter)) {
      throw new BadRequestError('Not a valid status filter',
        `filter ${filter} is not supported`)
    }
  }
  return [...new Set(filters)] as SiteStatusFilter[]
}

export const siteStatusRoutes: FastifyPluginAsyncTypebox<{ siteStatuses: SiteStatuses }> = async (app, { siteStatuses }) => {
  app.get('/site_statuses', {
    config: { policy: rule('get_site_statuses') },
    schema: { querystring: SiteStatusesQuerySchema, response: { 200: SiteStatusesSchema, 400: ErrorBodySchema } }
  }, async (request) => await siteStatuses.get(filtersOf(request.query.filters), request.ctx))
}
