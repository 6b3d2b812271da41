// The simulated Airflow: DAG flags, runs and task instances, the scheduler loop that moves them through
// their states (spec/engine.md §8.4, §8.5), task execution with per-try logs, and the API operations on them.
import { hostname as osHostname } from 'node:os'
import { randomUUID } from 'node:crypto'
import { Value } from 'typebox/value'
import {
  FINISHED_RUN_STATES, type ClearTaskInstancesBody, type DAGResponse, type DAGRunPatchBody, type DAGRunResponse,
  type DagRunState, type PatchTaskInstanceBody, type StructuredLogMessage, type TaskInstanceHistoryResponse,
  type TaskInstanceResponse, type TaskInstanceState, type TriggerDAGRunPostBody
} from '../schemas/airflow.ts'
import { StubConfSchema, type StubConf } from '../schemas/stub.ts'
import { BadRequest, Conflict, NotFound, Unprocessable, uniqueConstraintDetail } from './errors.ts'
import { mapCount, planTask, retriesOverride, type InjectionRules, type TaskAddress } from './injection.ts'
import { runOperator, TaskFailure, type LogLevel, type OperatorContext, type SideEffects } from './operators.ts'
import { inRanges, orderItems, paginate, searchPattern, type Getter, type Page, type Ranges } from './queries.ts'
import {
  dagView, errorDetail, historyView, isoNow, runView, seconds, taskInstanceView, tryFieldsOf,
  type DagRecord, type EngineSnapshot, type LogLine, type RunRecord, type TaskInstanceRecord
} from './records.ts'
import { isFinished, readiness, runOutcome } from './scheduler-rules.ts'
import { readLogToken, signLogToken } from './tokens.ts'
import { leafTasks, priorityWeights, siteWorkflows, SITE_ACTION_DAGS, type DagDef, type TaskDef } from './workflows.ts'

export interface EngineOptions {
  taskMs: number
  retryDelayMs: number
  tickMs: number
  maxPageLimit: number
  maxActiveRuns: number
  pausedAtCreation: boolean
  rules: InjectionRules
  importErrorDags: ReadonlySet<string>
  effects: SideEffects
  /** Signs log continuation tokens. */
  secret: string
  /** Persistence; absent: memory only. */
  persistence?: { load: () => EngineSnapshot | null, save: (snapshot: EngineSnapshot) => void }
  log?: (fields: Record<string, unknown>, message: string) => void
}

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
  /** A batch body's `page_limit`: used as sent, Airflow clamps only the query's `limit` (spec/engine.md §2). */
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
  /** A batch body's `page_limit`: used as sent, Airflow clamps only the query's `limit` (spec/engine.md §2). */
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

interface TiRow { run: RunRecord, ti: TaskInstanceRecord, ordinal: number }

const TI_ORDER: Record<string, Getter<TiRow>> = {
  id: (r) => r.ordinal,
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

type Outcome =
  | { kind: 'success', follow?: string[] }
  | { kind: 'failed', error: string }
  | { kind: 'skipped' }
  | { kind: 'defer', ms: number }
  | { kind: 'aborted' }

/** Sleeps unless the signal aborts first (then rejects). */
function sleep (ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) { reject(new Error('aborted')); return }
    const timer = setTimeout(() => { signal.removeEventListener('abort', onAbort); resolve() }, ms)
    const onAbort = (): void => { clearTimeout(timer); reject(new Error('aborted')) }
    signal.addEventListener('abort', onAbort, { once: true })
  })
}

const runNotFound = (dagId: string, runId: string): NotFound =>
  new NotFound(`The DagRun with dag_id: \`${dagId}\` and run_id: \`${runId}\` was not found`)

export function createEngine (options: EngineOptions) {
  const defs = new Map<string, DagDef>(siteWorkflows().map((d) => [d.dag_id, d]))
  const taskDefs = new Map<string, Map<string, TaskDef>>()
  const taskIndex = new Map<string, Map<string, number>>()
  const weights = new Map<string, Map<string, number>>()
  const leaves = new Map<string, Set<string>>()
  for (const def of defs.values()) {
    taskDefs.set(def.dag_id, new Map(def.tasks.map((t) => [t.task_id, t])))
    taskIndex.set(def.dag_id, new Map(def.tasks.map((t, i) => [t.task_id, i])))
    weights.set(def.dag_id, priorityWeights(def))
    leaves.set(def.dag_id, leafTasks(def))
  }
  const hostname = osHostname()
  const log = options.log ?? (() => {})

  let seq = 0
  const dags = new Map<string, DagRecord>()
  const runs = new Map<string, RunRecord>()
  const executing = new Map<string, AbortController>()
  const key = (dagId: string, runId: string): string => `${dagId}\u0000${runId}`

  function restore (): void {
    const snapshot = options.persistence?.load() ?? null
    if (snapshot !== null) {
      seq = snapshot.seq
      for (const dag of snapshot.dags) if (defs.has(dag.dag_id)) dags.set(dag.dag_id, dag)
      for (const run of snapshot.runs) if (defs.has(run.dag_id)) runs.set(key(run.dag_id, run.dag_run_id), run)
      // The processes of running tries died with the old engine: run those tries again from the start.
      for (const run of runs.values()) {
        for (const ti of run.tis) {
          if (ti.state === 'running') {
            ti.state = 'queued'
            appendLog(ti, ti.try_number, 'warning', '*** The engine restarted while this try was running: the try runs again')
          } else if (ti.state === 'restarting') {
            ti.state = null
          }
        }
      }
    }
    const now = isoNow()
    for (const def of defs.values()) {
      if (dags.has(def.dag_id)) continue
      dags.set(def.dag_id, { dag_id: def.dag_id, is_paused: options.pausedAtCreation, created_at: now, version_id: randomUUID() })
    }
  }

  // ---- persistence

  let saveTimer: NodeJS.Timeout | undefined
  function snapshot (): EngineSnapshot {
    return { seq, dags: [...dags.values()], runs: [...runs.values()] }
  }
  function changed (): void {
    if (options.persistence === undefined || saveTimer !== undefined) return
    saveTimer = setTimeout(flush, 50)
  }
  function flush (): void {
    if (saveTimer !== undefined) clearTimeout(saveTimer)
    saveTimer = undefined
    options.persistence?.save(snapshot())
  }

  // ---- lookups

  function defOf (dagId: string): DagDef {
    const def = defs.get(dagId)
    if (def === undefined) throw new NotFound(`Dag with id ${dagId} was not found`)
    return def
  }
  function dagOf (dagId: string): DagRecord {
    defOf(dagId)
    return dags.get(dagId)!
  }
  function runOf (dagId: string, runId: string): RunRecord {
    const run = runs.get(key(dagId, runId))
    if (run === undefined) throw runNotFound(dagId, runId)
    return run
  }
  function taskDefOf (run: RunRecord, taskId: string): TaskDef | undefined {
    return taskDefs.get(run.dag_id)?.get(taskId)
  }
  function addressOf (run: RunRecord, taskId: string): TaskAddress {
    return { dagId: run.dag_id, taskId }
  }
  function stubOf (run: RunRecord): StubConf | undefined {
    const stub = run.conf.stub
    return typeof stub === 'object' && stub !== null ? stub as StubConf : undefined
  }
  function isPaused (dagId: string): boolean {
    return dags.get(dagId)!.is_paused
  }
  const runsInOrder = (): RunRecord[] => [...runs.values()].sort((a, b) => a.seq - b.seq)

  // ---- logs

  function appendLog (ti: TaskInstanceRecord, tryNumber: number, level: LogLevel, event: string, extra: Record<string, unknown> = {}): void {
    const lines = ti.logs[String(tryNumber)] ?? (ti.logs[String(tryNumber)] = [])
    const line: LogLine = { timestamp: isoNow(), event, level, logger: 'task', ...extra }
    lines.push(line)
  }

  // ---- creating runs and task instances

  function newTaskInstance (run: RunRecord, def: TaskDef, mapIndex: number): TaskInstanceRecord {
    const now = isoNow()
    return {
      id: randomUUID(),
      task_id: def.task_id,
      map_index: mapIndex,
      operator: def.operator,
      priority_weight: weights.get(run.dag_id)?.get(def.task_id) ?? 1,
      note: null,
      try_number: 0,
      max_tries: retriesOverride(addressOf(run, def.task_id), stubOf(run)) ?? def.retries,
      state: null,
      start_date: null,
      end_date: null,
      duration: null,
      queued_when: null,
      scheduled_when: null,
      hostname: null,
      unixname: null,
      pid: null,
      history: [],
      logs: {},
      retry_at: null,
      defer_until: null,
      trigger: null,
      resumed: false,
      recorded: false,
      updated_at: now
    }
  }

  function createRun (fields: Omit<RunRecord, 'seq' | 'tis' | 'updated_at' | 'queued_at' | 'start_date' | 'end_date' | 'state' | 'last_scheduling_decision'>): RunRecord {
    const now = isoNow()
    const run: RunRecord = { ...fields, seq: ++seq, tis: [], updated_at: now, queued_at: now, start_date: null, end_date: null, state: 'queued', last_scheduling_decision: null }
    run.tis = defOf(run.dag_id).tasks.map((t) => newTaskInstance(run, t, -1))
    runs.set(key(run.dag_id, run.dag_run_id), run)
    return run
  }

  // ---- executing one try

  function finishTry (run: RunRecord, ti: TaskInstanceRecord, tryNumber: number, outcome: Outcome): void {
    executing.delete(ti.id)
    if (runs.get(key(run.dag_id, run.dag_run_id)) !== run || ti.try_number !== tryNumber) return
    if (outcome.kind === 'aborted') {
      // spec/engine.md §8.5: a cleared running try is `restarting` until its process stops, then runs again as a new try
      if (ti.state === 'restarting') {
        endTry(ti, null)
        appendLog(ti, tryNumber, 'warning', 'Task instance was cleared while running: stopped, it will run again as a new try')
        changed()
      }
      return
    }
    if (ti.state !== 'running') return
    const now = isoNow()
    switch (outcome.kind) {
      case 'success':
        endTry(ti, 'success')
        appendLog(ti, tryNumber, 'info', `Marking task as SUCCESS. dag_id=${run.dag_id}, task_id=${ti.task_id}, run_id=${run.dag_run_id}, start_date=${ti.start_date}, end_date=${ti.end_date}`)
        if (outcome.follow !== undefined) skipUnfollowed(run, ti.task_id, outcome.follow)
        break
      case 'skipped':
        endTry(ti, 'skipped')
        appendLog(ti, tryNumber, 'info', 'Skipping task. Marking task as SKIPPED.')
        break
      case 'defer':
        ti.state = 'deferred'
        ti.defer_until = new Date(Date.now() + outcome.ms).toISOString()
        ti.trigger = { id: run.seq * 1000 + (taskIndex.get(run.dag_id)?.get(ti.task_id) ?? 0), classpath: 'airflow.triggers.temporal.TimeDeltaTrigger', kwargs: JSON.stringify({ delta_ms: outcome.ms }), created_date: now, triggerer_id: null }
        ti.resumed = true
        ti.updated_at = now
        appendLog(ti, tryNumber, 'info', `Pausing task as DEFERRED. Trigger fires in ${outcome.ms} ms`)
        break
      case 'failed': {
        appendLog(ti, tryNumber, 'error', outcome.error)
        appendLog(ti, tryNumber, 'error', 'Task failed with exception', { logger: 'task', error_detail: errorDetail(ti.operator, outcome.error) })
        const retry = ti.try_number <= ti.max_tries
        endTry(ti, retry ? 'up_for_retry' : 'failed')
        if (retry) ti.retry_at = new Date(Date.now() + options.retryDelayMs).toISOString()
        appendLog(ti, tryNumber, 'error', `Marking task as ${retry ? 'UP_FOR_RETRY' : 'FAILED'}. dag_id=${run.dag_id}, task_id=${ti.task_id}, run_id=${run.dag_run_id}`)
        break
      }
    }
    run.updated_at = now
    changed()
  }

  /**
   * Airflow's TaskInstance.set_state, for an instance that gets a state without (further) running: a start date
   * when it has none, and for a final state an end date when it has none and the duration between them.
   */
  function setState (ti: TaskInstanceRecord, state: TaskInstanceState): void {
    if (ti.state === state) return
    const now = isoNow()
    ti.state = state
    ti.start_date ??= now
    if (isFinished(state) || state === 'up_for_retry') {
      ti.end_date ??= now
      ti.duration = seconds(ti.start_date, ti.end_date)
    }
    ti.updated_at = now
  }

  function endTry (ti: TaskInstanceRecord, state: TaskInstanceState | null): void {
    const now = isoNow()
    ti.state = state
    ti.end_date = now
    ti.duration = seconds(ti.start_date ?? now, now)
    ti.updated_at = now
  }

  function launch (run: RunRecord, ti: TaskInstanceRecord, def: TaskDef): void {
    const controller = new AbortController()
    executing.set(ti.id, controller)
    const tryNumber = ti.try_number
    const address = addressOf(run, ti.task_id)
    const stub = stubOf(run)
    const plan = planTask(address, stub, options.rules, options.taskMs)
    const signal = controller.signal
    const say = (event: string, level: LogLevel = 'info', extra: Record<string, unknown> = {}): void => {
      if (ti.try_number === tryNumber) { appendLog(ti, tryNumber, level, event, extra); changed() }
    }
    const ctx: OperatorContext = {
      address,
      conf: run.conf,
      stub,
      effects: options.effects,
      log: say,
      pause: () => sleep(plan.durationMs / 3, signal),
      concurrencyConflicts: () => concurrencyConflicts(run),
      taskState: (taskId) => run.tis.find((t) => t.task_id === taskId)?.state
    }
    async function execute (): Promise<Outcome> {
      const started = Date.now()
      say(`Executing <Task(${def.operator}): ${ti.task_id}> on ${run.logical_date ?? run.run_after}`, 'info', { try_number: tryNumber, map_index: ti.map_index })
      if (tryNumber > 1) say(`Starting attempt ${tryNumber} of ${ti.max_tries + 1}`)
      if (plan.hang) {
        say('Injected hang: the task runs until it is stopped', 'warning')
        await new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true }))
      }
      if (!ti.resumed && plan.deferMs !== null) {
        await sleep(plan.durationMs / 3, signal)
        return { kind: 'defer', ms: plan.deferMs }
      }
      if (ti.resumed) say('Resuming after deferral')
      if (tryNumber <= plan.failTries) {
        await sleep(plan.durationMs, signal)
        return { kind: 'failed', error: `Injected failure of try ${tryNumber}` }
      }
      if (plan.skip) {
        await sleep(plan.durationMs, signal)
        return { kind: 'skipped' }
      }
      const result = await runOperator(def.kind, ctx)
      const left = plan.durationMs - (Date.now() - started)
      if (left > 0) await sleep(left, signal)
      return result?.follow === undefined ? { kind: 'success' } : { kind: 'success', follow: result.follow }
    }
    execute().then(
      (outcome) => finishTry(run, ti, tryNumber, outcome),
      (error: unknown) => {
        if (signal.aborted) { finishTry(run, ti, tryNumber, { kind: 'aborted' }); return }
        const e = error as { name?: string, message?: string, reason?: string }
        // errors from the outbound clients carry the useful part (what failed, how) in `reason`
        const detail = e.reason !== undefined && e.reason !== e.message ? `${e.message ?? ''} (${e.reason})` : e.message ?? String(error)
        const text = error instanceof TaskFailure ? detail : `${e.name ?? 'Error'}: ${detail}`
        finishTry(run, ti, tryNumber, { kind: 'failed', error: text })
      }
    )
  }

  function stopExecution (ti: TaskInstanceRecord): void {
    executing.get(ti.id)?.abort()
    executing.delete(ti.id)
  }

  function concurrencyConflicts (run: RunRecord): string[] {
    return runsInOrder()
      .filter((r) => r !== run && r.state === 'running' && SITE_ACTION_DAGS.has(r.dag_id))
      .map((r) => `${r.dag_id}/${r.dag_run_id}`)
  }

  function skipUnfollowed (run: RunRecord, branchTask: string, follow: string[]): void {
    const def = defs.get(run.dag_id)!
    for (const t of def.tasks) {
      if (!t.upstream.includes(branchTask) || follow.includes(t.task_id)) continue
      for (const ti of run.tis) {
        if (ti.task_id === t.task_id && ti.state === null) setState(ti, 'skipped')
      }
    }
  }

  // ---- the scheduler loop

  function newTry (run: RunRecord, ti: TaskInstanceRecord): void {
    const now = isoNow()
    if (ti.try_number > 0 && !ti.recorded) {
      // as Airflow's history does, a try that ended unfinished (e.g. up_for_retry) is recorded as failed
      const previous = tryFieldsOf(ti)
      if (!isFinished(previous.state)) previous.state = 'failed'
      ti.history.push(previous)
    }
    ti.try_number += 1
    ti.state = 'scheduled'
    ti.scheduled_when = now
    ti.queued_when = null
    ti.start_date = null
    ti.end_date = null
    ti.duration = null
    ti.hostname = null
    ti.unixname = null
    ti.pid = null
    ti.retry_at = null
    ti.resumed = false
    ti.recorded = false
    ti.trigger = null
    ti.updated_at = now
    ti.logs[String(ti.try_number)] = []
    run.updated_at = now
  }

  function expand (run: RunRecord, ti: TaskInstanceRecord, def: TaskDef, count: number): void {
    if (count === 0) { ti.state = 'skipped'; ti.updated_at = isoNow(); return }
    const at = run.tis.indexOf(ti)
    const copies = Array.from({ length: count }, (_, i) => newTaskInstance(run, def, i))
    run.tis.splice(at, 1, ...copies)
  }

  function advanceTask (run: RunRecord, ti: TaskInstanceRecord, now: number): boolean {
    const def = taskDefOf(run, ti.task_id)
    if (def === undefined) return false
    const nowIso = new Date(now).toISOString()
    switch (ti.state) {
      case null: {
        const upstream = run.tis.filter((t) => def.upstream.includes(t.task_id)).map((t) => t.state)
        const ready = readiness(def.trigger_rule, upstream)
        if (ready === 'wait') return false
        if (ready !== 'run') { setState(ti, ready); return true }
        const count = ti.map_index === -1 ? mapCount(addressOf(run, ti.task_id), stubOf(run)) : undefined
        if (count !== undefined) { expand(run, ti, def, count); return true }
        newTry(run, ti)
        return true
      }
      case 'up_for_retry':
        if (ti.retry_at !== null && Date.parse(ti.retry_at) > now) return false
        newTry(run, ti)
        return true
      case 'deferred':
        if (ti.defer_until !== null && Date.parse(ti.defer_until) > now) return false
        // spec/engine.md §8.5: the trigger fired; the same try is scheduled again
        ti.state = 'scheduled'
        ti.scheduled_when = nowIso
        ti.defer_until = null
        ti.trigger = null
        ti.updated_at = nowIso
        return true
      case 'scheduled':
        ti.state = 'queued'
        ti.queued_when = nowIso
        ti.updated_at = nowIso
        return true
      case 'queued':
        ti.state = 'running'
        ti.start_date ??= nowIso
        ti.hostname = hostname
        ti.unixname = 'airflow'
        ti.pid = process.pid
        ti.updated_at = nowIso
        launch(run, ti, def)
        return true
      default:
        return false
    }
  }

  function finishRunIfDone (run: RunRecord): boolean {
    if (!run.tis.every((t) => isFinished(t.state))) return false
    const leafIds = leaves.get(run.dag_id)!
    const state = runOutcome(run.tis.filter((t) => leafIds.has(t.task_id) && t.state !== 'removed').map((t) => t.state))
    const now = isoNow()
    run.state = state
    run.end_date = now
    run.updated_at = now
    log({ dagId: run.dag_id, runId: run.dag_run_id, state }, 'run finished')
    return true
  }

  function tick (): void {
    const now = Date.now()
    const nowIso = new Date(now).toISOString()
    let any = false
    const active = runsInOrder().filter((r) => !FINISHED_RUN_STATES.has(r.state))
    const runningCount = new Map<string, number>()
    for (const r of active) if (r.state === 'running') runningCount.set(r.dag_id, (runningCount.get(r.dag_id) ?? 0) + 1)
    for (const run of active) {
      if (isPaused(run.dag_id)) continue
      if (run.state === 'queued') {
        const count = runningCount.get(run.dag_id) ?? 0
        if (Date.parse(run.run_after) > now || count >= options.maxActiveRuns) continue
        run.state = 'running'
        run.start_date = nowIso
        run.end_date = null
        run.updated_at = nowIso
        runningCount.set(run.dag_id, count + 1)
        any = true
        continue
      }
      run.last_scheduling_decision = nowIso
      let moved = false
      for (const ti of [...run.tis]) if (advanceTask(run, ti, now)) moved = true
      if (moved) { run.updated_at = nowIso; any = true }
      if (finishRunIfDone(run)) any = true
    }
    if (any) changed()
  }

  let timer: NodeJS.Timeout | undefined

  // ---- operations that change runs and task instances

  function resetTi (run: RunRecord, ti: TaskInstanceRecord): void {
    const def = taskDefOf(run, ti.task_id)
    const now = isoNow()
    if (ti.state === 'running') {
      ti.state = 'restarting'
      stopExecution(ti)
    } else {
      if (ti.state === 'deferred') endTry(ti, null)
      if (ti.try_number > 0 && !ti.recorded && isFinished(ti.state)) {
        // the ended try keeps its outcome in history; the instance itself starts over with no state
        ti.history.push(tryFieldsOf(ti))
        ti.recorded = true
      }
      ti.state = null
    }
    ti.retry_at = null
    ti.defer_until = null
    ti.trigger = null
    // spec/engine.md §4.6: clearing gives the instance its retries again
    ti.max_tries = ti.try_number + (retriesOverride(addressOf(run, ti.task_id), stubOf(run)) ?? def?.retries ?? 0)
    ti.updated_at = now
  }

  function requeue (run: RunRecord): void {
    const now = isoNow()
    run.state = 'queued'
    run.queued_at = now
    run.end_date = null
    run.updated_at = now
  }

  /** Forces every instance of a run to an end state, as PATCH …/dagRuns/{id} does (spec/engine.md §4.5). */
  function forceRunState (run: RunRecord, state: 'success' | 'failed'): void {
    const now = isoNow()
    for (const ti of run.tis) {
      if (state === 'success') {
        if (ti.state === 'success') continue
        if (ti.state === 'running') { stopExecution(ti); appendLog(ti, ti.try_number, 'warning', 'State of this instance has been externally set to success. Terminating instance.') }
        if (ti.state === 'running' || ti.state === 'deferred') endTry(ti, 'success')
        else setState(ti, 'success')
        continue
      }
      if (ti.state === 'running' || ti.state === 'deferred' || ti.state === 'up_for_reschedule') {
        stopExecution(ti)
        appendLog(ti, ti.try_number, 'error', 'Received SIGTERM. Terminating subprocesses.')
        appendLog(ti, ti.try_number, 'error', 'State of this instance has been externally set to failed. Terminating instance.')
        endTry(ti, 'failed')
      } else if (!isFinished(ti.state)) {
        if (ti.state === 'restarting') stopExecution(ti)
        setState(ti, 'skipped')
      }
    }
    run.state = state
    run.end_date = now
    run.updated_at = now
  }

  /**
   * What Airflow's set_task_instance_state does after marking a task: clear the failed and upstream_failed
   * instances downstream of it (not the task itself), and put a finished run back to queued so that it runs on.
   */
  function resumeDownstream (run: RunRecord, taskId: string): void {
    const tasks = defs.get(run.dag_id)!.tasks
    const downstream = new Set<string>()
    const stack = [taskId]
    while (stack.length > 0) {
      const id = stack.pop()!
      for (const t of tasks) if (t.upstream.includes(id) && !downstream.has(t.task_id)) { downstream.add(t.task_id); stack.push(t.task_id) }
    }
    downstream.delete(taskId)
    const cleared = run.tis.filter((t) => downstream.has(t.task_id) && (t.state === 'failed' || t.state === 'upstream_failed'))
    for (const ti of cleared) resetTi(run, ti)
    if (cleared.length > 0 && FINISHED_RUN_STATES.has(run.state)) requeue(run)
  }

  // ---- task-instance queries

  function tiRows (filter: { dagIds?: string[], runIds?: string[] }): TiRow[] {
    const rows: TiRow[] = []
    for (const run of runsInOrder()) {
      if (filter.dagIds !== undefined && !filter.dagIds.includes(run.dag_id)) continue
      if (filter.runIds !== undefined && !filter.runIds.includes(run.dag_run_id)) continue
      const order = taskIndex.get(run.dag_id)!
      for (const ti of run.tis) rows.push({ run, ti, ordinal: run.seq * 1e6 + (order.get(ti.task_id) ?? 0) * 1000 + ti.map_index + 1 })
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
    const ordered = orderItems(matched, f.orderBy, TI_ORDER, (r) => r.ordinal)
    const page = paginate(ordered, f.offset, f.limit, f.unclamped === true ? undefined : options.maxPageLimit)
    return { items: page.items.map((r) => taskInstanceView(r.run, r.ti, dags.get(r.run.dag_id)!)), total: page.total }
  }

  function findTis (dagId: string, runId: string, taskId: string): { run: RunRecord, tis: TaskInstanceRecord[] } {
    defOf(dagId)
    const run = runOf(dagId, runId)
    return { run, tis: run.tis.filter((t) => t.task_id === taskId) }
  }

  function tiNotFound (dagId: string, runId: string, taskId: string, mapIndex: number): NotFound {
    return new NotFound(`The Task Instance with dag_id: \`${dagId}\`, run_id: \`${runId}\`, task_id: \`${taskId}\` and map_index: \`${mapIndex}\` was not found`)
  }

  function oneTi (dagId: string, runId: string, taskId: string, mapIndex: number | undefined): { run: RunRecord, ti: TaskInstanceRecord } {
    const { run, tis } = findTis(dagId, runId, taskId)
    if (mapIndex === undefined) {
      const unmapped = tis.find((t) => t.map_index === -1)
      if (unmapped === undefined && tis.length > 0) throw new NotFound('Task instance is mapped, add the map_index value to the URL')
      if (unmapped === undefined) throw tiNotFound(dagId, runId, taskId, -1)
      return { run, ti: unmapped }
    }
    const ti = tis.find((t) => t.map_index === mapIndex)
    if (ti === undefined) throw tiNotFound(dagId, runId, taskId, mapIndex)
    return { run, ti }
  }

  function tryList (run: RunRecord, ti: TaskInstanceRecord): TaskInstanceHistoryResponse[] {
    const dag = dags.get(run.dag_id)!
    const all = ti.history.map((h) => historyView(run, ti, h, dag))
    if (ti.try_number > 0 && !ti.recorded) all.push(historyView(run, ti, ti, dag))
    return all
  }

  function dagResponse (dagId: string): DAGResponse {
    const def = defOf(dagId)
    const dag = dags.get(dagId)!
    return dagView(def, dag, { maxActiveRuns: options.maxActiveRuns, importErrors: options.importErrorDags.has(dagId) })
  }

  // ---- the public operations

  return {
    start (): void {
      restore()
      timer = setInterval(tick, options.tickMs)
      timer.unref()
    },

    async close (): Promise<void> {
      if (timer !== undefined) clearInterval(timer)
      for (const controller of executing.values()) controller.abort()
      executing.clear()
      if (options.persistence !== undefined) flush()
    },

    /** One scheduler pass (tests drive the loop by hand with it). */
    tick,

    listDags (f: { limit: number, offset: number, paused?: boolean, dagIdPattern?: string, orderBy: string[] }): Page<DAGResponse> {
      const like = f.dagIdPattern === undefined ? undefined : searchPattern(f.dagIdPattern)
      const matched = [...defs.values()].filter((d) =>
        (f.paused === undefined || isPaused(d.dag_id) === f.paused) && (like === undefined || like(d.dag_id)))
      const ordered = orderItems(matched, f.orderBy, { dag_id: (d) => d.dag_id, dag_display_name: (d) => d.dag_id }, (d) => d.dag_id)
      const page = paginate(ordered, f.offset, f.limit, options.maxPageLimit)
      return { items: page.items.map((d) => dagResponse(d.dag_id)), total: page.total }
    },

    dagResponse,

    patchDag (dagId: string, isPaused: boolean): DAGResponse {
      const dag = dagOf(dagId)
      if (dag.is_paused !== isPaused) {
        dag.is_paused = isPaused
        log({ dagId, isPaused }, isPaused ? 'DAG paused' : 'DAG unpaused')
        changed()
      }
      return dagResponse(dagId)
    },

    trigger (dagId: string, body: TriggerDAGRunPostBody, user: string | null, requestId: string): DAGRunResponse {
      const def = defs.get(dagId)
      if (def === undefined) throw new NotFound(`DAG with dag_id: '${dagId}' not found`)
      if (options.importErrorDags.has(dagId)) throw new BadRequest(`DAG with dag_id: '${dagId}' has import errors and cannot be triggered`)
      const conf = body.conf ?? {}
      if (conf.stub !== undefined && !Value.Check(StubConfSchema, conf.stub)) {
        const first = [...Value.Errors(StubConfSchema, conf.stub)][0]
        throw new BadRequest(`Invalid input for param stub: ${first === undefined ? 'invalid' : `${first.instancePath || '/'} ${first.message}`}`)
      }
      const hasStart = body.data_interval_start != null
      const hasEnd = body.data_interval_end != null
      if (hasStart !== hasEnd) {
        throw new Unprocessable([{ loc: ['body'], msg: 'Value error, Either both data_interval_start and data_interval_end must be provided or both must be None', type: 'value_error' }])
      }
      const now = isoNow()
      const logicalDate = body.logical_date === null ? null : new Date(body.logical_date).toISOString()
      const runAfter = body.run_after != null ? new Date(body.run_after).toISOString() : logicalDate ?? now
      const runId = body.dag_run_id ?? `manual__${runAfter.replace('Z', '+00:00')}`
      if (runs.has(key(dagId, runId))) throw new Conflict(uniqueConstraintDetail('dag_run', requestId))
      // Airflow 3.0–3.2 keep a unique key on (dag_id, logical_date) as well: a second run at the same date is refused
      if (logicalDate !== null && [...runs.values()].some((r) => r.dag_id === dagId && r.logical_date === logicalDate)) {
        throw new Conflict(uniqueConstraintDetail('dag_run', requestId, ['dag_id', 'logical_date']))
      }
      const run = createRun({
        dag_id: dagId,
        dag_run_id: runId,
        logical_date: logicalDate,
        run_after: runAfter,
        data_interval_start: hasStart ? new Date(body.data_interval_start!).toISOString() : logicalDate,
        data_interval_end: hasEnd ? new Date(body.data_interval_end!).toISOString() : logicalDate,
        run_type: 'manual',
        triggered_by: 'rest_api',
        triggering_user_name: user,
        conf,
        note: body.note ?? null
      })
      log({ dagId, runId, paused: dags.get(dagId)!.is_paused }, 'run triggered')
      changed()
      return runView(run, dags.get(dagId)!)
    },

    getRun (dagId: string, runId: string): DAGRunResponse {
      const run = runOf(dagId, runId)
      return runView(run, dags.get(dagId)!)
    },

    listRuns (dagId: string, f: RunFilter): Page<DAGRunResponse> {
      // spec/engine.md §4.4
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
        inRanges({ run_after: r.run_after, logical_date: r.logical_date, start_date: r.start_date, end_date: r.end_date, updated_at: r.updated_at }, f.ranges))
      const ordered = orderItems(matched, f.orderBy, RUN_ORDER, (r) => r.seq)
      const page = paginate(ordered, f.offset, f.limit, f.unclamped === true ? undefined : options.maxPageLimit)
      return { items: page.items.map((r) => runView(r, dags.get(r.dag_id)!)), total: page.total }
    },

    patchRun (dagId: string, runId: string, body: DAGRunPatchBody, updateMask: string[] | undefined): DAGRunResponse {
      defOf(dagId)
      const run = runOf(dagId, runId)
      const applies = (field: string): boolean => updateMask === undefined || updateMask.includes(field)
      if (updateMask !== undefined) {
        const unknown = updateMask.filter((m) => m !== 'state' && m !== 'note')
        if (unknown.length > 0) throw new BadRequest(`Invalid fields to update: ${unknown.join(', ')}`)
      }
      if (applies('state') && body.state != null) {
        if (body.state === 'queued') requeue(run)
        else forceRunState(run, body.state)
        log({ dagId, runId, state: body.state }, 'run state set')
      }
      if (applies('note') && body.note !== undefined) run.note = body.note
      run.updated_at = isoNow()
      changed()
      return runView(run, dags.get(dagId)!)
    },

    deleteRun (dagId: string, runId: string): void {
      defOf(dagId)
      const run = runOf(dagId, runId)
      for (const ti of run.tis) stopExecution(ti)
      runs.delete(key(dagId, runId))
      changed()
    },

    clearRun (dagId: string, runId: string, body: { dry_run: boolean, only_failed: boolean }): { dryRun: true, tis: TaskInstanceResponse[] } | { dryRun: false, run: DAGRunResponse } {
      defOf(dagId)
      const run = runOf(dagId, runId)
      const selected = run.tis.filter((t) => !body.only_failed || t.state === 'failed' || t.state === 'upstream_failed')
      const dag = dags.get(dagId)!
      if (body.dry_run) return { dryRun: true, tis: selected.map((t) => taskInstanceView(run, t, dag)) }
      for (const ti of selected) resetTi(run, ti)
      requeue(run)
      changed()
      return { dryRun: false, run: runView(run, dag) }
    },

    clearTaskInstances (dagId: string, body: ClearTaskInstancesBody): TaskInstanceResponse[] {
      const def = defOf(dagId)
      let targets: RunRecord[]
      if (body.dag_run_id != null) {
        targets = [runOf(dagId, body.dag_run_id)]
      } else {
        targets = runsInOrder().filter((r) => r.dag_id === dagId &&
          inRanges({ logical_date: r.logical_date ?? r.run_after }, { logical_date_gte: body.start_date ?? undefined, logical_date_lte: body.end_date ?? undefined }))
      }
      const wanted = new Map<string, number | null>()
      for (const entry of body.task_ids ?? def.tasks.map((t) => t.task_id)) {
        if (typeof entry === 'string') wanted.set(entry, null)
        else wanted.set(entry[0], entry[1])
      }
      const expand = (from: string[], up: boolean): string[] => {
        const out = new Set<string>()
        const stack = [...from]
        while (stack.length > 0) {
          const id = stack.pop()!
          const next = up
            ? def.tasks.find((t) => t.task_id === id)?.upstream ?? []
            : def.tasks.filter((t) => t.upstream.includes(id)).map((t) => t.task_id)
          for (const n of next) if (!out.has(n)) { out.add(n); stack.push(n) }
        }
        return [...out]
      }
      const named = [...wanted.keys()]
      if (body.include_upstream === true) for (const id of expand(named, true)) if (!wanted.has(id)) wanted.set(id, null)
      if (body.include_downstream === true) for (const id of expand(named, false)) if (!wanted.has(id)) wanted.set(id, null)
      const onlyFailed = body.only_failed ?? true
      const dryRun = body.dry_run ?? true
      const out: TaskInstanceResponse[] = []
      for (const run of targets) {
        const chosen = run.tis.filter((ti) => {
          if (!wanted.has(ti.task_id)) return false
          const index = wanted.get(ti.task_id)
          if (index !== null && index !== undefined && ti.map_index !== index) return false
          if (body.only_running === true) return ti.state === 'running'
          return !onlyFailed || ti.state === 'failed' || ti.state === 'upstream_failed'
        })
        if (!dryRun) {
          for (const ti of chosen) resetTi(run, ti)
          if (chosen.length > 0 && body.reset_dag_runs !== false) requeue(run)
        }
        const dag = dags.get(run.dag_id)!
        out.push(...chosen.map((ti) => taskInstanceView(run, ti, dag)))
      }
      if (!dryRun) changed()
      return out
    },

    listTaskInstances (dagId: string, runId: string, f: TiFilter): Page<TaskInstanceResponse> {
      if (dagId !== '~') defOf(dagId)
      if (runId !== '~') {
        if (dagId !== '~') runOf(dagId, runId)
      }
      const rows = tiRows({
        dagIds: dagId === '~' ? f.dagIds : [dagId],
        runIds: runId === '~' ? f.runIds : [runId]
      })
      return filterTis(rows, f)
    },

    listMapped (dagId: string, runId: string, taskId: string, f: TiFilter): Page<TaskInstanceResponse> {
      const { run, tis } = findTis(dagId, runId, taskId)
      const mapped = tis.some((t) => t.map_index >= 0) || mapCount(addressOf(run, taskId), stubOf(run)) !== undefined
      if (!mapped) {
        if (tis.length === 0) throw new NotFound(`Task id ${taskId} not found`)
        throw new NotFound(`Task id ${taskId} is not mapped`)
      }
      return filterTis(tiRows({ dagIds: [dagId], runIds: [runId] }), { ...f, taskId, mappedOnly: true })
    },

    getTaskInstance (dagId: string, runId: string, taskId: string, mapIndex: number | undefined): TaskInstanceResponse {
      const { run, ti } = oneTi(dagId, runId, taskId, mapIndex)
      return taskInstanceView(run, ti, dags.get(dagId)!)
    },

    tries (dagId: string, runId: string, taskId: string, mapIndex: number): TaskInstanceHistoryResponse[] {
      const { run, ti } = oneTi(dagId, runId, taskId, mapIndex === -1 ? undefined : mapIndex)
      return tryList(run, ti)
    },

    tryOf (dagId: string, runId: string, taskId: string, mapIndex: number, tryNumber: number): TaskInstanceHistoryResponse {
      const { run, ti } = oneTi(dagId, runId, taskId, mapIndex === -1 ? undefined : mapIndex)
      const found = tryList(run, ti).find((t) => t.try_number === tryNumber)
      if (found === undefined) {
        throw new NotFound(`The Task Instance with dag_id: \`${dagId}\`, run_id: \`${runId}\`, task_id: \`${taskId}\`, try_number: \`${tryNumber}\` and map_index: \`${mapIndex}\` was not found`)
      }
      return found
    },

    /** One try's log from `token` on (or all of it); the token stays until the try has ended and all is read. */
    logOf (dagId: string, runId: string, taskId: string, tryNumber: number, mapIndex: number, read: { fullContent: boolean, token?: string }): { content: StructuredLogMessage[], token: string | null } {
      defOf(dagId)
      const run = runs.get(key(dagId, runId))
      const ti = run?.tis.find((t) => t.task_id === taskId && t.map_index === mapIndex)
      if (run === undefined || ti === undefined || tryNumber < 1 || tryNumber > ti.try_number) throw new NotFound('TaskInstance not found')
      let offset = 0
      if (read.token !== undefined && !read.fullContent) {
        const position = readLogToken(options.secret, read.token)
        if (position === null || position.tiId !== ti.id || position.tryNumber !== tryNumber) {
          throw new BadRequest('Bad Signature. Please use only the tokens provided by the API.')
        }
        offset = position.offset
      }
      const lines = ti.logs[String(tryNumber)] ?? []
      const header: StructuredLogMessage[] = offset > 0
        ? []
        : [
            { event: '::group::Log message source details', sources: [`/opt/airflow/logs/dag_id=${dagId}/run_id=${runId}/task_id=${taskId}/${mapIndex >= 0 ? `map_index=${mapIndex}/` : ''}attempt=${tryNumber}.log`] },
            { event: '::endgroup::' }
          ]
      const ended = tryNumber < ti.try_number || ti.state === null || !LIVE_TRY_STATES.has(ti.state)
      const content = [...header, ...lines.slice(offset)]
      return { content, token: ended ? null : signLogToken(options.secret, { tiId: ti.id, tryNumber, offset: lines.length }) }
    },

    patchTaskInstance (dagId: string, runId: string, taskId: string, mapIndex: number | undefined, body: PatchTaskInstanceBody): TaskInstanceResponse[] {
      const { run, tis } = findTis(dagId, runId, taskId)
      const chosen = mapIndex === undefined ? tis : tis.filter((t) => t.map_index === mapIndex)
      if (chosen.length === 0) throw tiNotFound(dagId, runId, taskId, mapIndex ?? -1)
      const state = body.new_state
      if (state != null) {
        for (const ti of chosen) {
          if (ti.state === 'running' || ti.state === 'deferred') {
            stopExecution(ti)
            appendLog(ti, ti.try_number, 'warning', `State of this instance has been externally set to ${state}. Terminating instance.`)
            endTry(ti, state)
          } else {
            setState(ti, state)
          }
        }
        resumeDownstream(run, taskId)
        run.updated_at = isoNow()
      }
      if (body.note !== undefined) for (const ti of chosen) ti.note = body.note
      changed()
      const dag = dags.get(dagId)!
      return chosen.map((ti) => taskInstanceView(run, ti, dag))
    },

    /** The run states ever produced, for the closed-enum guard test. */
    allStates (): { runs: DagRunState[], tis: Array<TaskInstanceState | null> } {
      const all = [...runs.values()]
      return { runs: all.map((r) => r.state), tis: all.flatMap((r) => r.tis.map((t) => t.state)) }
    },

    healthy: () => timer !== undefined
  }
}

export type Engine = ReturnType<typeof createEngine>
