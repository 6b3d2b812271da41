// /api/v2/dags: list, read, pause and unpause (pausing is per DAG in Airflow 3).
import type { FastifyPluginAsync } from 'fastify'
import type { Engine } from '../domain/engine.ts'
import { BadRequest } from '../domain/errors.ts'
import { checkBody, queryReader } from '../http/validate.ts'
import { DAGPatchBodySchema, type DAGCollectionResponse, type DAGPatchBody } from '@slipway/airflow-contract'

type Query = Record<string, string | string[] | undefined>
type DagParams = { dag_id: string }

export const dagRoutes: FastifyPluginAsync<{ engine: Engine }> = async (app, { engine }) => {
  app.get('/api/v2/dags', { config: { access: 'read' } }, async (request): Promise<DAGCollectionResponse> => {
    const q = queryReader(request.query as Query)
    const filter = {
      limit: q.int('limit', 50, 0),
      offset: q.int('offset', 0, 0),
      paused: q.bool('paused'),
      dagIdPattern: q.string('dag_id_pattern'),
      orderBy: q.list('order_by') ?? ['dag_id']
    }
    q.bool('exclude_stale')
    q.done()
    const page = engine.listDags(filter)
    return { dags: page.items, total_entries: page.total }
  })

  app.get<{ Params: DagParams }>('/api/v2/dags/:dag_id', { config: { access: 'read' } }, async (request) =>
    engine.dagResponse(request.params.dag_id))

  app.patch<{ Params: DagParams }>('/api/v2/dags/:dag_id', { config: { access: 'write' } }, async (request) => {
    const q = queryReader(request.query as Query)
    const mask = q.list('update_mask')
    q.done()
    const body = checkBody<DAGPatchBody>(DAGPatchBodySchema, request.body)
    if (mask !== undefined && mask.some((m) => m !== 'is_paused')) {
      throw new BadRequest('Only `is_paused` field can be updated through the REST API')
    }
    return engine.patchDag(request.params.dag_id, body.is_paused)
  })
}
