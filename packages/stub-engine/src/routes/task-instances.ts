// Task instances of runs: lists (incl. `~` and the batch list), one instance, mapped copies, tries, logs,
// marking a state and clearing.
import type { FastifyPluginAsync } from 'fastify'
import type { Engine, TiFilter } from '../domain/engine.ts'
import { Unprocessable } from '../domain/errors.ts'
import { checkBody, pathInt, queryReader } from '../http/validate.ts'
import {
  ClearTaskInstancesBodySchema, PatchTaskInstanceBodySchema, TASK_INSTANCE_STATES, TaskInstancesBatchBodySchema,
  type ClearTaskInstancesBody, type PatchTaskInstanceBody, type TaskInstanceCollectionResponse,
  type TaskInstanceHistoryCollectionResponse, type TaskInstancesBatchBody, type TaskInstancesLogResponse
} from '@slipway/airflow-contract'
import { requireTilde } from './dag-runs.ts'

type Query = Record<string, string | string[] | undefined>
type RunParams = { dag_id: string, dag_run_id: string }
type TaskParams = RunParams & { task_id: string }
type MappedParams = TaskParams & { map_index: string }
type TaskTryParams = TaskParams & { task_try_number: string }
type MappedTryParams = MappedParams & { task_try_number: string }
type LogParams = TaskParams & { try_number: string }

const BASE = '/api/v2/dags/:dag_id/dagRuns/:dag_run_id/taskInstances'
const DATE_FIELDS = ['run_after', 'logical_date', 'start_date', 'end_date', 'updated_at']
const MARKABLE = ['success', 'failed', 'skipped']
/**
 * Contract paths one segment below `{task_id}` that the stub does not serve (they answer 404 Not Found, as a route
 * Airflow does not have). Without their own routes the `{task_id}/{map_index}` routes would take them and answer a
 * 422.
 */
const UNSERVED: Array<['GET' | 'PATCH', string]> = [['GET', 'links'], ['GET', 'xcomEntries'], ['GET', 'dependencies'], ['PATCH', 'dry_run']]

function tiFilter (query: Query): TiFilter {
  const q = queryReader(query)
  const states = q.enumList('state', [...TASK_INSTANCE_STATES, 'none', 'no_status'])
  const filter: TiFilter = {
    limit: q.int('limit', 50, 0),
    offset: q.int('offset', 0, 0),
    orderBy: q.list('order_by') ?? ['map_index'],
    ranges: { ...q.ranges(DATE_FIELDS), ...q.ranges(['duration'], true) }
  }
  const taskId = q.string('task_id')
  if (taskId !== undefined) filter.taskId = taskId
  if (states !== undefined) filter.states = states.map((s) => s === 'none' || s === 'no_status' ? null : s)
  const tries = q.intList('try_number')
  if (tries !== undefined) filter.tryNumbers = tries
  for (const [name, field] of [['operator', 'operators'], ['pool', 'pools'], ['queue', 'queues'], ['executor', 'executors']] as const) {
    const values = q.list(name)
    if (values !== undefined) filter[field] = values
  }
  const pattern = q.string('task_display_name_pattern')
  if (pattern !== undefined) filter.displayNamePattern = pattern
  q.done()
  return filter
}

export const taskInstanceRoutes: FastifyPluginAsync<{ engine: Engine }> = async (app, { engine }) => {
  const collection = (page: { items: TaskInstanceCollectionResponse['task_instances'], total: number }): TaskInstanceCollectionResponse =>
    ({ task_instances: page.items, total_entries: page.total })

  app.get<{ Params: RunParams }>(BASE, { config: { access: 'read' } }, async (request) =>
    collection(engine.listTaskInstances(request.params.dag_id, request.params.dag_run_id, tiFilter(request.query as Query))))

  app.post<{ Params: RunParams }>(`${BASE}/list`, { config: { access: 'read' } }, async (request) => {
    requireTilde('dag_id', request.params.dag_id)
    requireTilde('dag_run_id', request.params.dag_run_id)
    const body = checkBody<TaskInstancesBatchBody>(TaskInstancesBatchBodySchema, request.body)
    const ranges: Record<string, string | number | undefined> = {}
    for (const [key, value] of Object.entries(body)) {
      if (!/_(gte|gt|lte|lt)$/.test(key) || value === null || value === undefined) continue
      ranges[key] = typeof value === 'string' ? new Date(value).toISOString() : value as number
    }
    const filter: TiFilter = {
      limit: body.page_limit ?? 100,
      unclamped: true,
      offset: body.page_offset ?? 0,
      orderBy: body.order_by != null ? [body.order_by] : ['map_index'],
      ranges
    }
    if (body.dag_ids != null) filter.dagIds = body.dag_ids
    if (body.dag_run_ids != null) filter.runIds = body.dag_run_ids
    if (body.task_ids != null) filter.taskIds = body.task_ids
    if (body.state != null) filter.states = body.state
    if (body.pool != null) filter.pools = body.pool
    if (body.queue != null) filter.queues = body.queue
    if (body.executor != null) filter.executors = body.executor
    return collection(engine.listTaskInstances('~', '~', filter))
  })

  for (const [method, segment] of UNSERVED) {
    app.route({ method, url: `${BASE}/:task_id/${segment}`, handler: (_request, reply) => { reply.callNotFound() } })
  }

  app.get<{ Params: TaskParams }>(`${BASE}/:task_id`, { config: { access: 'read' } }, async (request) => {
    const { dag_id: dagId, dag_run_id: runId, task_id: taskId } = request.params
    return engine.getTaskInstance(dagId, runId, taskId, undefined)
  })

  app.get<{ Params: MappedParams }>(`${BASE}/:task_id/:map_index`, { config: { access: 'read' } }, async (request) => {
    const { dag_id: dagId, dag_run_id: runId, task_id: taskId } = request.params
    return engine.getTaskInstance(dagId, runId, taskId, pathInt('map_index', request.params.map_index))
  })

  app.get<{ Params: TaskParams }>(`${BASE}/:task_id/listMapped`, { config: { access: 'read' } }, async (request) => {
    const { dag_id: dagId, dag_run_id: runId, task_id: taskId } = request.params
    return collection(engine.listMapped(dagId, runId, taskId, tiFilter(request.query as Query)))
  })

  const tries = (params: TaskParams, mapIndex: number): TaskInstanceHistoryCollectionResponse => {
    const list = engine.tries(params.dag_id, params.dag_run_id, params.task_id, mapIndex)
    return { task_instances: list, total_entries: list.length }
  }
  const queryMapIndex = (query: Query): number => {
    const q = queryReader(query)
    const mapIndex = q.int('map_index', -1)
    q.done()
    return mapIndex
  }

  app.get<{ Params: TaskParams }>(`${BASE}/:task_id/tries`, { config: { access: 'read' } }, async (request) =>
    tries(request.params, queryMapIndex(request.query as Query)))

  app.get<{ Params: MappedParams }>(`${BASE}/:task_id/:map_index/tries`, { config: { access: 'read' } }, async (request) =>
    tries(request.params, pathInt('map_index', request.params.map_index)))

  app.get<{ Params: TaskTryParams }>(`${BASE}/:task_id/tries/:task_try_number`, { config: { access: 'read' } }, async (request) => {
    const p = request.params
    const mapIndex = queryMapIndex(request.query as Query)
    return engine.tryOf(p.dag_id, p.dag_run_id, p.task_id, mapIndex, pathInt('task_try_number', p.task_try_number))
  })

  app.get<{ Params: MappedTryParams }>(
    `${BASE}/:task_id/:map_index/tries/:task_try_number`,
    { config: { access: 'read' } },
    async (request) => {
      const p = request.params
      const mapIndex = pathInt('map_index', p.map_index)
      return engine.tryOf(p.dag_id, p.dag_run_id, p.task_id, mapIndex, pathInt('task_try_number', p.task_try_number))
    }
  )

  app.get<{ Params: LogParams }>(`${BASE}/:task_id/logs/:try_number`, { config: { access: 'read' } }, async (request, reply) => {
    const p = request.params
    const tryNumber = pathInt('try_number', p.try_number)
    const q = queryReader(request.query as Query)
    const mapIndex = q.int('map_index', -1)
    const fullContent = q.bool('full_content') ?? false
    const token = q.string('token')
    q.done()
    const read = token === undefined ? { fullContent } : { fullContent, token }
    const result = engine.logOf(p.dag_id, p.dag_run_id, p.task_id, tryNumber, mapIndex, read)
    const accept = request.headers.accept ?? '*/*'
    if (accept.includes('application/x-ndjson')) {
      if (result.token !== null) reply.header('Airflow-Continuation-Token', result.token)
      reply.type('application/x-ndjson')
      return result.content.map((line) => JSON.stringify(line)).join('\n') + '\n'
    }
    const body: TaskInstancesLogResponse = { content: result.content, continuation_token: result.token }
    return body
  })

  const patch = (params: TaskParams, mapIndex: number | undefined, rawBody: unknown): TaskInstanceCollectionResponse => {
    const body = checkBody<PatchTaskInstanceBody>(PatchTaskInstanceBodySchema, rawBody)
    if (body.new_state != null && !MARKABLE.includes(body.new_state)) {
      throw new Unprocessable([{
        loc: ['body', 'new_state'],
        msg: `Value error, '${body.new_state}' must be one of: ${MARKABLE.join(', ')}`,
        type: 'value_error',
        input: body.new_state
      }])
    }
    const changed = engine.patchTaskInstance(params.dag_id, params.dag_run_id, params.task_id, mapIndex, body)
    return { task_instances: changed, total_entries: changed.length }
  }

  app.patch<{ Params: TaskParams }>(`${BASE}/:task_id`, { config: { access: 'write' } }, async (request) => {
    const q = queryReader(request.query as Query)
    const mapIndex = q.optionalInt('map_index')
    q.list('update_mask')
    q.done()
    return patch(request.params, mapIndex, request.body)
  })

  app.patch<{ Params: MappedParams }>(`${BASE}/:task_id/:map_index`, { config: { access: 'write' } }, async (request) =>
    patch(request.params, pathInt('map_index', request.params.map_index), request.body))

  app.post<{ Params: { dag_id: string } }>('/api/v2/dags/:dag_id/clearTaskInstances', { config: { access: 'write' } }, async (request) => {
    const body = checkBody<ClearTaskInstancesBody>(ClearTaskInstancesBodySchema, request.body)
    const cleared = engine.clearTaskInstances(request.params.dag_id, body)
    return { task_instances: cleared, total_entries: cleared.length }
  })
}
