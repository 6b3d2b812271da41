// Revisions and what hangs off them: list, show, purge, raw and rendered documents,
// diff, deep diff and rollback.
import type { FastifyInstance } from 'fastify'
import type { Store } from '../domain/store.ts'
import { RULES } from '../domain/store.ts'
import { baseUrl, queryOf, sendNoContent, sendYaml, sendYamlList, sendYamlListKept } from './http.ts'

type IdParams = { Params: { id: string } }
type PairParams = { Params: { a: string, b: string } }

export async function revisionRoutes (app: FastifyInstance, opts: { store: Store }): Promise<void> {
  const { store } = opts

  app.get('/revisions', { config: { policy: RULES.listRevisions } }, async (request, reply) =>
    sendYaml(reply, 200, store.listRevisions(queryOf(request))))

  app.delete('/revisions', { config: { policy: RULES.deleteRevisions } }, async (request, reply) => {
    store.purge()
    request.log.info('store purged')
    return sendNoContent(reply)
  })

  app.get<IdParams>('/revisions/:id', { config: { policy: RULES.showRevision } }, async (request, reply) =>
    sendYaml(reply, 200, store.showRevision(request.params.id, baseUrl(request))))

  app.get<IdParams>('/revisions/:id/documents', { config: { policy: RULES.listCleartext } }, async (request, reply) =>
    sendYamlList(reply, 200, store.listDocuments(request.params.id, queryOf(request), request.storeAccess)))

  app.get<IdParams>('/revisions/:id/rendered-documents', { config: { policy: RULES.listCleartext } }, async (request, reply) =>
    sendYamlListKept(reply, 200, store.renderedDocuments(request.params.id, queryOf(request), request.storeAccess)))

  app.get<PairParams>('/revisions/:a/diff/:b', { config: { policy: RULES.showDiff } }, async (request, reply) =>
    sendYaml(reply, 200, store.diff(request.params.a, request.params.b)))

  app.get<PairParams>('/revisions/:a/deepdiff/:b', { config: { policy: RULES.showDeepDiff } }, async (request, reply) =>
    sendYaml(reply, 200, store.deepDiff(request.params.a, request.params.b, request.storeAccess)))

  app.post<IdParams>('/rollback/:id', { config: { policy: RULES.createCleartext } }, async (request, reply) =>
    sendYaml(reply, 201, store.rollback(request.params.id, request.storeAccess, baseUrl(request))))
}
