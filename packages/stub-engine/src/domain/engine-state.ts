// The engine's shared state: workflow definitions, DAG flags and runs, their persistence, the lookups every part
// of the engine uses, per-try logs, and creating runs and task instances.
import { randomUUID } from 'node:crypto'
import type { StubConf } from '../schemas/stub.ts'
import type { EngineOptions } from './engine-options.ts'
import { NotFound } from './errors.ts'
import { retriesOverride, type TaskAddress } from './injection.ts'
import type { LogLevel } from './operators.ts'
import { uuid7 } from './ids.ts'
import { isoNow, TASK_USER, type DagRecord, type LogLine, type RunRecord, type TaskInstanceRecord } from './records.ts'
import { leafTasks, priorityWeights, siteWorkflows, type DagDef, type TaskDef } from './workflows.ts'

const runNotFound = (dagId: string, runId: string): NotFound =>
  new NotFound(`The DagRun with dag_id: \`${dagId}\` and run_id: \`${runId}\` was not found`)

/** What Airflow 3.1 answers when its DAG bag has no such DAG (reading a DAG, its runs, its task instances). */
export const dagNotFound = (dagId: string): NotFound => new NotFound(`The Dag with ID: \`${dagId}\` was not found`)

export function tiNotFound (dagId: string, runId: string, taskId: string, mapIndex: number): NotFound {
  return new NotFound(
    `The Task Instance with dag_id: \`${dagId}\`, run_id: \`${runId}\`, task_id: \`${taskId}\` and map_index: \`${mapIndex}\` was not found`
  )
}

export function createEngineState (options: Pick<EngineOptions, 'pausedAtCreation' | 'persistence' | 'log'>) {
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
  const log = options.log ?? (() => {})

  let seq = 0
  const dags = new Map<string, DagRecord>()
  const runs = new Map<string, RunRecord>()
  const key = (dagId: string, runId: string): string => `${dagId}\u0000${runId}`

  function restore (): void {
    const snapshot = options.persistence?.load() ?? null
    if (snapshot !== null) {
      // a save cut short may have written a run before the counter: the counter is never below a run's number
      seq = snapshot.runs.reduce((highest, r) => Math.max(highest, r.seq), snapshot.seq)
      for (const dag of snapshot.dags) if (defs.has(dag.dag_id)) dags.set(dag.dag_id, dag)
      for (const run of snapshot.runs) if (defs.has(run.dag_id)) runs.set(key(run.dag_id, run.dag_run_id), run)
      // The processes of running tries died with the old engine: run those tries again from the start.
      for (const run of runs.values()) {
        for (const ti of run.tis) {
          if (ti.state === 'running') {
            ti.state = 'queued'
            appendLog(ti, ti.try_number, 'warning', '*** The engine restarted while this try was running: the try runs again')
            changed(run)
          } else if (ti.state === 'restarting') {
            ti.state = null
            changed(run)
          }
        }
        if (!dirty.has(run)) storeLogs(run)
      }
    }
    const now = isoNow()
    for (const def of defs.values()) {
      if (dags.has(def.dag_id)) continue
      dags.set(def.dag_id, { dag_id: def.dag_id, is_paused: options.pausedAtCreation, created_at: now, version_id: randomUUID() })
    }
  }

  // ---- persistence

  // A save writes the runs that changed since the last one, never the whole history: an engine with hundreds of
  // finished runs rewrote all of them (and their logs) up to twenty times a second while any run moved.
  let saveTimer: NodeJS.Timeout | undefined
  const dirty = new Set<RunRecord>()
  const removed: RunRecord[] = []
  /** Something changed: the run given (or the DAG records, when none is): saved within 50 ms. */
  function changed (run?: RunRecord): void {
    if (options.persistence === undefined) return
    if (run !== undefined) dirty.add(run)
    saveTimer ??= setTimeout(flush, 50)
  }
  /** A run deleted: its saved record goes at the next save. */
  function forget (run: RunRecord): void {
    dirty.delete(run)
    stored.delete(run)
    removed.push(run)
    changed()
  }
  function flush (): void {
    if (saveTimer !== undefined) clearTimeout(saveTimer)
    saveTimer = undefined
    for (const run of dirty) takeBackLogs(run)
    options.persistence?.save({ seq, dags: [...dags.values()], runs: [...dirty], removed: removed.splice(0) })
    for (const run of dirty) storeLogs(run)
    dirty.clear()
  }

  // ---- the logs of ended runs
  // With a data folder, an ended run's log lines live in its saved file, not in memory: they are about half of what
  // a run holds, and an engine that ran for days held every line of every try. A log read of such a run reads the
  // file; a save of it (a cleared task, a note) first takes the saved lines back, adding any written since, so that
  // no save writes a run without them.
  const readRun = options.persistence?.readRun
  const stored = new Set<RunRecord>()
  /** Empties an ended run's logs once saved. */
  function storeLogs (run: RunRecord): void {
    if (readRun === undefined || (run.state !== 'success' && run.state !== 'failed')) return
    for (const ti of run.tis) ti.logs = {}
    stored.add(run)
  }
  /** An instance's saved log lines by try (`saved`: its run's file), with any written since after them. */
  function mergedLogs (saved: RunRecord | undefined, ti: TaskInstanceRecord): Record<string, LogLine[]> {
    // by task and map index: an instance takes a new id with every try
    const logs = saved?.tis.find((t) => t.task_id === ti.task_id && t.map_index === ti.map_index)?.logs ?? {}
    const merged = { ...logs }
    for (const [tryNumber, lines] of Object.entries(ti.logs)) merged[tryNumber] = [...(logs[tryNumber] ?? []), ...lines]
    return merged
  }
  function takeBackLogs (run: RunRecord): void {
    if (!stored.delete(run)) return
    const saved = readRun?.(run.seq)
    for (const ti of run.tis) ti.logs = mergedLogs(saved, ti)
  }
  /** One try's log lines, from the run's file when they are stored there. */
  function logLines (run: RunRecord, ti: TaskInstanceRecord, tryNumber: number): LogLine[] {
    const logs = stored.has(run) ? mergedLogs(readRun?.(run.seq), ti) : ti.logs
    return logs[String(tryNumber)] ?? []
  }

  // ---- lookups

  /** The DAG's definition; an unknown DAG is Airflow's DAG-bag 404. */
  function defOf (dagId: string): DagDef {
    const def = defs.get(dagId)
    if (def === undefined) throw dagNotFound(dagId)
    return def
  }
  /** The DAG's record, as PATCH /dags/{dag_id} reads it: its own 404 text. */
  function dagOf (dagId: string): DagRecord {
    if (!defs.has(dagId)) throw new NotFound(`Dag with id: ${dagId} was not found`)
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

  function findTis (dagId: string, runId: string, taskId: string): { run: RunRecord, tis: TaskInstanceRecord[] } {
    defOf(dagId)
    const run = runOf(dagId, runId)
    return { run, tis: run.tis.filter((t) => t.task_id === taskId) }
  }

  // ---- logs

  function appendLog (
    ti: TaskInstanceRecord,
    tryNumber: number,
    level: LogLevel,
    event: string,
    extra: Record<string, unknown> = {}
  ): void {
    const lines = ti.logs[String(tryNumber)] ?? (ti.logs[String(tryNumber)] = [])
    const line: LogLine = { timestamp: isoNow(), event, level, logger: 'task', ...extra }
    lines.push(line)
  }

  // ---- creating runs and task instances

  /** An instance as Airflow creates one with its run: no state, try 0, no host yet and the scheduler's user. */
  function newTaskInstance (run: RunRecord, def: TaskDef, mapIndex: number): TaskInstanceRecord {
    const now = isoNow()
    return {
      id: uuid7(),
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
      hostname: '',
      unixname: TASK_USER,
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

  function createRun (
    fields: Omit<RunRecord, 'seq' | 'tis' | 'updated_at' | 'queued_at' | 'start_date' | 'end_date' | 'state' | 'last_scheduling_decision'>
  ): RunRecord {
    const now = isoNow()
    const run: RunRecord = {
      ...fields,
      seq: ++seq,
      tis: [],
      updated_at: now,
      queued_at: now,
      start_date: null,
      end_date: null,
      state: 'queued',
      last_scheduling_decision: null
    }
    run.tis = defOf(run.dag_id).tasks.map((t) => newTaskInstance(run, t, -1))
    runs.set(key(run.dag_id, run.dag_run_id), run)
    return run
  }

  return {
    defs,
    taskIndex,
    leaves,
    dags,
    runs,
    key,
    log,
    restore,
    changed,
    forget,
    flush,
    defOf,
    dagOf,
    runOf,
    taskDefOf,
    addressOf,
    stubOf,
    isPaused,
    runsInOrder,
    findTis,
    appendLog,
    logLines,
    newTaskInstance,
    createRun
  }
}

export type EngineState = ReturnType<typeof createEngineState>
