// The engine watch: one loop per orchestrator process keeps the engine's runs, their task instances and the DAGs'
// pause flags, so that action and workflow reads need no engine call while it is fresh. A full read at start; then
// only what the engine changed since the last poll began (`updated_at_gte`; Airflow filters on its rows'
// `updated_at` but does not return it, so the watermark is this process's clock, reaching back `OVERLAP_MS` for clock
// skew and late commits); every `resyncMs` the run list again (runs deleted in the engine leave the watch then) and
// the task instances of the runs still moving and of a slice of the others, in turn.
// What it holds stays small as the history grows: a run that ended and has not changed for `keepTasksMs` keeps only
// a summary (run-summaries.ts: its steps' states, all a list of actions needs, and the run's few fields read), and
// reads of its whole task instances go to the engine; a run that changes again is read whole at the next poll. A
// read that finds the watch older than `staleMs`, stopped, or invalidated by one of this process's writes calls the
// engine itself, so no answer is older than that bound.
// Several orchestrators each keep their own; correctness never depends on it.
import type { CallContext } from '@slipway/common'
import { FINISHED_RUN_STATES } from '@slipway/airflow-contract'
import type { EngineClient, EngineRun, EngineTask } from '../clients/engine.ts'
import type { StepState } from './steps.ts'
import { createRunSummaries, sameSlimRun, slimRun } from './run-summaries.ts'

/** The engine reads that actions and workflows make; the watch serves them, or passes them to the engine. */
export interface EngineReads {
  run: (dagId: string, runId: string, ctx?: CallContext) => Promise<EngineRun | undefined>
  isPaused: (dagId: string, ctx?: CallContext) => Promise<boolean | undefined>
  tasks: (dagId: string, runId: string, ctx?: CallContext) => Promise<EngineTask[]>
  /** Runs of these DAGs, from that date; `runIds`: only those (what the engine is asked for is not narrowed by it). */
  runs: (filter: { dagIds?: string[], logicalDateGte?: string, runIds?: string[] }, ctx?: CallContext) => Promise<EngineRun[]>
  tasksOfRuns: (filter: { dagIds?: string[], runIds: string[] }, ctx?: CallContext) => Promise<StepState[]>
  /** This process changed the engine: a run it triggered, a DAG it paused or unpaused, anything else. */
  triggered: (run: EngineRun) => void
  paused: (dagId: string, isPaused: boolean) => void
  changed: () => void
  /**
   * While reads are served from a fresh watch, a token that changes whenever what a list of actions shows of the
   * engine does (a run added, gone or in another state, a task instance added or in another state, a pause flag);
   * undefined when reads go to the engine.
   */
  version: () => string | undefined
}

/** Reads straight from the engine (no watch): a missing DAG reads as undefined. */
export function directReads (engine: EngineClient): EngineReads {
  return {
    run: engine.run,
    isPaused: async (dagId, ctx) => await engine.dag(dagId, ctx).then((d) => d.is_paused, (error: unknown) => {
      if ((error as { statusCode?: number }).statusCode === 404) return undefined
      throw error
    }),
    tasks: engine.tasks,
    async runs (filter, ctx) {
      const all = await engine.runs({ dagIds: filter.dagIds, logicalDateGte: filter.logicalDateGte }, ctx)
      if (filter.runIds === undefined) return all
      const wanted = new Set(filter.runIds)
      return all.filter((r) => wanted.has(r.dag_run_id))
    },
    tasksOfRuns: engine.tasksOfRuns,
    triggered: () => {},
    paused: () => {},
    changed: () => {},
    version: () => undefined
  }
}

export interface WatchOptions {
  engine: EngineClient
  intervalMs: number
  staleMs: number
  /**
   * How often the run list is read again (runs deleted in the engine leave the watch then), with the task instances
   * of the runs still moving and of `resyncSlice` others.
   */
  resyncMs?: number
  /** How many ended runs' task instances each resync reads again, in turn: a safety net of bounded cost. */
  resyncSlice?: number
  /** How long a run that ended and stopped changing keeps its whole task instances, for the reads that follow its end. */
  keepTasksMs?: number
  /** Longest pause between polls while the engine fails. */
  maxBackoffMs?: number
  now?: () => number
  log?: (error: unknown) => void
}

/** How far back each incremental read reaches before the newest change seen: the engine's clock and commit order. */
const OVERLAP_MS = 5000

export function createEngineWatch (options: WatchOptions) {
  const { engine } = options
  const now = options.now ?? Date.now
  const direct = directReads(engine)
  const keepTasksMs = options.keepTasksMs ?? 120_000
  /** The DAGs the engine listed at the last poll: their runs are the ones kept. */
  const watched = new Set<string>()
  const runs = new Map<string, EngineRun>()
  /** Per run, its task instances: whole for a run in `whole`; a run that ended a while ago has a summary instead. */
  const tasks = new Map<string, Map<string, StepState>>()
  const summaries = createRunSummaries()
  /** Runs whose task instances are all kept whole, with when the watch last saw them change. */
  const whole = new Map<string, number>()
  /** Runs whose task instances are read whole at the next poll: new to the watch, or changed after they were compacted. */
  const toRead = new Set<string>()
  const pausedFlags = new Map<string, boolean>()
  const ctx: CallContext = { contextMarker: 'engine-watch', user: 'slipway' }
  const key = (dagId: string, runId: string): string => `${dagId}\u0000${runId}`
  /** A run's steps: its task instances kept, or its summary's. */
  function stepsOf (k: string, dagId: string, runId: string): Iterable<StepState> {
    return tasks.get(k)?.values() ?? summaries.steps(k, dagId, runId) ?? []
  }
  /** A summarized run's steps as task instances again, before one of them changes. */
  function unsummarize (k: string, dagId: string, runId: string): void {
    if (!summaries.has(k)) return
    const steps = summaries.steps(k, dagId, runId) ?? []
    summaries.delete(k)
    tasks.set(k, new Map(steps.map((t) => [taskKey(t), t])))
  }

  let syncedAt: number | undefined // when the last successful poll started
  let resyncedAt = 0
  let resyncCursor = 0
  let invalidatedAt = -1
  let watermark: number | undefined // when the last successful poll began: changes from then on are read next
  let stopped = true
  let timer: NodeJS.Timeout | undefined
  let failures = 0
  const stats = { polls: 0, errors: 0 }
  // what a list shows of the engine changed this many times; with a token of this watch, so that no other process's
  // (or an earlier start's) count is ever taken for its own
  let changes = 0
  const epoch = Math.random().toString(36).slice(2, 10)

  const taskKey = (t: StepState): string => `${t.task_id}\u0000${t.map_index ?? -1}`
  /** Keeps a task instance the engine answered; its run's key, or undefined for a DAG not watched. */
  function keep (t: EngineTask): string | undefined {
    if (!watched.has(t.dag_id)) return undefined
    const k = key(t.dag_id, t.dag_run_id)
    unsummarize(k, t.dag_id, t.dag_run_id)
    const byTask = tasks.get(k) ?? new Map<string, StepState>()
    const tk = taskKey(t)
    if (byTask.get(tk)?.state !== t.state || !byTask.has(tk)) changes++
    byTask.set(tk, t)
    tasks.set(k, byTask)
    return k
  }
  /** A run that changed: kept whole from now on, or (compacted, or new to the watch) read whole at the next poll. */
  function touched (k: string, at: number): void {
    if (whole.has(k)) whole.set(k, at)
    else toRead.add(k)
  }
  /** Task instances that changed: their runs count as changed now. */
  function noteTasks (list: EngineTask[], at: number): void {
    for (const t of list) {
      const k = keep(t)
      if (k !== undefined) touched(k, at)
    }
  }
  function noteRuns (list: EngineRun[], at: number): void {
    for (const r of list) {
      if (!watched.has(r.dag_id)) continue
      setRun(r)
      touched(key(r.dag_id, r.dag_run_id), at)
    }
  }
  function setRun (r: EngineRun): void {
    const k = key(r.dag_id, r.dag_run_id)
    const kept = runs.get(k)
    if (kept?.state !== r.state) changes++
    if (!summaries.has(k)) runs.set(k, r)
    // a summarized run read again as it was (each resync) keeps its object: what was made from it still holds
    else if (kept === undefined || !sameSlimRun(kept, r)) runs.set(k, slimRun(r))
  }
  /** Replaces the task instances of the runs read whole; a run read again keeps when it last changed. */
  function takeWhole (runKeys: string[], list: EngineTask[], at: number): void {
    const before = new Map(runKeys.map((k) => {
      const r = runs.get(k)
      const steps = r === undefined ? [] : [...stepsOf(k, r.dag_id, r.dag_run_id)]
      return [k, new Map(steps.map((t) => [taskKey(t), t]))]
    }))
    for (const k of runKeys) {
      tasks.delete(k)
      summaries.delete(k)
      toRead.delete(k)
      if (runs.has(k)) whole.set(k, whole.get(k) ?? at)
    }
    const counted = changes
    for (const t of list) keep(t)
    // the same task instances in the same states read again: no change (keep counts each as new)
    changes = counted
    for (const [k, old] of before) {
      const now = tasks.get(k)
      if (old.size !== (now?.size ?? 0) || [...(now ?? [])].some(([tk, t]) => old.get(tk)?.state !== t.state)) changes++
    }
  }
  /** Keeps only a summary of runs that ended and have not changed for `keepTasksMs`. */
  function compact (at: number): void {
    for (const [k, seen] of whole) {
      const run = runs.get(k)
      if (run === undefined) { whole.delete(k); continue }
      if (!FINISHED_RUN_STATES.has(run.state) || at - seen < keepTasksMs) continue
      summaries.put(k, tasks.get(k)?.values() ?? [])
      tasks.delete(k)
      runs.set(k, slimRun(run))
      whole.delete(k)
    }
  }
  /** Reads the task instances of these runs whole. */
  async function readWhole (runKeys: string[], at: number): Promise<void> {
    const chosen = runKeys.map((k) => runs.get(k)).filter((r): r is EngineRun => r !== undefined)
    if (chosen.length === 0) return
    const list = await engine.tasksOfRuns({ runIds: [...new Set(chosen.map((r) => r.dag_run_id))] }, ctx)
    takeWhole(chosen.map((r) => key(r.dag_id, r.dag_run_id)), list, at)
  }

  /** The run list again; the task instances of the runs still moving and of a slice of the ended ones, in turn. */
  async function resync (started: number): Promise<void> {
    const all = await engine.runs({}, ctx)
    const listed = new Set(all.map((r) => key(r.dag_id, r.dag_run_id)))
    for (const k of runs.keys()) {
      if (!listed.has(k)) { runs.delete(k); tasks.delete(k); summaries.delete(k); whole.delete(k); toRead.delete(k); changes++ }
    }
    for (const r of all) if (watched.has(r.dag_id)) setRun(r)
    const ended = [...runs.keys()].filter((k) => !whole.has(k) && !toRead.has(k))
    const slice = options.resyncSlice ?? 100
    resyncCursor = resyncCursor >= ended.length ? 0 : resyncCursor
    const again = ended.slice(resyncCursor, resyncCursor + slice)
    resyncCursor += slice
    await readWhole([...whole.keys(), ...again], started)
    // a run read again that had ended a while ago goes back to its steps' states at once
    for (const k of again) whole.set(k, started - keepTasksMs)
  }

  async function poll (): Promise<void> {
    const started = now()
    const dags = await engine.dags(ctx)
    watched.clear()
    for (const d of dags) watched.add(d.dag_id)
    if (watermark === undefined) {
      const all = await engine.runs({}, ctx)
      runs.clear()
      tasks.clear()
      summaries.clear()
      whole.clear()
      toRead.clear()
      for (const r of all) if (watched.has(r.dag_id)) setRun(r)
      changes++
      await readWhole([...runs.keys()], started)
      // what ended before this process started keeps its steps' states only, from the first poll on
      for (const [k, r] of runs) if (FINISHED_RUN_STATES.has(r.state)) whole.set(k, started - keepTasksMs)
      resyncedAt = started
    } else if (started - resyncedAt >= (options.resyncMs ?? 60_000)) {
      await resync(started)
      resyncedAt = started
    } else {
      const since = new Date(watermark - OVERLAP_MS).toISOString()
      const changed = await engine.changedSince(since, ctx)
      noteRuns(changed.runs, started)
      noteTasks(changed.tasks, started)
    }
    await readWhole([...toRead], started)
    compact(started)
    if (dags.length !== pausedFlags.size || dags.some((d) => pausedFlags.get(d.dag_id) !== d.is_paused)) changes++
    pausedFlags.clear()
    for (const d of dags) pausedFlags.set(d.dag_id, d.is_paused)
    syncedAt = started
    watermark = started
  }

  function schedule (delayMs: number): void {
    if (stopped) return
    timer = setTimeout(() => {
      poll().then(() => { failures = 0; stats.polls++ }, (error: unknown) => {
        failures++
        stats.errors++
        options.log?.(error)
      }).finally(() => {
        // the engine failing: wait twice as long each time, up to the longest back-off
        const backoff = failures === 0 ? options.intervalMs : Math.min(options.intervalMs * 2 ** failures, options.maxBackoffMs ?? 30_000)
        schedule(backoff)
      })
    }, delayMs)
    timer.unref()
  }

  /** Fresh: polled successfully within the bound, after this process's last write. */
  const fresh = (): boolean => !stopped && syncedAt !== undefined && syncedAt > invalidatedAt && now() - syncedAt <= options.staleMs

  const reads: EngineReads = {
    async run (dagId, runId, callCtx) {
      // a run the watch has not seen yet (another orchestrator's, a moment old) is asked for
      if (!fresh() || !runs.has(key(dagId, runId))) return await direct.run(dagId, runId, callCtx)
      return runs.get(key(dagId, runId))
    },
    async isPaused (dagId, callCtx) {
      if (!fresh()) return await direct.isPaused(dagId, callCtx)
      return pausedFlags.get(dagId)
    },
    async tasks (dagId, runId, callCtx) {
      // a run kept as its steps' states only (or not seen yet) is read from the engine
      if (!fresh() || !whole.has(key(dagId, runId))) return await direct.tasks(dagId, runId, callCtx)
      return [...(tasks.get(key(dagId, runId))?.values() ?? [])] as EngineTask[]
    },
    async runs (filter, callCtx) {
      if (!fresh() || (filter.dagIds ?? []).some((d) => !watched.has(d))) return await direct.runs(filter, callCtx)
      const since = filter.logicalDateGte === undefined ? undefined : Date.parse(filter.logicalDateGte)
      const dagIds = filter.dagIds
      // a few runs by id (a window of the action list) are looked up, not found among every run kept
      const candidates = filter.runIds === undefined
        ? runs.values()
        : filter.runIds.flatMap((id) => (dagIds ?? [...watched]).map((d) => runs.get(key(d, id))).filter((r) => r !== undefined))
      return [...candidates].filter((r) => (dagIds === undefined || dagIds.includes(r.dag_id)) &&
        (since === undefined || (r.logical_date != null && Date.parse(r.logical_date) >= since)))
    },
    async tasksOfRuns (filter, callCtx) {
      const dagIds = filter.dagIds ?? [...watched]
      if (!fresh() || dagIds.some((d) => !watched.has(d))) return await direct.tasksOfRuns(filter, callCtx)
      return dagIds.flatMap((d) => filter.runIds.flatMap((r) => [...stepsOf(key(d, r), d, r)]))
    },
    triggered (run) {
      noteRuns([run], now())
    },
    paused (dagId, isPaused) {
      if (pausedFlags.get(dagId) !== isPaused) changes++
      pausedFlags.set(dagId, isPaused)
    },
    changed () {
      invalidatedAt = now()
      changes++
    },
    version: () => fresh() ? `${epoch}.${changes}` : undefined
  }

  return {
    reads,
    start (): void {
      if (!stopped) return
      stopped = false
      schedule(0)
    },
    stop (): void {
      stopped = true
      if (timer !== undefined) clearTimeout(timer)
    },
    /** Milliseconds since the last successful poll started (undefined before the first), polls and errors. */
    status: () => ({ lagMs: syncedAt === undefined ? undefined : now() - syncedAt, fresh: fresh(), ...stats }),
    /** One poll now (tests). */
    poll
  }
}

export type EngineWatch = ReturnType<typeof createEngineWatch>
