// The engine watch: one loop per orchestrator process keeps the engine's runs, their task instances and the DAGs'
// pause flags, so that action and workflow reads need no engine call while it is fresh. A full read at
// start and every `resyncMs`, in between only what the engine changed since the last poll began (`updated_at_gte`;
// Airflow filters on its rows' `updated_at` but does not return it, so the watermark is this process's clock,
// reaching back `OVERLAP_MS` for clock skew and late commits). A read that finds the
// watch older than `staleMs`, stopped, or invalidated by one of this process's writes calls the engine itself, so no
// answer is older than that bound. Several orchestrators each keep their own; correctness never depends on it.
import type { CallContext } from '@slipway/common'
import type { EngineClient, EngineRun, EngineTask } from '../clients/engine.ts'

/** The engine reads that actions and workflows make; the watch serves them, or passes them to the engine. */
export interface EngineReads {
  run: (dagId: string, runId: string, ctx?: CallContext) => Promise<EngineRun | undefined>
  isPaused: (dagId: string, ctx?: CallContext) => Promise<boolean | undefined>
  tasks: (dagId: string, runId: string, ctx?: CallContext) => Promise<EngineTask[]>
  runs: (filter: { dagIds?: string[], logicalDateGte?: string }, ctx?: CallContext) => Promise<EngineRun[]>
  tasksOfRuns: (filter: { dagIds?: string[], runIds: string[] }, ctx?: CallContext) => Promise<EngineTask[]>
  /** This process changed the engine: a run it triggered, a DAG it paused or unpaused, anything else. */
  triggered: (run: EngineRun) => void
  paused: (dagId: string, isPaused: boolean) => void
  changed: () => void
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
    runs: engine.runs,
    tasksOfRuns: engine.tasksOfRuns,
    triggered: () => {},
    paused: () => {},
    changed: () => {}
  }
}

export interface WatchOptions {
  engine: EngineClient
  intervalMs: number
  staleMs: number
  /** How often everything is read again (runs deleted in the engine leave the watch then). */
  resyncMs?: number
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
  /** The DAGs the engine listed at the last poll: their runs are the ones kept. */
  const watched = new Set<string>()
  const runs = new Map<string, EngineRun>()
  const tasks = new Map<string, Map<string, EngineTask>>()
  const pausedFlags = new Map<string, boolean>()
  const ctx: CallContext = { contextMarker: 'engine-watch', user: 'slipway' }
  const key = (dagId: string, runId: string): string => `${dagId}\u0000${runId}`

  let syncedAt: number | undefined // when the last successful poll started
  let resyncedAt = 0
  let invalidatedAt = -1
  let watermark: number | undefined // when the last successful poll began: changes from then on are read next
  let stopped = true
  let timer: NodeJS.Timeout | undefined
  let failures = 0
  const stats = { polls: 0, errors: 0 }

  const taskKey = (t: EngineTask): string => `${t.task_id}\u0000${t.map_index ?? -1}`
  function noteTasks (list: EngineTask[]): void {
    for (const t of list) {
      if (!watched.has(t.dag_id)) continue
      const k = key(t.dag_id, t.dag_run_id)
      const byTask = tasks.get(k) ?? new Map<string, EngineTask>()
      byTask.set(taskKey(t), t)
      tasks.set(k, byTask)
    }
  }
  function noteRuns (list: EngineRun[]): void {
    for (const r of list) if (watched.has(r.dag_id)) runs.set(key(r.dag_id, r.dag_run_id), r)
  }
  /** Keeps runs and task instances the engine answered. */
  function take (runList: EngineRun[], taskList: EngineTask[]): void {
    noteRuns(runList)
    noteTasks(taskList)
  }

  async function poll (): Promise<void> {
    const started = now()
    const dags = await engine.dags(ctx)
    watched.clear()
    for (const d of dags) watched.add(d.dag_id)
    if (watermark === undefined || started - resyncedAt >= (options.resyncMs ?? 60_000)) {
      const all = await engine.runs({}, ctx)
      const allTasks = all.length === 0 ? [] : await engine.tasksOfRuns({ runIds: all.map((r) => r.dag_run_id) }, ctx)
      runs.clear()
      tasks.clear()
      take(all, allTasks)
      resyncedAt = started
    } else {
      const since = new Date(watermark - OVERLAP_MS).toISOString()
      const changed = await engine.changedSince(since, ctx)
      take(changed.runs, changed.tasks)
    }
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
      if (!fresh() || !runs.has(key(dagId, runId))) return await direct.tasks(dagId, runId, callCtx)
      return [...(tasks.get(key(dagId, runId))?.values() ?? [])]
    },
    async runs (filter, callCtx) {
      if (!fresh() || (filter.dagIds ?? []).some((d) => !watched.has(d))) return await direct.runs(filter, callCtx)
      const since = filter.logicalDateGte === undefined ? undefined : Date.parse(filter.logicalDateGte)
      return [...runs.values()].filter((r) => (filter.dagIds === undefined || filter.dagIds.includes(r.dag_id)) &&
        (since === undefined || (r.logical_date != null && Date.parse(r.logical_date) >= since)))
    },
    async tasksOfRuns (filter, callCtx) {
      const dagIds = filter.dagIds ?? [...watched]
      if (!fresh() || dagIds.some((d) => !watched.has(d))) return await direct.tasksOfRuns(filter, callCtx)
      return dagIds.flatMap((d) => filter.runIds.flatMap((r) => [...(tasks.get(key(d, r))?.values() ?? [])]))
    },
    triggered (run) {
      noteRuns([run])
    },
    paused (dagId, isPaused) {
      pausedFlags.set(dagId, isPaused)
    },
    changed () {
      invalidatedAt = now()
    }
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
