// The engine watch: one loop per orchestrator process keeps the engine's runs, their task instances and the DAGs'
// pause flags, so that action and workflow reads need no engine call while it is fresh. A full read at start; then
// only what the engine changed since the last poll began (`updated_at_gte`; Airflow filters on its rows'
// `updated_at` but does not return it, so the watermark is this process's clock, reaching back `OVERLAP_MS` for clock
// skew and late commits); every `resyncMs` the run list again (runs deleted in the engine leave the watch then) and
// the task instances of the runs still moving and of a slice of the others, in turn.
// What it holds does not grow with the history: a run that ended and has not changed for `keepTasksMs` leaves it, its
// compact final summary (run-summaries.ts: its steps' states, all a list of actions needs, and the run's few fields
// read) written to the orchestrator's database, from where the list reads it; reads of its whole task instances go
// to the engine; a run that changes again is held and read whole at the next poll, and written anew when it ends.
// With a database, a resync asks the engine only for the runs not ended and what changed, not every run ever made
// (without one, as in some tests, the watch keeps the summaries itself and reads every run again). A
// read that finds the watch older than `staleMs`, stopped, or invalidated by one of this process's writes calls the
// engine itself, so no answer is older than that bound.
// Several orchestrators each keep their own; correctness never depends on it.
import type { CallContext } from '@slipway/common'
import { FINISHED_RUN_STATES } from '@slipway/airflow-contract'
import type { EngineClient, EngineRun, EngineTask } from '../clients/engine.ts'
import type { StepState } from './steps.ts'
import { createRunSummaries, decodeRun, decodeSummary, encodeSummary, sameSlimRun, slimRun } from './run-summaries.ts'
import type { RunSummaryRecord, RunSummaryStore } from '../db/run-summaries.ts'
import { directReads, type EngineReads } from './engine-reads.ts'

export { directReads, type EngineReads }

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
  /**
   * Where the final summaries of runs that ended for good go (the orchestrator's database): the watch then holds
   * nothing of such a run, reads them back when asked, and its resync asks the engine only for the runs not ended
   * and those changed since the last poll. Absent: it keeps them itself (run-summaries.ts) and reads every run again.
   */
  store?: RunSummaryStore
  /** Longest pause between polls while the engine fails. */
  maxBackoffMs?: number
  now?: () => number
  log?: (error: unknown) => void
}

/** The run states of a run not ended: the runs a resync with a store asks the engine for. */
const UNFINISHED_RUN_STATES = ['queued', 'running']

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
  /**
   * Keeps only a summary of runs that ended and have not changed for `keepTasksMs`: in the store, holding nothing of
   * them once it is written (a run that changed meanwhile stays), else in memory.
   */
  async function compact (at: number): Promise<void> {
    const { store } = options
    if (store !== undefined) {
      const done: Array<[string, EngineRun, number]> = []
      for (const [k, seen] of whole) {
        const run = runs.get(k)
        if (run === undefined) { whole.delete(k); continue }
        if (FINISHED_RUN_STATES.has(run.state) && at - seen >= keepTasksMs) done.push([k, run, seen])
      }
      if (done.length === 0) return
      await store.put(done.map(([k, run]) => encodeSummary(run, tasks.get(k)?.values() ?? [])))
      for (const [k, run, seen] of done) {
        if (runs.get(k) !== run || whole.get(k) !== seen || toRead.has(k)) continue
        runs.delete(k)
        tasks.delete(k)
        whole.delete(k)
      }
      return
    }
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
    if (options.store !== undefined) { await resyncHeld(started); return }
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

  /**
   * With a store, the watch holds only the runs not ended and those that ended lately: the engine is asked for its
   * runs not ended (a held one it no longer lists was deleted) and for what changed since the last poll, and the
   * task instances of the held runs are read again.
   */
  async function resyncHeld (started: number): Promise<void> {
    const [open, changed] = await Promise.all([
      engine.runs({ states: UNFINISHED_RUN_STATES }, ctx),
      engine.changedSince(new Date((watermark ?? started) - OVERLAP_MS).toISOString(), ctx)
    ])
    const listed = new Set([...open, ...changed.runs].map((r) => key(r.dag_id, r.dag_run_id)))
    for (const [k, r] of runs) {
      if (listed.has(k) || FINISHED_RUN_STATES.has(r.state)) continue
      runs.delete(k); tasks.delete(k); whole.delete(k); toRead.delete(k); changes++
    }
    noteRuns(open, started)
    noteRuns(changed.runs, started)
    noteTasks(changed.tasks, started)
    await readWhole([...whole.keys()], started)
  }

  /** The first poll with a store: a run that ended and whose summary is stored as it is now is not held. */
  async function storedAlready (store: RunSummaryStore): Promise<Set<string>> {
    const same = new Set<string>()
    for (const record of await store.all()) {
      const k = key(record.dag_id, record.run_id)
      const r = runs.get(k)
      if (r !== undefined && FINISHED_RUN_STATES.has(r.state) && sameSlimRun(r, decodeRun(record))) same.add(k)
    }
    return same
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
      if (options.store !== undefined) for (const k of await storedAlready(options.store)) runs.delete(k)
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
    await compact(started)
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
      if (!fresh()) return await direct.run(dagId, runId, callCtx)
      const held = runs.get(key(dagId, runId))
      if (held !== undefined) return held
      const stored = await options.store?.get([{ dag_id: dagId, run_id: runId }])
      // a run the watch has not seen yet (another orchestrator's, a moment old) is asked for
      if (stored === undefined || stored.length === 0) return await direct.run(dagId, runId, callCtx)
      return decodeRun(stored[0] as RunSummaryRecord)
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
        ? [...runs.values()]
        : filter.runIds.flatMap((id) => (dagIds ?? [...watched]).map((d) => runs.get(key(d, id))).filter((r) => r !== undefined))
      const { store } = options
      if (store !== undefined) {
        // the runs that ended for good, from their stored summaries (one the watch holds again is taken as held)
        const records = filter.runIds === undefined
          ? await store.all(dagIds)
          : await store.get(filter.runIds.flatMap((id) => (dagIds ?? [...watched])
            .filter((d) => !runs.has(key(d, id))).map((d) => ({ dag_id: d, run_id: id }))))
        for (const record of records) {
          if (watched.has(record.dag_id) && !runs.has(key(record.dag_id, record.run_id))) candidates.push(decodeRun(record))
        }
      }
      return candidates.filter((r) => (dagIds === undefined || dagIds.includes(r.dag_id)) &&
        (since === undefined || (r.logical_date != null && Date.parse(r.logical_date) >= since)))
    },
    async tasksOfRuns (filter, callCtx) {
      const dagIds = filter.dagIds ?? [...watched]
      if (!fresh() || dagIds.some((d) => !watched.has(d))) return await direct.tasksOfRuns(filter, callCtx)
      const held = dagIds.flatMap((d) => filter.runIds.flatMap((r) => [...stepsOf(key(d, r), d, r)]))
      const { store } = options
      if (store === undefined) return held
      const missing = dagIds.flatMap((d) => filter.runIds.filter((r) => !runs.has(key(d, r))).map((r) => ({ dag_id: d, run_id: r })))
      for (const record of await store.get(missing)) held.push(...decodeSummary(record).steps)
      return held
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
    /**
     * Milliseconds since the last successful poll started (undefined before the first), polls and errors; `held`: how
     * many runs the watch holds (whole or as a summary of its own).
     */
    status: () => ({ lagMs: syncedAt === undefined ? undefined : now() - syncedAt, fresh: fresh(), held: runs.size, ...stats }),
    /** One poll now (tests). */
    poll
  }
}

export type EngineWatch = ReturnType<typeof createEngineWatch>
