// Workflows, site statuses and notes (seed 000 §4.12–4.14, §4.16): HTTP only — schema, policy, one domain call.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { BadRequestError, ErrorBodySchema, textAnswer } from '@slipway/common'
import type { Workflows } from '../domain/workflows.ts'
import type { SiteStatuses } from '../domain/site-statuses.ts'
import type { Notes } from '../domain/notes.ts'
import {
  NoteParamsSchema, NoteTextSchema, SITE_STATUS_FILTERS, SiteStatusesQuerySchema, SiteStatusesSchema,
  WorkflowDetailSchema, WorkflowParamsSchema, WorkflowSchema, WorkflowsQuerySchema, type SiteStatusFilter
} from '../schemas/workflows.ts'
import { VerbosityOnlySchema } from '../schemas/query.ts'
import { rule } from '../policy.ts'

const DURATION = /^P(?:(\d+)Y)?(?:(\d+)M)?(?:(\d+)W)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?)?$/
const DAY_MS = 86_400_000

/** `since` (seed 000 §4.12): an ISO date/time, or an ISO duration back from now; default 30 days back. */
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
  if (Number.isNaN(date.getTime())) throw new BadRequestError('Invalid since parameter', `since must be an ISO 8601 date/time or duration, got '${value}'`)
  return date
}

/** `filters` (seed 000 §4.14): comma separated status types; absent or blank is all of them. */
export function filtersOf (value: string | undefined): SiteStatusFilter[] {
  if (value === undefined || value.trim() === '') return [...SITE_STATUS_FILTERS]
  const filters = value.split(',').map((f) => f.trim()).filter((f) => f !== '')
  for (const filter of filters) {
    if (!(SITE_STATUS_FILTERS as readonly string[]).includes(filter)) throw new BadRequestError('Not a valid status filter', `filter ${filter} is not supported`)
  }
  return [...new Set(filters)] as SiteStatusFilter[]
}

export const workflowRoutes: FastifyPluginAsyncTypebox<{
  workflows: Workflows
  siteStatuses: SiteStatuses
  notes: Notes
}> = async (app, options) => {
  app.get('/workflows', {
    config: { policy: rule('list_workflows') },
    schema: { querystring: WorkflowsQuerySchema, response: { 200: Type.Array(WorkflowSchema), 400: ErrorBodySchema } }
  }, async (request) => await options.workflows.list(sinceOf(request.query.since), request.ctx))

  app.get('/workflows/:workflow_id', {
    config: { policy: rule('get_workflow') },
    schema: {
      params: WorkflowParamsSchema,
      querystring: VerbosityOnlySchema,
      response: { 200: WorkflowDetailSchema, 400: ErrorBodySchema, 404: ErrorBodySchema }
    }
  }, async (request) => await options.workflows.detail(request.params.workflow_id, request.ctx))

  app.get('/site_statuses', {
    config: { policy: rule('get_site_statuses') },
    schema: { querystring: SiteStatusesQuerySchema, response: { 200: SiteStatusesSchema, 400: ErrorBodySchema } }
  }, async (request) => await options.siteStatuses.get(filtersOf(request.query.filters), request.ctx))

  app.get('/notedetails/:note_id', {
    config: { policy: rule('get_notedetails') },
    schema: { params: NoteParamsSchema, querystring: VerbosityOnlySchema, response: { 200: textAnswer('text/plain', NoteTextSchema), 400: ErrorBodySchema, 404: ErrorBodySchema, 500: ErrorBodySchema } }
  }, async (request, reply) => {
    const text = await options.notes.detailText(request.params.note_id, request.ctx)
    return await reply.type('text/plain; charset=utf-8').send(text)
  })
}
