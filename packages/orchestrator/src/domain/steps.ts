// Steps over the engine's real shape (Airflow 3 has no sub-DAGs, only task groups): one run per action whose grouped
// tasks are named `<group>.<task>`. The interface's step order, step lookup and sub-workflows are derived here from the
// task instances.
import type { EngineRun, EngineTask } from '../clients/engine.ts'
import { STEP_ORDER } from './catalog.ts'
import { plainTimestamp, spacedDate, workflowDate } from './format.ts'

/** The task's own name: its engine id without the group path. */
export const taskName = (taskId: string): string => taskId.slice(taskId.lastIndexOf('.') + 1)

/** What a step's place and state need of a task instance (all a list of actions reads of one). */
export type StepState = Pick<EngineTask, 'dag_id' | 'dag_run_id' | 'task_id' | 'map_index' | 'state'>

export interface OrderedStep<T extends StepState = EngineTask> { id: string, state: string | null, task: T | undefined }

/**
 * The steps of a run in the workflow's step order: every step of its fixed list, with the state of its task
 * instance, or null while the engine has not made one; then the tasks the list does not know, in engine order.
 */
export function orderedSteps<T extends StepState> (dagId: string, tasks: T[]): Array<OrderedStep<T>> {
  const order = STEP_ORDER[dagId] ?? []
  const byId = new Map<string, T>()
  for (const task of tasks) if (!byId.has(task.task_id)) byId.set(task.task_id, task)
  const known = new Set(order)
  const listed = order.map((id) => ({ id, state: byId.get(id)?.state ?? null, task: byId.get(id) }))
  const extra = [...byId.values()]
    .filter((t) => !known.has(t.task_id))
    .map((task) => ({ id: task.task_id, state: task.state ?? null, task }))
  return [...listed, ...extra]
}

/**
 * The step a caller names: its engine task id, or a bare task name that matches exactly one grouped task (so
 * that scripts written for the sub-workflow form, `ucp_preflight_check`, keep working). Undefined otherwise.
 */
export function resolveStep<T extends StepState> (steps: Array<OrderedStep<T>>, stepId: string): OrderedStep<T> | undefined {
  const exact = steps.find((s) => s.id === stepId)
  if (exact !== undefined) return exact
  const named = steps.filter((s) => s.id.includes('.') && taskName(s.id) === stepId)
  return named.length === 1 ? named[0] : undefined
}

const ACTIVE = new Set(['running', 'up_for_retry', 'queued', 'scheduled', 'deferred', 'restarting', 'up_for_reschedule'])
const FAILED = new Set(['failed', 'upstream_failed'])
const DONE = new Set(['success', 'skipped'])
const FINISHED = new Set([...FAILED, ...DONE, 'removed'])

/**
 * A group's state from its tasks: null while none has started, running while any runs or waits for a retry
 * (or waits for its turn once others have started), failed when any failed and none still runs, success when all
 * succeeded or were skipped.
 */
export function groupState (tasks: EngineTask[]): string | null {
  const states = tasks.map((t) => t.state ?? null)
  const started = tasks.some((t) => t.start_date != null || (t.state != null && FINISHED.has(t.state)))
  if (!started) return null
  if (states.some((s) => s !== null && ACTIVE.has(s))) return 'running'
  if (states.some((s) => s !== null && FAILED.has(s))) return 'failed'
  if (states.every((s) => s !== null && DONE.has(s))) return 'success'
  return 'running'
}

export function stepOf (task: EngineTask) {
  return {
    task_id: task.task_id,
    dag_id: task.dag_id,
    execution_date: spacedDate(task.logical_date ?? task.run_after ?? null),
    start_date: plainTimestamp(task.start_date ?? null),
    end_date: plainTimestamp(task.end_date ?? null),
    duration: task.duration ?? null,
    queued_dttm: plainTimestamp(task.queued_when ?? null),
    try_number: task.try_number,
    state: task.state ?? null,
    operator: task.operator ?? null
  }
}

export function workflowOf (run: EngineRun) {
  const logical = run.logical_date ?? run.run_after
  return {
    workflow_id: `${run.dag_id}__${workflowDate(logical)}`,
    dag_id: run.dag_id,
    run_id: run.dag_run_id,
    execution_date: spacedDate(logical),
    start_date: plainTimestamp(run.start_date ?? null),
    end_date: plainTimestamp(run.end_date ?? null),
    state: run.state as string | null,
    external_trigger: run.run_type === 'manual' || run.run_type === 'asset_triggered'
  }
}

export type WorkflowView = ReturnType<typeof workflowOf>

const earliest = (dates: Array<string | null | undefined>): string | null =>
  dates.filter((d): d is string => d != null).sort()[0] ?? null

/**
 * A workflow's detail with its steps and its sub-workflows, derived from the task groups under `path` ('' for the
 * run itself, `G` or `G.H` for a group): one object per group directly under the path that has task instances, in
 * the step order of its first task, each named `D.G` with the workflow id `D.G__<the run's date>`.
 */
export function workflowDetail (run: EngineRun, tasks: EngineTask[], path: string) {
  const prefix = path === '' ? '' : `${path}.`
  const inScope = orderedSteps(run.dag_id, tasks).filter((s) => s.task !== undefined && s.id.startsWith(prefix))
  const base = workflowOf(run)
  const date = base.workflow_id.slice(run.dag_id.length + 2)
  const groups = new Set<string>()
  for (const step of inScope) {
    const rest = step.id.slice(prefix.length)
    if (rest.includes('.')) groups.add(`${prefix}${rest.slice(0, rest.indexOf('.'))}`)
  }
  const subDags = [...groups].map((group) => groupView(run, tasks, group, date))
  const self = path === '' ? base : groupView(run, tasks, path, date)
  return { ...self, steps: inScope.map((s) => stepOf(s.task as EngineTask)), sub_dags: subDags }
}

/** The derived workflow object of one group (the same fields as each entry of its parent's `sub_dags`). */
function groupView (run: EngineRun, tasks: EngineTask[], group: string, date: string): WorkflowView {
  const members = tasks.filter((t) => t.task_id.startsWith(`${group}.`))
  const finished = members.every((t) => t.state != null && FINISHED.has(t.state))
  const ends = members.map((t) => t.end_date).filter((d): d is string => d != null).sort()
  return {
    ...workflowOf(run),
    workflow_id: `${run.dag_id}.${group}__${date}`,
    dag_id: `${run.dag_id}.${group}`,
    start_date: plainTimestamp(earliest(members.map((t) => t.start_date))),
    end_date: finished ? plainTimestamp(ends.at(-1) ?? null) : null,
    state: groupState(members),
    external_trigger: false
  }
}
