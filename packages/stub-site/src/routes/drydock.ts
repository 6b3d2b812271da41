// Drydock's node inventory: GET /api/v1.0/nodes, which the orchestrator reads for the site statuses.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { DrydockNodeSchema } from '../schemas/nodes.ts'
import type { Site } from '../domain/site.ts'
import { toDrydockNode } from '../views.ts'

export const drydockRoutes: FastifyPluginAsyncTypebox<{ site: Site }> = async (app, { site }) => {
  app.get('/nodes', {
    config: { faultable: true },
    schema: { response: { 200: Type.Array(DrydockNodeSchema) } }
  }, async () => {
    await site.refresh()
    return site.inventory.list().map(toDrydockNode)
  })
}
