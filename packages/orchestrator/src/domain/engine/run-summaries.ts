// What the engine watch keeps of a run that ended a while ago and stopped changing: its steps as one list of states
// against its workflow's step list (the task ids and map indexes, one list shared by every run that has the same),
// and its run cut down to the fields the orchestrator reads. A site's whole history costs a few hundred bytes a run
// this way, where each run's task instances as objects cost kilobytes; a step's other fields (hostname, tries, dates)
// are read from the engine when one run is asked for.
import type { EngineRun } from '../../clients/engine.ts'
import type { StepState } from '../steps.ts'
import type { RunSummaryRecord } from '../../db/run-summaries.ts'

type Shape = ReadonlyArray<{ task_id: string, map_index: number | undefined }>

interface Summary { shape: Shape, states: Array<string | null | undefined> }

/** Expanded step lists handed out again while asked for (the list keeps its entries by their identity). */
const EXPANDED_KEPT = 2000

const SLIM_FIELDS = ['dag_id', 'dag_run_id', 'state', 'logical_date', 'run_after', 'start_date', 'end_date', 'run_type'] as const

/** The same run as far as its slim form says. */
export const sameSlimRun = (a: EngineRun, b: EngineRun): boolean => SLIM_FIELDS.every((f) => a[f] === b[f])

/** The fields of a run that the orchestrator reads (state, dates, type): what an ended run keeps. */
const slimRuns = new WeakSet<EngineRun>()

/** A run's slim form: the run itself when it is one already. */
export function slimRun (run: EngineRun): EngineRun {
  if (slimRuns.has(run)) return run
  // a literal: every slim run shares one object shape
  const slim = {
    dag_id: run.dag_id,
    dag_run_id: run.dag_run_id,
    state: run.state,
    logical_date: run.logical_date,
    run_after: run.run_after,
    start_date: run.start_date,
    end_date: run.end_date,
    run_type: run.run_type
  } as EngineRun
  slimRuns.add(slim)
  return slim
}

export function createRunSummaries () {
  const shapes = new Map<string, Shape>()
  const summaries = new Map<string, Summary>()
  const expanded = new Map<string, StepState[]>()
  const names = new Map<string, string>()
  const shared = (text: string): string => {
    const found = names.get(text)
    if (found !== undefined) return found
    names.set(text, text)
    return text
  }

  return {
    has: (k: string): boolean => summaries.has(k),
    get size (): number { return summaries.size },
    /** Keeps the steps of run `k` as a summary. */
    put (k: string, steps: Iterable<StepState>): void {
      const list = [...steps]
      const shapeKey = list.map((s) => `${s.task_id}\u0000${s.map_index ?? ''}`).join('\u0001')
      let shape = shapes.get(shapeKey)
      if (shape === undefined) {
        shape = list.map((s) => ({ task_id: s.task_id, map_index: s.map_index }))
        shapes.set(shapeKey, shape)
      }
      summaries.set(k, { shape, states: list.map((s) => s.state == null ? s.state : shared(s.state)) })
      expanded.delete(k)
    },
    /** The steps of run `k` (the same list while it is kept), or undefined when `k` has no summary. */
    steps (k: string, dagId: string, runId: string): StepState[] | undefined {
      const summary = summaries.get(k)
      if (summary === undefined) return undefined
      let list = expanded.get(k)
      if (list === undefined) {
        list = summary.shape.map((s, i) =>
          ({ dag_id: dagId, dag_run_id: runId, task_id: s.task_id, map_index: s.map_index, state: summary.states[i] }) as StepState)
        if (expanded.size >= EXPANDED_KEPT) expanded.delete(expanded.keys().next().value as string)
        expanded.set(k, list)
      }
      return list
    },
    delete (k: string): void {
      summaries.delete(k)
      expanded.delete(k)
    },
    clear (): void {
      summaries.clear()
      expanded.clear()
    }
  }
}

/** A run's final summary as the database keeps it: its slim form and each step's task id, map index and state. */
export function encodeSummary (run: EngineRun, steps: Iterable<StepState>): RunSummaryRecord {
  return {
    dag_id: run.dag_id,
    run_id: run.dag_run_id,
    logical_date: run.logical_date ?? null,
    run: JSON.stringify(slimRun(run)),
    // a field that was undefined stays out, and reads back undefined; null stays null
    steps: JSON.stringify([...steps].map((s) => ({ t: s.task_id, m: s.map_index, s: s.state })))
  }
}

/** A summary's run read back (its steps left as text). */
export const decodeRun = (record: RunSummaryRecord): EngineRun => slimRun(JSON.parse(record.run) as EngineRun)

/** A summary read back: the run's slim form and its steps, as the watch held them before it wrote them. */
export function decodeSummary (record: RunSummaryRecord): { run: EngineRun, steps: StepState[] } {
  const run = decodeRun(record)
  const steps = (JSON.parse(record.steps) as Array<{ t: string, m?: number, s?: string | null }>).map((s) =>
    ({ dag_id: run.dag_id, dag_run_id: run.dag_run_id, task_id: s.t, map_index: s.m, state: s.s }) as StepState)
  return { run, steps }
}
