// An action as the API shows it, made from its record, its run, its DAG's pause flag and its steps; and how those are
// read for one action from the engine reads (the engine watch, or the engine itself).
import { NotFoundError } from '@slipway/common'
import type { CallContext } from '@slipway/common'
import type { ActionRecord, Repositories } from '../../db/repositories.ts'
import type { EngineRun, EngineTask } from '../../clients/engine.ts'
import type { EngineReads } from '../engine/engine-reads.ts'
import { orderedSteps, type StepState } from '../steps.ts'
import { executionDate, zonedTimestamp } from '../format.ts'
import type { NoteView } from '../notes.ts'
import { decodeSummary } from '../engine/run-summaries.ts'
import { actionState } from './lifecycle.ts'

/** The saved action, or 404. */
export async function requireAction (repos: Repositories, id: string): Promise<ActionRecord> {
  const action = await repos.actions.get(id)
  if (action === undefined) throw new NotFoundError('Action not found', `Unknown Action: ${id}`)
  return action
}

/** Answers `fallback` where the engine has no such thing (404), rethrows anything else. */
function unlessMissing<T> (fallback: T): (error: unknown) => T {
  return (error) => { if (error instanceof NotFoundError) return fallback; throw error }
}

/** The task instances of an action's run (run id = action id): grouped tasks are `<group>.<task>` of the same run. */
export async function stepsOf (reads: EngineReads, action: ActionRecord, ctx: CallContext): Promise<EngineTask[]> {
  return await reads.tasks(action.dag_id, action.id, ctx).catch(unlessMissing<EngineTask[]>([]))
}

/** An action's run, its DAG's pause flag and its steps, read at once; nothing for an action that never ran. */
export async function runOf (
  reads: EngineReads,
  action: ActionRecord,
  ctx: CallContext
): Promise<{ run: EngineRun | undefined, paused: boolean, steps: EngineTask[] }> {
  if (action.validation_failed) return { run: undefined, paused: false, steps: [] }
  const [run, paused, steps] = await Promise.all([
    reads.run(action.dag_id, action.id, ctx),
    reads.isPaused(action.dag_id, ctx).then((p) => p ?? false),
    stepsOf(reads, action, ctx)
  ])
  return run === undefined ? { run, paused: false, steps: [] } : { run, paused, steps }
}

/**
 * What the orchestrator kept of an action's run when it ended (the engine watch's stored summary: the run's few fields
 * and each step's state), for a run the engine no longer has; undefined when nothing was kept.
 */
export async function lastKnownRun (
  repos: Repositories,
  action: ActionRecord
): Promise<{ run: EngineRun, steps: StepState[] } | undefined> {
  if (action.validation_failed || repos.runSummaries === undefined) return undefined
  const [record] = await repos.runSummaries.get([{ dag_id: action.dag_id, run_id: action.id }])
  return record === undefined ? undefined : decodeSummary(record)
}

function stepSummary (actionId: string, step: { id: string, state: string | null }, index: number, notes: NoteView[] = []) {
  return { id: step.id, url: `/actions/${actionId}/steps/${step.id}`, index, state: step.state, notes }
}

/** The action entity from a record, its run (if any), the DAG's pause flag and the steps (lifecycle.ts: its state). */
export function actionEntity (
  action: ActionRecord,
  run: EngineRun | undefined,
  dagPaused: boolean,
  steps: StepState[],
  stepNotes?: Map<string, NoteView[]>
) {
  return {
    id: action.id,
    name: action.name,
    parameters: action.parameters,
    dag_id: action.dag_id,
    dag_execution_date: executionDate(action.dag_execution_date),
    user: action.user,
    datetime: zonedTimestamp(action.datetime),
    context_marker: action.context_marker,
    dag_status: run?.state ?? null,
    ...actionState(action, run, dagPaused, steps.map((s) => s.state)),
    // an action that never ran has no steps; one that did lists its workflow's whole step list
    steps: run === undefined && steps.length === 0
      ? []
      : orderedSteps(action.dag_id, steps).map((step, i) => stepSummary(action.id, step, i + 1, stepNotes?.get(step.id)))
  }
}

export type ActionEntity = ReturnType<typeof actionEntity>
