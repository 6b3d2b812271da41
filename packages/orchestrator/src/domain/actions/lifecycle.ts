// Every rule that says what state an action is in: its lifecycle (Pending, Processing, Complete, Failed, Paused), its
// start status (started, trigger_pending, failed_to_start, refused), and when its run counts as in progress or ended.
// An action is Failed when a pre-run check refused it, when its run failed to start, when its run ended failed (or
// shutdown, skipped, removed, upstream_failed), or when its run ended a success with any step failed or upstream_failed.
// It is Processing, not Pending, once a step of its run has started, whatever the run's state as last read says.
import type { ActionRecord, StartState } from '../../db/repositories.ts'

/** Step states of a step that ended without doing its work: its last try failed, or a step it needed did. */
export const FAILED_STEP_STATES: ReadonlySet<string> = new Set(['failed', 'upstream_failed'])

/** Lifecycle from the run state and whether its DAG is paused: a live run of a paused DAG is Paused. */
export function lifecycleOf (state: string | null | undefined, dagPaused: boolean): string {
  const s = (state ?? 'none').toLowerCase()
  if ((s === 'queued' || s === 'running') && dagPaused) return 'Paused'
  if (['none', 'queued', 'scheduled'].includes(s)) return 'Pending'
  if (['running', 'up_for_retry'].includes(s)) return 'Processing'
  if (s === 'success') return 'Complete'
  if (['failed', 'upstream_failed', 'shutdown', 'skipped', 'removed'].includes(s)) return 'Failed'
  return `Unknown (${s})`
}

/** Step states of a step not under way yet: the engine has not handed it to a worker. */
const NOT_STARTED_STEP_STATES: ReadonlySet<string> = new Set(['none', 'scheduled', 'queued'])

/** Whether a step of the run has started (runs, ran, or was given an end state). */
export const anyStepStarted = (stepStates: Array<string | null | undefined>): boolean =>
  stepStates.some((s) => s != null && !NOT_STARTED_STEP_STATES.has(s.toLowerCase()))

/**
 * An action's lifecycle: its run's, except that a run which ended with any step failed or upstream_failed is
 * Failed even when the engine calls the run a success. Workflows whose tail runs whatever happened before it
 * (all_done: create_action_tag, final_deployment_status) end as a success however their other steps went, and
 * Complete means the action did what it was asked. A step's state is that of its last try: a try that failed and
 * was retried is up_for_retry, then the state of the next try. A queued run whose steps have started is Processing:
 * the engine starts steps only in a running run, so the run's state was read before it changed (the engine watch
 * reads runs and steps apart, and the run list may lag the steps by a poll). The run's own word stays in dag_status.
 */
export function actionLifecycle (
  state: string | null | undefined,
  dagPaused: boolean,
  stepStates: Array<string | null | undefined>
): string {
  const lifecycle = lifecycleOf(state, dagPaused)
  if (lifecycle === 'Pending' && state != null && anyStepStarted(stepStates)) return 'Processing'
  if (lifecycle !== 'Complete') return lifecycle
  return stepStates.some((s) => s != null && FAILED_STEP_STATES.has(s.toLowerCase())) ? 'Failed' : lifecycle
}

/** The lifecycle of an action whose run never started: a pre-run check refused it, or its trigger failed. */
export const NEVER_STARTED_LIFECYCLE = 'Failed' as const

/** Whether the engine has the action's run, as the entity's `start_status` says it. */
export type StartStatus = 'started' | 'trigger_pending' | 'failed_to_start' | 'refused'

/** How a saved start state reads in the entity's `start_status`. */
const START_STATUS: Record<StartState, StartStatus> = {
  pending: 'trigger_pending', started: 'started', failed: 'failed_to_start', refused: 'refused'
}

/**
 * `started`; `trigger_pending` (saved, the engine has not confirmed the run yet: lifecycle Pending); `failed_to_start`
 * (no run, its trigger failed: lifecycle Failed); `refused` (a pre-run validation stopped it). A run the engine has
 * counts whatever the database still says.
 */
export function startStatusOf (action: ActionRecord, hasRun: boolean): StartStatus {
  return action.validation_failed ? 'refused' : hasRun ? 'started' : START_STATUS[action.start_state]
}

/**
 * Why an action that started has no run in the engine: the engine's database does not hold it (the engine was switched,
 * stand-in and Airflow, on the same orchestrator database, or its data was replaced, or the run was deleted) and
 * nothing of it was kept. Its lifecycle is then the interface's for no run (Pending), with no steps.
 */
export const runMissingReason = (action: Pick<ActionRecord, 'id' | 'dag_id'>): string =>
  `The engine has no run ${action.id} of ${action.dag_id}: its runs are not in this engine's database (the engine was ` +
  'switched or its data replaced, or the run was deleted), and the orchestrator kept no summary of it'

/**
 * Why an action's run and steps are read from the summary the orchestrator kept of it when it ended: the engine has it
 * no more.
 */
export const runFromSummaryReason = (action: Pick<ActionRecord, 'id' | 'dag_id'>): string =>
  `The engine has no run ${action.id} of ${action.dag_id} any more (the engine was switched or its data replaced, or ` +
  'the run was deleted): its state and steps are as the orchestrator kept them when the run ended'

/**
 * The entity's state fields: the lifecycle (the same rule for a list and one action, whether the steps came from the
 * engine watch or the engine), the start status, and why a start is pending or failed, or why a started action has
 * no run.
 */
export function actionState (
  action: ActionRecord,
  run: { state?: string | null } | undefined,
  dagPaused: boolean,
  stepStates: Array<string | null | undefined>
) {
  const start = startStatusOf(action, run !== undefined)
  return {
    action_lifecycle: start === 'refused' || start === 'failed_to_start'
      ? NEVER_STARTED_LIFECYCLE
      : actionLifecycle(run?.state, dagPaused, stepStates),
    start_status: start,
    start_reason: start === 'refused'
      ? null
      : start !== 'started' ? action.start_reason : run === undefined ? runMissingReason(action) : null
  }
}

/** A run in progress: queued or running (a paused DAG's too). */
export const runInProgress = (state: string | null | undefined): boolean => state === 'queued' || state === 'running'

/** A run that has ended for good, as far as a site action's tag goes. */
export const runEnded = (state: string | null | undefined): boolean => state === 'success' || state === 'failed'
