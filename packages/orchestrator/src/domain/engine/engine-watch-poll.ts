// The engine watch's poll (engine-watch.ts): a full read at the first, then what changed since the last, and every
// `resyncMs` the run list again; each answer taken into what the watch holds (engine-watch-held.ts).
import type { CallContext } from '@slipway/common'
import { FINISHED_RUN_STATES } from '@slipway/airflow-contract'
import type { EngineClient, EngineRun } from '../../clients/engine.ts'
import { decodeRun, sameSlimRun } from './run-summaries.ts'
import type { RunSummaryStore } from '../../db/run-summaries.ts'
import { compact, key, noteRuns, noteTasks, setRun, takeWhole, type HeldRuns } from './engine-watch-held.ts'

export interface PollOptions {
  engine: EngineClient
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
}

/** The run states of a run not ended: the runs a resync with a store asks the engine for. */
const UNFINISHED_RUN_STATES = ['queued', 'running']

/** How far back each incremental read reaches before the newest change seen: the engine's clock and commit order. */
const OVERLAP_MS = 5000

const ctx: CallContext = { contextMarker: 'engine-watch', user: 'slipway' }

/** Reads the task instances of these runs whole. */
async function readWhole (held: HeldRuns, engine: EngineClient, runKeys: string[], at: number): Promise<void> {
  const chosen = runKeys.map((k) => held.runs.get(k)).filter((r): r is EngineRun => r !== undefined)
  if (chosen.length === 0) return
  const list = await engine.tasksOfRuns({ runIds: [...new Set(chosen.map((r) => r.dag_run_id))] }, ctx)
  takeWhole(held, chosen.map((r) => key(r.dag_id, r.dag_run_id)), list, at)
}

/**
 * With a store, the watch holds only the runs not ended and those that ended lately: the engine is asked for its
 * runs not ended (a held one it no longer lists was deleted) and for what changed since the last poll, and the
 * task instances of the held runs are read again.
 */
async function resyncHeld (held: HeldRuns, engine: EngineClient, started: number, watermark: number | undefined): Promise<void> {
  const { runs, tasks, whole, toRead } = held
  const [open, changed] = await Promise.all([
    engine.runs({ states: UNFINISHED_RUN_STATES }, ctx),
    engine.changedSince(new Date((watermark ?? started) - OVERLAP_MS).toISOString(), ctx)
  ])
  const listed = new Set([...open, ...changed.runs].map((r) => key(r.dag_id, r.dag_run_id)))
  for (const [k, r] of runs) {
    if (listed.has(k) || FINISHED_RUN_STATES.has(r.state)) continue
    runs.delete(k); tasks.delete(k); whole.delete(k); toRead.delete(k); held.changes++
  }
  noteRuns(held, open, started)
  noteRuns(held, changed.runs, started)
  noteTasks(held, changed.tasks, started)
  await readWhole(held, engine, [...whole.keys()], started)
}

/** The first poll with a store: a run that ended and whose summary is stored as it is now is not held. */
async function storedAlready (held: HeldRuns, store: RunSummaryStore): Promise<Set<string>> {
  const same = new Set<string>()
  for (const record of await store.all()) {
    const k = key(record.dag_id, record.run_id)
    const r = held.runs.get(k)
    if (r !== undefined && FINISHED_RUN_STATES.has(r.state) && sameSlimRun(r, decodeRun(record))) same.add(k)
  }
  return same
}

/** The watch's polls into `held`, and when the last successful one started. */
export function createWatchPoller (held: HeldRuns, options: PollOptions & { now: () => number }) {
  const { engine, now } = options
  const keepTasksMs = options.keepTasksMs ?? 120_000
  const { watched, runs, tasks, summaries, whole, toRead, pausedFlags } = held
  let syncedAt: number | undefined // when the last successful poll started
  let resyncedAt = 0
  let resyncCursor = 0
  let watermark: number | undefined // when the last successful poll began: changes from then on are read next

  /** The run list again; the task instances of the runs still moving and of a slice of the ended ones, in turn. */
  async function resync (started: number): Promise<void> {
    if (options.store !== undefined) { await resyncHeld(held, engine, started, watermark); return }
    const all = await engine.runs({}, ctx)
    const listed = new Set(all.map((r) => key(r.dag_id, r.dag_run_id)))
    for (const k of runs.keys()) {
      if (!listed.has(k)) { runs.delete(k); tasks.delete(k); summaries.delete(k); whole.delete(k); toRead.delete(k); held.changes++ }
    }
    for (const r of all) if (watched.has(r.dag_id)) setRun(held, r)
    const ended = [...runs.keys()].filter((k) => !whole.has(k) && !toRead.has(k))
    const slice = options.resyncSlice ?? 100
    resyncCursor = resyncCursor >= ended.length ? 0 : resyncCursor
    const again = ended.slice(resyncCursor, resyncCursor + slice)
    resyncCursor += slice
    await readWhole(held, engine, [...whole.keys(), ...again], started)
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
      for (const r of all) if (watched.has(r.dag_id)) setRun(held, r)
      held.changes++
      if (options.store !== undefined) for (const k of await storedAlready(held, options.store)) runs.delete(k)
      await readWhole(held, engine, [...runs.keys()], started)
      // what ended before this process started keeps its steps' states only, from the first poll on
      for (const [k, r] of runs) if (FINISHED_RUN_STATES.has(r.state)) whole.set(k, started - keepTasksMs)
      resyncedAt = started
    } else if (started - resyncedAt >= (options.resyncMs ?? 60_000)) {
      await resync(started)
      resyncedAt = started
    } else {
      const since = new Date(watermark - OVERLAP_MS).toISOString()
      const changed = await engine.changedSince(since, ctx)
      noteRuns(held, changed.runs, started)
      noteTasks(held, changed.tasks, started)
    }
    await readWhole(held, engine, [...toRead], started)
    await compact(held, started, keepTasksMs, options.store)
    if (dags.length !== pausedFlags.size || dags.some((d) => pausedFlags.get(d.dag_id) !== d.is_paused)) held.changes++
    pausedFlags.clear()
    for (const d of dags) pausedFlags.set(d.dag_id, d.is_paused)
    syncedAt = started
    watermark = started
  }

  return { poll, syncedAt: () => syncedAt }
}
