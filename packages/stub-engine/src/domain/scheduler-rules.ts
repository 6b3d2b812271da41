// The scheduler's pure decisions, as Airflow makes them: trigger rules and a run's outcome from its leaves.
import { FINISHED_TASK_STATES, type TaskInstanceState } from '@slipway/airflow-contract'
import type { TriggerRule } from './workflows.ts'

export type Readiness = 'wait' | 'run' | 'upstream_failed' | 'skipped'

const isFailed = (s: TaskInstanceState | null): boolean => s === 'failed' || s === 'upstream_failed'
export const isFinished = (s: TaskInstanceState | null): boolean => s !== null && FINISHED_TASK_STATES.has(s)

/** What a task with no state yet should do, given the states of all its upstream instances. */
export function readiness (rule: TriggerRule, upstream: Array<TaskInstanceState | null>): Readiness {
  if (upstream.length === 0) return 'run'
  const done = upstream.every(isFinished)
  const failed = upstream.some(isFailed)
  const success = upstream.some((s) => s === 'success')
  switch (rule) {
    case 'all_success':
      if (failed) return 'upstream_failed'
      if (upstream.some((s) => s === 'skipped')) return 'skipped'
      return upstream.every((s) => s === 'success') ? 'run' : 'wait'
    case 'all_done':
      return done ? 'run' : 'wait'
    case 'none_failed':
      if (failed) return 'upstream_failed'
      return done ? 'run' : 'wait'
    case 'one_success':
      if (success) return 'run'
      if (!done) return 'wait'
      return failed ? 'upstream_failed' : 'skipped'
  }
}

/** A finished run failed when any leaf failed or was upstream_failed; otherwise it succeeded. */
export function runOutcome (leafStates: Array<TaskInstanceState | null>): 'success' | 'failed' {
  return leafStates.some(isFailed) ? 'failed' : 'success'
}
