// Watching one action from both sides at once: the real Airflow's own answer (its run and task instances) and the
// orchestrator's (GET /actions/{id}), each poll timed. Used to hold the engine watch to its staleness bound and to
// check that Airflow moves `updated_at` on every change (the engine's `updated_at_gte` filters find the changed
// item from the moment before the change).
import type { Action } from './api.ts'
import type { RealStack } from './real-stack.ts'

/** A task's or the run's (key RUN) state in one answer. */
export type States = Map<string, string | null>
export const RUN = '(run)'

export interface Observation { requested: number, answered: number, states: States }

interface TaskInstance { task_id: string, state: string | null }

/** How far along a state is: a later state never goes back in a run without retries. */
export function rank (state: string | null | undefined): number {
  if (state == null) return 0
  return ({ scheduled: 1, queued: 2, running: 3 } as Record<string, number>)[state] ?? 4
}

export function orchestratorStates (action: Action): States {
  const states: States = new Map(action.steps.map((s) => [s.id, s.state]))
  states.set(RUN, action.dag_status)
  return states
}

/** The run and task instance states as Airflow answers them now. */
export async function airflowStates (real: RealStack, dagId: string, runId: string): Promise<States> {
  const run = await real.airflowGet<{ state: string }>(`/api/v2/dags/${dagId}/dagRuns/${runId}`)
  const tasks = await real.airflowGet<{ task_instances: TaskInstance[] }>(`/api/v2/dags/${dagId}/dagRuns/${runId}/taskInstances?limit=100`)
  const states: States = new Map(tasks.task_instances.map((t) => [t.task_id, t.state]))
  states.set(RUN, run.state)
  return states
}

/** A change Airflow showed between two of its answers: `before` is when the earlier answer was asked for. */
export interface Change { key: string, from: string | null, to: string | null, before: number, seen: number }

/**
 * Whether Airflow's `updated_at_gte` filter, from the moment before the change, finds the changed item: the
 * change then moved its `updated_at`. Answers the keys it did not find.
 */
export async function updatedAtMisses (real: RealStack, dagId: string, runId: string, changes: Change[]): Promise<string[]> {
  const missing: string[] = []
  for (const change of changes) {
    const since = encodeURIComponent(new Date(change.before).toISOString())
    if (change.key === RUN) {
      const runs = await real.airflowGet<{ dag_runs: Array<{ dag_run_id: string }> }>(`/api/v2/dags/${dagId}/dagRuns?updated_at_gte=${since}&limit=100`)
      if (!runs.dag_runs.some((r) => r.dag_run_id === runId)) missing.push(`${change.key} ${change.from} -> ${change.to}`)
    } else {
      const path = `/api/v2/dags/${dagId}/dagRuns/${runId}/taskInstances?updated_at_gte=${since}&limit=100`
      const tasks = await real.airflowGet<{ task_instances: TaskInstance[] }>(path)
      if (!tasks.task_instances.some((t) => t.task_id === change.key)) missing.push(`${change.key} ${change.from} -> ${change.to}`)
    }
  }
  return missing
}

/** The changes between consecutive Airflow observations, keyed by what changed. */
export function changesOf (observations: Observation[]): Change[] {
  const changes: Change[] = []
  for (let i = 1; i < observations.length; i++) {
    const [earlier, later] = [observations[i - 1]!, observations[i]!]
    for (const [key, state] of later.states) {
      const from = earlier.states.get(key) ?? null
      if (from !== state) changes.push({ key, from, to: state, before: earlier.requested, seen: later.answered })
    }
  }
  return changes
}

/**
 * For every state Airflow showed, how long until the orchestrator showed it or a later one (the lag per change),
 * the changes an orchestrator answer asked for `boundMs` or more after Airflow showed them still did not show
 * (late), and the changes no answer was asked for that late (unchecked: the observation ended too soon).
 */
export function visibility (airflow: Observation[], orchestrator: Observation[], boundMs: number) {
  const lags: Array<{ ms: number, change: string }> = []
  const late: string[] = []
  const unchecked: string[] = []
  const t0 = airflow[0]?.requested ?? 0
  for (const change of changesOf(airflow)) {
    const name = `${change.key} ${change.from ?? '-'} -> ${change.to ?? '-'} (Airflow showed it at +${change.seen - t0} ms)`
    const shown = orchestrator.find((o) => o.requested >= change.before && rank(o.states.get(change.key)) >= rank(change.to))
    if (shown !== undefined) lags.push({ ms: Math.max(0, shown.answered - change.seen), change: `${name}, asked at +${shown.requested - t0} ms` })
    const afterBound = orchestrator.filter((o) => o.requested >= change.seen + boundMs)
    if (afterBound.length === 0) unchecked.push(name)
    if (afterBound.some((o) => rank(o.states.get(change.key)) < rank(change.to))) late.push(name)
  }
  return { lags, late, unchecked }
}
