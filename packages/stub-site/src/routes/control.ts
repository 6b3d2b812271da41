// Control routes for tests and the stub-engine: move a node's states, choose the fault the stand-in plays and the
// pods whose eviction a disruption budget refuses, and the Drydock task faults (failing nodes, stuck actions).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { DrydockNodeSchema, FaultSchema, NodeStateUpdateSchema } from '../schemas/nodes.ts'
import type { Site } from '../domain/site.ts'
import type { Faults } from '../domain/faults.ts'
import type { Pods } from '../domain/pods.ts'
import type { TaskFaults } from '../domain/drydock/task-faults.ts'
import { TaskFaultsSchema } from '../schemas/drydock.ts'
import { toDrydockNode } from '../views.ts'

const RefusedEvictionsSchema = Type.Object({ refused: Type.String({ maxLength: 4096 }) }, { additionalProperties: false })

type ControlOptions = { site: Site, faults: Faults, pods: Pods, taskFaults: TaskFaults }

export const controlRoutes: FastifyPluginAsyncTypebox<ControlOptions> = async (app, { site, faults, pods, taskFaults }) => {
  app.put('/nodes/:hostname/state', {
    schema: {
      params: Type.Object({ hostname: Type.String({ minLength: 1 }) }),
      body: NodeStateUpdateSchema,
      response: { 200: DrydockNodeSchema }
    }
  }, async (request) => {
    await site.refreshFor(request.params.hostname)
    return toDrydockNode(site.inventory.setState(request.params.hostname, request.body))
  })

  app.get('/fault', { schema: { response: { 200: FaultSchema } } }, async () => faults.get())

  app.put('/fault', { schema: { body: FaultSchema, response: { 200: FaultSchema } } }, async (request) => faults.set(request.body))

  app.get('/evictions', { schema: { response: { 200: RefusedEvictionsSchema } } }, async () => ({ refused: pods.refused() }))

  // a label selector ('' none) of the pods whose eviction answers 429, as a PodDisruptionBudget would have it
  app.put('/evictions', { schema: { body: RefusedEvictionsSchema, response: { 200: RefusedEvictionsSchema } } },
    async (request) => ({ refused: pods.setRefused(request.body.refused) }))
  app.get('/task-faults', { schema: { response: { 200: TaskFaultsSchema } } }, async () => taskFaults.get())

  app.put('/task-faults', {
    schema: { body: TaskFaultsSchema, response: { 200: TaskFaultsSchema } }
  }, async (request) => taskFaults.set(request.body))
}
