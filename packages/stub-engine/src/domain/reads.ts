// The engine's read side: DAGs, runs, task instances, their tries and logs as the API lists and shows them,
// with the filters, orderings and paging of each list.
import type {
  DAGResponse, DAGRunResponse, DagRunState, StructuredLogMessage, TaskInstanceHistoryResponse, TaskInstanceResponse,
  TaskInstanceState
} from '@slipway/airflow-contract'
import { tiNotFound, type EngineState } from './engine-state.ts'
import type { EngineOptions } from './engine-options.ts'
import { BadRequest, NotFound } from './errors.ts'
import { mapCount } from './injection.ts'
import { inRanges, orderItems, paginate, searchPattern, type Getter, type Page, type Ranges } from './queries.ts'
import {
  dagView, historyView, runView, seconds, taskInstanceView, tryFieldsOf, type RunRecord, type TaskInstanceRecord
} from './records.ts'
import { readLogToken, signLogToken } from './tokens.ts'

export interface RunFilter {
  limit: number
  offset: number
  states?: string[]
  runTypes?: string[]
  orderBy: string[]
  ranges: Ranges
  runIdPattern?: string
  triggeringUserPattern?: string
  dagIds?: string[]
  /** A batch body's `page_limit`: used as sent, Airflow clamps only the query's `limit` (to its maximum_page_limit). */
  unclamped?: boolean
}

export interface TiFilter {
  limit: number
  offset: number
  orderBy: string[]
  taskId?: string
  taskIds?: string[]
  dagIds?: string[]
  runIds?: string[]
  states?: Array<string | null>
  tryNumbers?: number[]
  operators?: string[]
  pools?: string[]
  queues?: string[]
  executors?: string[]
  displayNamePattern?: string
  ranges: Ranges
  mappedOnly?: boolean
  /** A batch body's `page_limit`: used as sent, Airflow clamps only the query's `limit` (to its maximum_page_limit). */
  unclamped?: boolean
}

const RUN_ORDER: Record<string, Getter<RunRecord>> = {
  id: (r) => r.seq,
  state: (r) => r.state,
  dag_id: (r) => r.dag_id,
  run_id: (r) => r.dag_run_id,
  dag_run_id: (r) => r.dag_run_id,
  logical_date: (r) => r.logical_date,
  run_after: (r) => r.run_after,
  start_date: (r) => r.start_date,
  end_date: (r) => r.end_date,
  updated_at: (r) => r.updated_at,
  conf: (r) => JSON.stringify(r.conf),
  duration: (r) => seconds(r.start_date, r.end_date)
}

interface TiRow { run: RunRecord, ti: TaskInstanceRecord }

/** The primary key Airflow breaks ties by: the instance's id, a UUIDv7 made when its current try began. */
const tiKey: Getter<TiRow> = (r) => r.ti.id

const TI_ORDER: Record<string, Getter<TiRow>> = {
  id: tiKey,
  task_id: (r) => r.ti.task_id,
  state: (r) => r.ti.state,
  duration: (r) => r.ti.duration,
  start_date: (r) => r.ti.start_date,
  end_date: (r) => r.ti.end_date,
  map_index: (r) => r.ti.map_index,
  try_number: (r) => r.ti.try_number,
  logical_date: (r) => r.run.logical_date,
  run_after: (r) => r.run.run_after,
  data_interval_start: (r) => r.run.data_interval_start,
  data_interval_end: (r) => r.run.data_interval_end,
  rendered_map_index: (r) => r.ti.map_index >= 0 ? String(r.ti.map_index) : null,
  operator: (r) => r.ti.operator,
  pool: () => 'default_pool',
  queue: () => 'default',
  priority_weight: (r) => r.ti.priority_weight,
  queued_when: (r) => r.ti.queued_when,
  scheduled_when: (r) => r.ti.scheduled_when
}

/** States that an unfinished try passes through; a try in any other state has ended. */
const LIVE_TRY_STATES: ReadonlySet<string> = new Set(['scheduled', 'queued', 'running', 'deferred', 'restarting', 'up_for_reschedule'])

export function createReads (
  shared: EngineState,
  options: Pick<EngineOptions, 'maxPageLimit' | 'maxActiveRuns' | 'importErrorDags' | 'secret'>
) {
  const { defs, dags, runs, key, defOf, runOf, addressOf, stubOf, isPaused, runsInOrder, findTis } = shared

  // ---- task-instance queries

  function tiRows (filter: { dagIds?: string[], runIds?: string[] }): TiRow[] {
    const rows: TiRow[] = []
    for (const run of runsInOrder()) {
      if (filter.dagIds !== undefined && !filter.dagIds.includes(run.dag_id)) continue
      if (filter.runIds !== undefined && !filter.runIds.includes(run.dag_run_id)) continue
      for (const ti of run.tis) rows.push({ run, ti })
    }
    return rows
  }

  function filterTis (rows: TiRow[], f: TiFilter): Page<TaskInstanceResponse> {
    const pattern = f.displayNamePattern === undefined ? undefined : searchPattern(f.displayNamePattern)
    const matched = rows.filter(({ run, ti }) =>
      (f.taskId === undefined || ti.task_id === f.taskId) &&
      (f.taskIds === undefined || f.taskIds.includes(ti.task_id)) &&
      (f.states === undefined || f.states.includes(ti.state)) &&
      (f.tryNumbers === undefined || f.tryNumbers.includes(ti.try_number)) &&
      (f.operators === undefined || f.operators.includes(ti.operator)) &&
      (f.pools === undefined || f.pools.includes('default_pool')) &&
      (f.queues === undefined || f.queues.includes('default')) &&
      (f.executors === undefined || f.executors.length === 0) &&
      (f.mappedOnly !== true || ti.map_index >= 0) &&
      (pattern === undefined || pattern(ti.task_id)) &&
      inRanges({
        start_date: ti.start_date,
        end_date: ti.end_date,
        logical_date: run.logical_date,
        run_after: run.run_after,
        updated_at: ti.updated_at,
        duration: ti.duration
      }, f.ranges))
    const ordered = orderItems(matched, f.orderBy, TI_ORDER, tiKey)
    const page = paginate(ordered, f.offset, f.limit, f.unclamped === true ? undefined : options.maxPageLimit)
    return { items: page.items.map((r) => taskInstanceView(r.run, r.ti, dags.get(r.run.dag_id)!)), total: page.total }
  }

  /**
   * One instance of a task in a run, found as Airflow finds it: by DAG, run, task and map index together, so that an
   * unknown DAG or run is the same 404 as an unknown task (`missing`). Without a map index the unmapped instance,
   * or Airflow's 404 for a mapped task.
   */
  function oneTi (dagId: string, runId: string, taskId: string, mapIndex: number | undefined, missing: () => NotFound):
  { run: RunRecord, ti: TaskInstanceRecord } {
    const run = runs.get(key(dagId, runId))
    const tis = run?.tis.filter((t) => t.task_id === taskId) ?? []
    const ti = tis.find((t) => t.map_index === (mapIndex ?? -1))
    if (run === undefined || ti === undefined) {
      if (mapIndex === undefined && tis.length > 0) throw new NotFound('Task instance is mapped, add the map_index value to the URL')
      throw missing()
    }
    return { run, ti }
  }

  /**
   * Every try as Airflow 3.1 lists them: the history rows, then the instance itself — also before its first try
   * (try 0) and after a clear (its try again, with no state). An instance waiting to retry is listed as the failed
   * try Airflow has recorded in its history by then.
   */
  function tryList (run: RunRecord, ti: TaskInstanceRecord): TaskInstanceHistoryResponse[] {
    const dag = dags.get(run.dag_id)!
    const all = ti.history.map((h) => historyView(run, ti, h, dag))
    const current = ti.state === 'up_for_retry' ? { ...tryFieldsOf(ti), state: 'failed' as const } : ti
    all.push(historyView(run, ti, current, dag))
    return all
  }

  // ---- DAGs and runs

  function dagResponse (dagId: string): DAGResponse {
    const def = defOf(dagId)
    const dag = dags.get(dagId)!
    return dagView(def, dag, { maxActiveRuns: options.maxActiveRuns, importErrors: options.importErrorDags.has(dagId) })
  }

  function listDags (f: { limit: number, offset: number, paused?: boolean, dagIdPattern?: string, orderBy: string[] }): Page<DAGResponse> {
    const like = f.dagIdPattern === undefined ? undefined : searchPattern(f.dagIdPattern)
    const matched = [...defs.values()].filter((d) =>
      (f.paused === undefined || isPaused(d.dag_id) === f.paused) && (like === undefined || like(d.dag_id)))
    const ordered = orderItems(matched, f.orderBy, { dag_id: (d) => d.dag_id, dag_display_name: (d) => d.dag_id }, (d) => d.dag_id)
    const page = paginate(ordered, f.offset, f.limit, options.maxPageLimit)
    return { items: page.items.map((d) => dagResponse(d.dag_id)), total: page.total }
  }

  function getRun (dagId: string, runId: string): DAGRunResponse {
    const run = runOf(dagId, runId)
    return runView(run, dags.get(dagId)!)
  }

  function listRuns (dagId: string, f: RunFilter): Page<DAGRunResponse> {
    // listing the runs of an unknown DAG is a 404 naming it, as Airflow answers; `~` is every DAG
    if (dagId !== '~' && !defs.has(dagId)) throw new NotFound(`The DAG with dag_id: \`${dagId}\` was not found`)
    const like = f.runIdPattern === undefined ? undefined : searchPattern(f.runIdPattern)
    const userLike = f.triggeringUserPattern === undefined ? undefined : searchPattern(f.triggeringUserPattern)
    const matched = runsInOrder().filter((r) =>
      (dagId === '~' || r.dag_id === dagId) &&
      (f.dagIds === undefined || f.dagIds.includes(r.dag_id)) &&
      (f.states === undefined || f.states.includes(r.state)) &&
      (f.runTypes === undefined || f.runTypes.includes(r.run_type)) &&
      (like === undefined || like(r.dag_run_id)) &&
      (userLike === undefined || (r.triggering_user_name !== null && userLike(r.triggering_user_name))) &&
      inRanges({
        run_after: r.run_after,
        logical_date: r.logical_date,
        start_date: r.start_date,
        end_date: r.end_date,
        updated_at: r.updated_at
      }, f.ranges))
    const ordered = orderItems(matched, f.orderBy, RUN_ORDER, (r) => r.seq)
    const page = paginate(ordered, f.offset, f.limit, f.unclamped === true ? undefined : options.maxPageLimit)
    return { items: page.items.map((r) => runView(r, dags.get(r.dag_id)!)), total: page.total }
  }

  // ---- task instances, tries and logs

  function listTaskInstances (dagId: string, runId: string, f: TiFilter): Page<TaskInstanceResponse> {
    // Airflow 3.1 looks the run up by its id alone, then the DAG
    if (runId !== '~' && ![...runs.values()].some((r) => r.dag_run_id === runId)) {
      throw new NotFound(`DagRun with run_id: \`${runId}\` was not found`)
    }
    if (dagId !== '~') defOf(dagId)
    const rows = tiRows({
      dagIds: dagId === '~' ? f.dagIds : [dagId],
      runIds: runId === '~' ? f.runIds : [runId]
    })
    return filterTis(rows, f)
  }

  function listMapped (dagId: string, runId: string, taskId: string, f: TiFilter): Page<TaskInstanceResponse> {
    const { run, tis } = findTis(dagId, runId, taskId)
    const mapped = tis.some((t) => t.map_index >= 0) || mapCount(addressOf(run, taskId), stubOf(run)) !== undefined
    if (!mapped) {
      if (tis.length === 0) throw new NotFound(`Task id ${taskId} not found`)
      throw new NotFound(`Task id ${taskId} is not mapped`)
    }
    return filterTis(tiRows({ dagIds: [dagId], runIds: [runId] }), { ...f, taskId, mappedOnly: true })
  }

  function getTaskInstance (dagId: string, runId: string, taskId: string, mapIndex: number | undefined): TaskInstanceResponse {
    const { run, ti } = oneTi(dagId, runId, taskId, mapIndex, () => mapIndex === undefined
      ? new NotFound(`The Task Instance with dag_id: \`${dagId}\`, run_id: \`${runId}\` and task_id: \`${taskId}\` was not found`)
      : new NotFound(
        `The Mapped Task Instance with dag_id: \`${dagId}\`, run_id: \`${runId}\`, task_id: \`${taskId}\`, and map_index: \`${mapIndex}\` was not found`
      ))
    return taskInstanceView(run, ti, dags.get(dagId)!)
  }

  function tries (dagId: string, runId: string, taskId: string, mapIndex: number): TaskInstanceHistoryResponse[] {
    const { run, ti } = oneTi(dagId, runId, taskId, mapIndex, () => tiNotFound(dagId, runId, taskId, mapIndex))
    return tryList(run, ti)
  }

  function tryOf (dagId: string, runId: string, taskId: string, mapIndex: number, tryNumber: number): TaskInstanceHistoryResponse {
    const missing = (): NotFound => new NotFound(
      `The Task Instance with dag_id: \`${dagId}\`, run_id: \`${runId}\`, task_id: \`${taskId}\`, try_number: \`${tryNumber}\` and map_index: \`${mapIndex}\` was not found`
    )
    const { run, ti } = oneTi(dagId, runId, taskId, mapIndex, missing)
    // the instance itself first, then its history, as Airflow looks a try up
    const dag = dags.get(dagId)!
    const fields = ti.try_number === tryNumber ? ti : ti.history.find((h) => h.try_number === tryNumber)
    if (fields === undefined) throw missing()
    return historyView(run, ti, fields, dag)
  }

  /** One try's log from `token` on (or all of it); the token stays until the try has ended and all is read. */
  function logOf (
    dagId: string,
    runId: string,
    taskId: string,
    tryNumber: number,
    mapIndex: number,
    read: { fullContent: boolean, token?: string }
  ): { content: StructuredLogMessage[], token: string | null } {
    defOf(dagId)
    const run = runs.get(key(dagId, runId))
    const ti = run?.tis.find((t) => t.task_id === taskId && t.map_index === mapIndex)
    if (run === undefined || ti === undefined || tryNumber < 1 || tryNumber > ti.try_number) throw new NotFound('TaskInstance not found')
    const which = JSON.stringify([dagId, runId, taskId, mapIndex])
    let offset = 0
    if (read.token !== undefined && !read.fullContent) {
      const position = readLogToken(options.secret, read.token)
      if (position === null || position.tiId !== which || position.tryNumber !== tryNumber) {
        throw new BadRequest('Bad Signature. Please use only the tokens provided by the API.')
      }
      offset = position.offset
    }
    const lines = shared.logLines(run, ti, tryNumber)
    const mapped = mapIndex >= 0 ? `map_index=${mapIndex}/` : ''
    const header: StructuredLogMessage[] = offset > 0
      ? []
      : [
          {
            event: '::group::Log message source details',
            sources: [`/opt/airflow/logs/dag_id=${dagId}/run_id=${runId}/task_id=${taskId}/${mapped}attempt=${tryNumber}.log`]
          },
          { event: '::endgroup::' }
        ]
    const ended = tryNumber < ti.try_number || ti.state === null || !LIVE_TRY_STATES.has(ti.state)
    const content = [...header, ...lines.slice(offset)]
    return { content, token: ended ? null : signLogToken(options.secret, { tiId: which, tryNumber, offset: lines.length }) }
  }

  /** The run states ever produced, for the closed-enum guard test. */
  function allStates (): { runs: DagRunState[], tis: Array<TaskInstanceState | null> } {
    const all = [...runs.values()]
    return { runs: all.map((r) => r.state), tis: all.flatMap((r) => r.tis.map((t) => t.state)) }
  }

  return { listDags, dagResponse, getRun, listRuns, listTaskInstances, listMapped, getTaskInstance, tries, tryOf, logOf, allStates }
}

export type Reads = ReturnType<typeof createReads>
