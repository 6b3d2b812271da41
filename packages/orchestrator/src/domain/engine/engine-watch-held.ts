// What the engine watch holds of the engine (engine-watch.ts): its runs, their task instances or a summary of them,
// the DAGs' pause flags, and how often what a list shows of them changed; and how each answer of the engine is taken
// into it.
import { FINISHED_RUN_STATES } from '@slipway/airflow-contract'
import type { EngineRun, EngineTask } from '../../clients/engine.ts'
import type { StepState } from '../steps.ts'
import { createRunSummaries, encodeSummary, sameSlimRun, slimRun } from './run-summaries.ts'
import type { RunSummaryStore } from '../../db/run-summaries.ts'

export interface HeldRuns {
  /** The DAGs the engine listed at the last poll: their runs are the ones kept. */
  watched: Set<string>
  runs: Map<string, EngineRun>
  /** Per run, its task instances: whole for a run in `whole`; a run that ended a while ago has a summary instead. */
  tasks: Map<string, Map<string, StepState>>
  summaries: ReturnType<typeof createRunSummaries>
  /** Runs whose task instances are all kept whole, with when the watch last saw them change. */
  whole: Map<string, number>
  /** Runs whose task instances are read whole at the next poll: new to the watch, or changed after they were compacted. */
  toRead: Set<string>
  pausedFlags: Map<string, boolean>
  /** What a list shows of the engine changed this many times. */
  changes: number
}

export function emptyHeldRuns (): HeldRuns {
  return {
    watched: new Set(),
    runs: new Map(),
    tasks: new Map(),
    summaries: createRunSummaries(),
    whole: new Map(),
    toRead: new Set(),
    pausedFlags: new Map(),
    changes: 0
  }
}

export const key = (dagId: string, runId: string): string => `${dagId}\u0000${runId}`
const taskKey = (t: StepState): string => `${t.task_id}\u0000${t.map_index ?? -1}`

/** A run's steps: its task instances kept, or its summary's. */
export function stepsOf (held: HeldRuns, k: string, dagId: string, runId: string): Iterable<StepState> {
  return held.tasks.get(k)?.values() ?? held.summaries.steps(k, dagId, runId) ?? []
}

/** A summarized run's steps as task instances again, before one of them changes. */
function unsummarize (held: HeldRuns, k: string, dagId: string, runId: string): void {
  const { summaries, tasks } = held
  if (!summaries.has(k)) return
  const steps = summaries.steps(k, dagId, runId) ?? []
  summaries.delete(k)
  tasks.set(k, new Map(steps.map((t) => [taskKey(t), t])))
}

/** Keeps a task instance the engine answered; its run's key, or undefined for a DAG not watched. */
function keep (held: HeldRuns, t: EngineTask): string | undefined {
  const { watched, tasks } = held
  if (!watched.has(t.dag_id)) return undefined
  const k = key(t.dag_id, t.dag_run_id)
  unsummarize(held, k, t.dag_id, t.dag_run_id)
  const byTask = tasks.get(k) ?? new Map<string, StepState>()
  const tk = taskKey(t)
  if (byTask.get(tk)?.state !== t.state || !byTask.has(tk)) held.changes++
  byTask.set(tk, t)
  tasks.set(k, byTask)
  return k
}

/** A run that changed: kept whole from now on, or (compacted, or new to the watch) read whole at the next poll. */
function touched (held: HeldRuns, k: string, at: number): void {
  if (held.whole.has(k)) held.whole.set(k, at)
  else held.toRead.add(k)
}

/** Task instances that changed: their runs count as changed now. */
export function noteTasks (held: HeldRuns, list: EngineTask[], at: number): void {
  for (const t of list) {
    const k = keep(held, t)
    if (k !== undefined) touched(held, k, at)
  }
}

export function noteRuns (held: HeldRuns, list: EngineRun[], at: number): void {
  for (const r of list) {
    if (!held.watched.has(r.dag_id)) continue
    setRun(held, r)
    touched(held, key(r.dag_id, r.dag_run_id), at)
  }
}

export function setRun (held: HeldRuns, r: EngineRun): void {
  const { runs, summaries } = held
  const k = key(r.dag_id, r.dag_run_id)
  const kept = runs.get(k)
  if (kept?.state !== r.state) held.changes++
  if (!summaries.has(k)) runs.set(k, r)
  // a summarized run read again as it was (each resync) keeps its object: what was made from it still holds
  else if (kept === undefined || !sameSlimRun(kept, r)) runs.set(k, slimRun(r))
}

/** Replaces the task instances of the runs read whole; a run read again keeps when it last changed. */
export function takeWhole (held: HeldRuns, runKeys: string[], list: EngineTask[], at: number): void {
  const { runs, tasks, summaries, whole, toRead } = held
  const before = new Map(runKeys.map((k) => {
    const r = runs.get(k)
    const steps = r === undefined ? [] : [...stepsOf(held, k, r.dag_id, r.dag_run_id)]
    return [k, new Map(steps.map((t) => [taskKey(t), t]))]
  }))
  for (const k of runKeys) {
    tasks.delete(k)
    summaries.delete(k)
    toRead.delete(k)
    if (runs.has(k)) whole.set(k, whole.get(k) ?? at)
  }
  const counted = held.changes
  for (const t of list) keep(held, t)
  // the same task instances in the same states read again: no change (keep counts each as new)
  held.changes = counted
  for (const [k, old] of before) {
    const now = tasks.get(k)
    if (old.size !== (now?.size ?? 0) || [...(now ?? [])].some(([tk, t]) => old.get(tk)?.state !== t.state)) held.changes++
  }
}

/**
 * Keeps only a summary of runs that ended and have not changed for `keepTasksMs`: in the store, holding nothing of
 * them once it is written (a run that changed meanwhile stays), else in memory.
 */
export async function compact (held: HeldRuns, at: number, keepTasksMs: number, store: RunSummaryStore | undefined): Promise<void> {
  const { runs, tasks, summaries, whole, toRead } = held
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
