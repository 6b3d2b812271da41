// /api/v2/dags/{dag_id}/dagRuns: trigger, read, list (incl. the `~` batch list), patch, delete, clear.
import type { FastifyPluginAsync } from 'fastify'
import type { Engine } from '../domain/engine.ts'
import { BadRequest, Unprocessable } from '../domain/errors.ts'
import { checkBody, queryReader } from '../http/validate.ts'
import {
  DAG_RUN_STATES, DAG_RUN_TYPES, DAGRunClearBodySchema, DAGRunPatchBodySchema, DAGRunsBatchBodySchema, TriggerDAGRunPostBodySchema,
  type DAGRunClearBody, type DAGRunCollectionResponse, type DAGRunPatchBody, type DAGRunsBatchBody, type TriggerDAGRunPostBody
} from '@slipway/airflow-contract'

type Query = Record<string, string | string[] | undefined>
type DagParams = { dag_id: string }
type RunParams = { dag_id: string, dag_run_id: string }

const RANGE_FIELDS = ['run_after', 'logical_date', 'start_date', 'end_date']

/** The batch endpoints pin `{dag_id}` (and `{dag_run_id}`) to `~`, as the contract's `const` does. */
export function requireTilde (name: string, value: string): void {
  if (value !== '~') {
    throw new Unprocessable([{
      loc: ['path', name], msg: "Input should be '~'", type: 'literal_error', input: value, ctx: { expected: "'~'" }
    }])
  }
}

export const dagRunRoutes: FastifyPluginAsync<{ engine: Engine }> = async (app, { engine }) => {
  app.post<{ Params: DagParams }>('/api/v2/dags/:dag_id/dagRuns', { config: { access: 'write' } }, async (request) => {
    const body = checkBody<TriggerDAGRunPostBody>(TriggerDAGRunPostBodySchema, request.body)
    return engine.trigger(request.params.dag_id, body, request.claims?.sub ?? null, request.id)
  })

  app.get<{ Params: DagParams }>(
    '/api/v2/dags/:dag_id/dagRuns',
    { config: { access: 'read' } },
    async (request): Promise<DAGRunCollectionResponse> => {
      const q = queryReader(request.query as Query)
      const filter = {
        limit: q.int('limit', 50, 0),
        offset: q.int('offset', 0, 0),
        states: q.enumList('state', DAG_RUN_STATES),
        runTypes: q.enumList('run_type', DAG_RUN_TYPES),
        orderBy: q.list('order_by') ?? ['id'],
        ranges: q.ranges([...RANGE_FIELDS, 'updated_at']),
        runIdPattern: q.string('run_id_pattern'),
        triggeringUserPattern: q.string('triggering_user_name_pattern')
      }
      q.done()
      const page = engine.listRuns(request.params.dag_id, filter)
      return { dag_runs: page.items, total_entries: page.total }
    }
  )

  app.post<{ Params: DagParams }>(
    '/api/v2/dags/:dag_id/dagRuns/list',
    { config: { access: 'read' } },
    async (request): Promise<DAGRunCollectionResponse> => {
      requireTilde('dag_id', request.params.dag_id)
      const body = checkBody<DAGRunsBatchBody>(DAGRunsBatchBodySchema, request.body)
      const ranges: Record<string, string | undefined> = {}
      for (const field of RANGE_FIELDS) {
        for (const op of ['gte', 'gt', 'lte', 'lt']) {
          const value = body[`${field}_${op}`]
          if (typeof value === 'string') ranges[`${field}_${op}`] = new Date(value).toISOString()
        }
      }
      const orderBy = body.order_by ?? 'id'
      if (orderBy.replace(/^-/, '') === 'duration') {
        throw new BadRequest("Ordering with 'duration' is disallowed or the attribute does not exist on the model")
      }
      const page = engine.listRuns('~', {
        limit: body.page_limit ?? 100,
        unclamped: true,
        offset: body.page_offset ?? 0,
        ...(body.dag_ids != null ? { dagIds: body.dag_ids } : {}),
        ...(body.states != null ? { states: body.states.filter((s): s is NonNullable<typeof s> => s !== null) } : {}),
        orderBy: [orderBy],
        ranges
      })
      return { dag_runs: page.items, total_entries: page.total }
    }
  )

  app.get<{ Params: RunParams }>('/api/v2/dags/:dag_id/dagRuns/:dag_run_id', { config: { access: 'read' } }, async (request) =>
    engine.getRun(request.params.dag_id, request.params.dag_run_id))

  app.patch<{ Params: RunParams }>('/api/v2/dags/:dag_id/dagRuns/:dag_run_id', { config: { access: 'write' } }, async (request) => {
    const q = queryReader(request.query as Query)
    const mask = q.list('update_mask')
    q.done()
    const body = checkBody<DAGRunPatchBody>(DAGRunPatchBodySchema, request.body)
    return engine.patchRun(request.params.dag_id, request.params.dag_run_id, body, mask)
  })

  app.delete<{ Params: RunParams }>('/api/v2/dags/:dag_id/dagRuns/:dag_run_id', { config: { access: 'write' } }, async (request, reply) => {
    engine.deleteRun(request.params.dag_id, request.params.dag_run_id)
    reply.code(204).send()
  })

  app.post<{ Params: RunParams }>('/api/v2/dags/:dag_id/dagRuns/:dag_run_id/clear', { config: { access: 'write' } }, async (request) => {
    const body = checkBody<DAGRunClearBody>(DAGRunClearBodySchema, request.body)
    const result = engine.clearRun(request.params.dag_id, request.params.dag_run_id, {
      dry_run: body.dry_run ?? true,
      only_failed: body.only_failed ?? false
    })
    return result.dryRun ? { task_instances: result.tis, total_entries: result.tis.length } : result.run
  })
}
