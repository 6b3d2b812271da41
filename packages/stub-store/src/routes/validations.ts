// External validation results per revision, as other components post them.
import type { FastifyInstance } from 'fastify'
import type { Store } from '../domain/store.ts'
import { RULES } from '../domain/store.ts'
import { bodyDocument, sendYaml } from './http.ts'

type NameParams = { Params: { id: string, name: string } }
type IdParams = { Params: { id: string } }
type EntryParams = { Params: { id: string, name: string, entry: string } }

export async function validationRoutes (app: FastifyInstance, opts: { store: Store }): Promise<void> {
  const { store } = opts

  app.get<IdParams>('/revisions/:id/validations', { config: { policy: RULES.listValidations } }, async (request, reply) =>
    sendYaml(reply, 200, store.listValidations(request.params.id)))

  app.get<IdParams>('/revisions/:id/validations/detail', { config: { policy: RULES.listValidations } }, async (request, reply) =>
    sendYaml(reply, 200, store.validationDetails(request.params.id)))

  app.post<NameParams>('/revisions/:id/validations/:name', { config: { policy: RULES.createValidation } }, async (request, reply) =>
    sendYaml(reply, 201, store.createValidation(request.params.id, request.params.name, bodyDocument(request))))

  app.get<NameParams>('/revisions/:id/validations/:name', { config: { policy: RULES.showValidation } }, async (request, reply) =>
    sendYaml(reply, 200, store.listValidationEntries(request.params.id, request.params.name)))

  app.get<EntryParams>('/revisions/:id/validations/:name/entries/:entry', { config: { policy: RULES.showValidation } },
    async (request, reply) => sendYaml(reply, 200, store.showValidationEntry(request.params.id, request.params.name, request.params.entry)))
}
