// Workflows, site statuses and notes (seed 000 §4.12–4.14, §4.16).
import type { FastifyInstance } from 'fastify'
import type { Workflows } from '../domain/workflows.ts'
import type { SiteStatuses } from '../domain/site-statuses.ts'
import type { Notes } from '../domain/notes.ts'
import { rule } from '../policy.ts'

type Query = Record<string, string | string[] | undefined>
const single = (q: Query, name: string): string | undefined => { const v = q[name]; return Array.isArray(v) ? v.at(-1) : v }

export async function workflowRoutes (app: FastifyInstance, options: { workflows: Workflows, siteStatuses: SiteStatuses, notes: Notes }): Promise<void> {
  app.get('/workflows', { config: { policy: rule('list_workflows') } }, async (request) =>
    await options.workflows.list(single(request.query as Query, 'since'), request.ctx))

  app.get('/workflows/:workflow_id', { config: { policy: rule('get_workflow') } }, async (request) =>
    await options.workflows.detail((request.params as { workflow_id: string }).workflow_id, request.ctx))

  app.get('/site_statuses', { config: { policy: rule('get_site_statuses') } }, async (request) =>
    await options.siteStatuses.get(single(request.query as Query, 'filters'), request.ctx))

  app.get('/notedetails/:note_id', { config: { policy: rule('get_notedetails') } }, async (request, reply) => {
    const text = await options.notes.detailText((request.params as { note_id: string }).note_id, request.ctx)
    return await reply.type('text/plain; charset=utf-8').send(text)
  })
}
