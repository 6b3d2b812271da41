// The stand-in's own task faults: nodes whose node-level subtasks fail, and actions whose tasks never complete.
// Read at every step of a task, so a change takes effect on tasks already running.
import { BadRequestError } from '@slipway/common'
import { NODE_SUBTASK_ACTIONS, TASK_ACTIONS, type TaskAction, type TaskFaultsBody } from '../../schemas/drydock.ts'

export interface TaskFaultSettings {
  /** `node` or `action:node`, as SITE_FAIL_NODES spells them. */
  failNodes: string[]
  stuckTasks: TaskAction[]
}

const ACTIONS = new Set<string>(TASK_ACTIONS)

/** A comma-separated variable as a list of trimmed, non-empty entries. */
export const splitList = (value: string): string[] => value.split(',').map((v) => v.trim()).filter((v) => v !== '')

function checkFailNode (entry: string): string {
  const colon = entry.indexOf(':')
  if (colon === -1) return entry
  const action = entry.slice(0, colon)
  if (!(action in NODE_SUBTASK_ACTIONS) || entry.length === colon + 1) {
    throw new BadRequestError('Invalid task fault',
      `fail_nodes entry ${JSON.stringify(entry)} is not a node or action:node with a node-level action (${Object.keys(NODE_SUBTASK_ACTIONS).join(', ')})`)
  }
  return entry
}

function checkStuck (action: string): TaskAction {
  if (!ACTIONS.has(action)) {
    throw new BadRequestError('Invalid task fault', `stuck task ${JSON.stringify(action)} is not one of: ${TASK_ACTIONS.join(', ')}`)
  }
  return action as TaskAction
}

export function createTaskFaults (initial: { failNodes?: string[], stuckTasks?: string[] } = {}) {
  let failNodes = (initial.failNodes ?? []).map(checkFailNode)
  let stuckTasks = (initial.stuckTasks ?? []).map(checkStuck)

  return {
    get: (): TaskFaultsBody => ({ fail_nodes: [...failNodes], stuck_tasks: [...stuckTasks] }),
    /** Replaces the fields given; an absent field keeps its setting. */
    set: (body: TaskFaultsBody): TaskFaultsBody => {
      const nextFail = body.fail_nodes?.map(checkFailNode) ?? failNodes
      const nextStuck = body.stuck_tasks?.map(checkStuck) ?? stuckTasks
      failNodes = nextFail
      stuckTasks = nextStuck
      return { fail_nodes: [...failNodes], stuck_tasks: [...stuckTasks] }
    },
    /** Whether `node`'s subtask of `action` is to fail. */
    failsNode: (action: string, node: string): boolean => failNodes.some((e) => e === node || e === `${action}:${node}`),
    isStuck: (action: string): boolean => stuckTasks.includes(action as TaskAction)
  }
}

export type TaskFaults = ReturnType<typeof createTaskFaults>
