// How `GET /api/v1.0/tasks/{id}` tells a task with Drydock's query options: `builddata` adds the build data (none is
// kept here: an empty list), `layers=N` answers the task and N-1 layers of subtasks keyed by id (-1: all), and
// `subtaskerrors` adds the results of every subtask, at any depth, that counted an error.
import type { TaskQuerySchema } from '../../schemas/drydock.ts'
import type { Static } from 'typebox'
import { toTask, type TaskRecord } from './task-record.ts'

export type TaskQuery = Static<typeof TaskQuerySchema>

// what Falcon's get_param_as_bool takes for true
const TRUE_VALUES = new Set(['true', 'True', 'TRUE', '1', 'on', 'yes', 't', 'y'])

const flag = (value: string | undefined): boolean => value !== undefined && TRUE_VALUES.has(value)

/** Drydock reads `layers` as an integer and takes anything else as 0. */
function layersOf (value: string | undefined): number {
  if (value === undefined || !/^\s*-?\d+\s*$/.test(value)) return 0
  return Number.parseInt(value, 10)
}

export function layeredTask (taskId: string, query: TaskQuery, lookup: (id: string) => TaskRecord | undefined): Record<string, unknown> {
  const buildData = flag(query.builddata)
  const subtaskErrors = flag(query.subtaskerrors)
  const layers = layersOf(query.layers)

  function view (id: string): Record<string, unknown> | undefined {
    const record = lookup(id)
    if (record === undefined) return undefined
    const task: Record<string, unknown> = toTask(record)
    if (buildData) task.build_data = []
    return task
  }

  function plain (id: string): Record<string, unknown> | undefined {
    const record = lookup(id)
    return record === undefined ? undefined : toTask(record)
  }

  // walks the subtasks layer by layer: those within `depth` go in the answer, errors are gathered at every depth
  function walk (first: Record<string, unknown>, depth: number, withData: boolean) {
    const answer: Record<string, unknown> = { init_task_id: taskId, [taskId]: first }
    const errors: Record<string, unknown> = {}
    let queue = [...first.subtask_id_list as string[]]
    const deeper = (layer: number): boolean => layer < depth || depth === -1 || subtaskErrors
    let layer = 1
    while (queue.length > 0 && deeper(layer)) {
      const ids = queue
      queue = []
      for (const id of ids) {
        const task = withData ? view(id) : plain(id)
        if (layer < depth || depth === -1) answer[id] = task ?? null
        if (task === undefined) continue
        queue.push(...task.subtask_id_list as string[])
        const result = task.result as { details: { errorCount: number } }
        if (result.details.errorCount > 0 && subtaskErrors) errors[id] = { ...result, task_id: id }
      }
      layer += 1
    }
    return { answer, errors }
  }

  const first = view(taskId) ?? {}
  if (layers !== 0) {
    const { answer, errors } = walk(first, layers, buildData)
    if (subtaskErrors) answer.subtask_errors = errors
    return answer
  }
  if (subtaskErrors) first.subtask_errors = walk(first, 1, false).errors
  return first
}
