// Revision tags; creating an existing tag replaces its data (the orchestrator re-tags).
import type { FastifyInstance } from 'fastify'
import type { Store } from '../domain/store.ts'
import { RULES } from '../domain/store.ts'
import { bodyDocument, sendNoContent, sendYaml } from './http.ts'

type TagParams = { Params: { id: string, tag: string } }

export async function tagRoutes (app: FastifyInstance, opts: { store: Store }): Promise<void> {
  const { store } = opts

  app.get<{ Params: { id: string } }>('/revisions/:id/tags', { config: { policy: RULES.listTags } }, async (request, reply) =>
    sendYaml(reply, 200, store.listTags(request.params.id)))

  app.delete<{ Params: { id: string } }>('/revisions/:id/tags', { config: { policy: RULES.deleteTags } }, async (request, reply) => {
    store.deleteTags(request.params.id)
    return sendNoContent(reply)
  })

  app.post<TagParams>('/revisions/:id/tags/:tag', { config: { policy: RULES.createTag } }, async (request, reply) =>
    sendYaml(reply, 201, store.createTag(request.params.id, request.params.tag, bodyDocument(request))))

  app.get<TagParams>('/revisions/:id/tags/:tag', { config: { policy: RULES.showTag } }, async (request, reply) =>
    sendYaml(reply, 200, store.showTag(request.params.id, request.params.tag)))

  app.delete<TagParams>('/revisions/:id/tags/:tag', { config: { policy: RULES.deleteTag } }, async (request, reply) => {
    store.deleteTag(request.params.id, request.params.tag)
    return sendNoContent(reply)
  })
}
