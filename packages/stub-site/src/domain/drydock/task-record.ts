// One Drydock task as the stand-in keeps it, and how it is told: Task.to_dict with its result's Status, and the
// result rules of Drydock's Task (success/failure folding into partial_success, messages counting errors).
import { randomUUID } from 'node:crypto'
import type { ResultStatus, Task, TaskMessage, TaskStatus } from '../../schemas/drydock.ts'

export interface TaskRecord {
  taskId: string
  action: string
  designRef: string
  nodeFilter: unknown
  parentTaskId: string | null
  status: TaskStatus
  resultStatus: ResultStatus
  successes: string[]
  failures: string[]
  messages: TaskMessage[]
  subtaskIds: string[]
  created: Date
  updated: Date | null
  createdBy: string | null
}

/** Python's `str(datetime)` of an aware UTC time: `2026-05-01 10:00:00.123000+00:00`, as Drydock writes its times. */
export function pythonTime (date: Date): string {
  return date.toISOString().replace('T', ' ').replace(/Z$/, '000+00:00')
}

export function newTask (fields: {
  action: string
  designRef: string
  nodeFilter: unknown
  parentTaskId?: string
  createdBy?: string | null
  now: Date
}): TaskRecord {
  return {
    taskId: randomUUID(),
    action: fields.action,
    designRef: fields.designRef,
    nodeFilter: fields.nodeFilter ?? null,
    parentTaskId: fields.parentTaskId ?? null,
    status: 'requested',
    resultStatus: 'incomplete',
    successes: [],
    failures: [],
    messages: [],
    subtaskIds: [],
    created: fields.now,
    updated: null,
    createdBy: fields.createdBy ?? null
  }
}

/** A message on the task's result; `context_type` is `task`, `node` or `NA` as Drydock's are. */
export interface MessageOptions { error?: boolean, contextType?: string, context?: string }

export function addMessage (task: TaskRecord, now: Date, text: string, options: MessageOptions = {}): void {
  task.messages.push({
    message: text,
    error: options.error ?? false,
    context_type: options.contextType ?? 'task',
    context: options.context ?? task.taskId,
    ts: pythonTime(now),
    extra: {}
  })
}

/** Something succeeded (on `entity`, when given): success, or partial_success after a failure. */
export function succeed (task: TaskRecord, entity?: string): void {
  task.resultStatus = task.resultStatus === 'failure' || task.resultStatus === 'partial_success' ? 'partial_success' : 'success'
  if (entity !== undefined && !task.successes.includes(entity)) task.successes.push(entity)
}

/** Something failed (on `entity`, when given): failure, or partial_success after a success. */
export function fail (task: TaskRecord, entity?: string): void {
  task.resultStatus = task.resultStatus === 'success' || task.resultStatus === 'partial_success' ? 'partial_success' : 'failure'
  if (entity !== undefined && !task.failures.includes(entity)) task.failures.push(entity)
}

export function toTask (task: TaskRecord): Task {
  return {
    kind: 'Task',
    apiVersion: 'v1',
    task_id: task.taskId,
    action: task.action,
    parent_task_id: task.parentTaskId,
    design_ref: task.designRef,
    status: task.status,
    result: {
      kind: 'Status',
      apiVersion: 'v1.0',
      metadata: {},
      message: null,
      reason: null,
      status: task.resultStatus,
      successes: [...task.successes],
      failures: [...task.failures],
      links: [],
      details: {
        errorCount: task.messages.filter((m) => m.error).length,
        messageList: task.messages.map((m) => ({ ...m, extra: { ...m.extra } }))
      }
    },
    node_filter: task.nodeFilter,
    subtask_id_list: [...task.subtaskIds],
    created: pythonTime(task.created),
    created_by: task.createdBy,
    updated: task.updated === null ? null : pythonTime(task.updated),
    terminated: null,
    terminated_by: null,
    terminate: false,
    retry: 0
  }
}
