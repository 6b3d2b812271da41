// One Drydock task from creation to its end, as upstream Shipyard's Drydock operators run one: created, read back
// every `interval` seconds until complete or terminated or `timeout` seconds have passed, then its result, its
// messages and its failed subtasks written to the log. A node counts as a success when the task lists it among
// its successes and not among its failures.
import type { CallContext } from '@slipway/common'
import type { DrydockClient, DrydockTask, NodeFilter } from '../clients/drydock.ts'
import type { StepIo } from '../types.ts'
import { wait } from './wait.ts'

export interface TaskTiming { intervalS: number, timeoutS: number }

export interface TaskOutcome {
  taskId: string
  /** Drydock's task status at the end (complete, terminated, or what it was when the wait ran out). */
  status: string
  /** The result's status: success, partial_success, failure, incomplete, … */
  result: string
  successes: Set<string>
  failures: string[]
  timedOut: boolean
}

const DONE = new Set(['complete', 'terminated'])
const SUBTASK_DEPTH = 3

/** The failed subtasks under a task, layer by layer, each with its error messages. */
async function reportSubtasks (drydock: DrydockClient, task: DrydockTask, io: StepIo, ctx: CallContext): Promise<void> {
  let layer = task.subtask_id_list ?? []
  for (let depth = 0; depth < SUBTASK_DEPTH && layer.length > 0; depth++) {
    const next: string[] = []
    for (const id of layer) {
      const sub = await drydock.getTask(id, ctx)
      next.push(...(sub.subtask_id_list ?? []))
      const result = sub.result?.status ?? 'unknown'
      if (result === 'success') continue
      const failed = sub.result?.failures ?? []
      const nodes = failed.length > 0 ? `, failed nodes: ${failed.join(', ')}` : ''
      io.log(`Subtask ${id} (${sub.action ?? '?'}) ended ${sub.status ?? '?'}/${result}${nodes}`, 'warning')
      for (const m of sub.result?.details?.messageList ?? []) {
        if (m.error === true) io.log(` - ${m.context_type ?? 'N/A'}:${m.context ?? 'N/A'}: ${m.message ?? ''}`, 'error')
      }
    }
    layer = next
  }
}

export async function runDrydockTask (drydock: DrydockClient, action: string, designRef: string, filter: NodeFilter | null,
  timing: TaskTiming, io: StepIo, ctx: CallContext): Promise<TaskOutcome> {
  const created = await drydock.createTask(action, designRef, filter, ctx)
  const taskId = created.task_id
  const nodes = filter?.filter_set.flatMap((f) => f.node_names ?? []) ?? []
  io.log(`Drydock ${action} task ${taskId} created${nodes.length > 0 ? ` for ${nodes.join(', ')}` : ''}`)
  const deadline = Date.now() + timing.timeoutS * 1000
  let task = created
  let seen = ''
  for (;;) {
    task = await drydock.getTask(taskId, ctx)
    const status = task.status ?? 'unknown'
    if (status !== seen) { io.log(`Drydock task ${taskId} is ${status}`); seen = status }
    if (DONE.has(status) || Date.now() >= deadline) break
    await wait(Math.min(timing.intervalS * 1000, Math.max(deadline - Date.now(), 0)), io.signal)
  }
  const status = task.status ?? 'unknown'
  const timedOut = !DONE.has(status)
  const result = task.result?.status ?? 'unknown'
  const failures = task.result?.failures ?? []
  const successes = new Set((task.result?.successes ?? []).filter((n) => !failures.includes(n)))
  if (timedOut) io.log(`Drydock ${action} task ${taskId} did not complete within ${timing.timeoutS} s (still ${status})`, 'error')
  io.log(`Drydock ${action} task ${taskId} ended ${status}/${result}: successes [${[...successes].join(', ')}], failures [${failures.join(', ')}]`,
    result === 'success' ? 'info' : 'warning')
  for (const m of task.result?.details?.messageList ?? []) {
    const error = m.error === true
    io.log(` - ${m.context_type ?? 'N/A'}:${m.context ?? 'N/A'}: ${m.message ?? ''}${error ? ' (error)' : ''}`, error ? 'error' : 'info')
  }
  if (result !== 'success') await reportSubtasks(drydock, task, io, ctx)
  return { taskId, status, result, successes, failures, timedOut }
}
