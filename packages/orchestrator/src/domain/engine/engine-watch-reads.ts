// The engine reads served by the engine watch (engine-watch.ts) from what it holds while it is fresh, from the
// engine (directReads) when it is not; and this process's writes to the engine noted in it.
import type { EngineClient, EngineTask } from '../../clients/engine.ts'
import { decodeRun, decodeSummary } from './run-summaries.ts'
import type { RunSummaryRecord, RunSummaryStore } from '../../db/run-summaries.ts'
import { directReads, type EngineReads } from './engine-reads.ts'
import { key, noteRuns, stepsOf, type HeldRuns } from './engine-watch-held.ts'

export function watchReads (held: HeldRuns, deps: {
  engine: EngineClient
  store?: RunSummaryStore
  now: () => number
  /** Whether reads may be served from what is held. */
  fresh: () => boolean
  /** One of this process's writes: reads go to the engine until the next poll. */
  invalidate: () => void
  version: () => string | undefined
}): EngineReads {
  const { watched, runs, tasks, whole, pausedFlags } = held
  const { fresh, now } = deps
  const direct = directReads(deps.engine)
  return {
    async run (dagId, runId, callCtx) {
      if (!fresh()) return await direct.run(dagId, runId, callCtx)
      const kept = runs.get(key(dagId, runId))
      if (kept !== undefined) return kept
      const stored = await deps.store?.get([{ dag_id: dagId, run_id: runId }])
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
      const { store } = deps
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
      const kept = dagIds.flatMap((d) => filter.runIds.flatMap((r) => [...stepsOf(held, key(d, r), d, r)]))
      const { store } = deps
      if (store === undefined) return kept
      const missing = dagIds.flatMap((d) => filter.runIds.filter((r) => !runs.has(key(d, r))).map((r) => ({ dag_id: d, run_id: r })))
      for (const record of await store.get(missing)) kept.push(...decodeSummary(record).steps)
      return kept
    },
    triggered (run) {
      noteRuns(held, [run], now())
    },
    paused (dagId, isPaused) {
      if (pausedFlags.get(dagId) !== isPaused) held.changes++
      pausedFlags.set(dagId, isPaused)
    },
    changed () {
      deps.invalidate()
      held.changes++
    },
    version: deps.version
  }
}
