// Drydock's task API, as upstream Shipyard's Drydock operators use it: create a task for an action and a node
// filter, read it back (its status, its result and its subtasks), and resolve a node filter to node names.
import { DownstreamError, type CallContext, type HttpClient } from '@slipway/common'
import { designPeer } from './design.ts'

/** Drydock's node filter: a union (or intersection) of filter sets. */
export interface NodeFilter {
  filter_set_type: 'union' | 'intersection'
  filter_set: Array<{
    filter_type: 'union' | 'intersection'
    node_names?: string[]
    node_tags?: string[]
    node_labels?: Record<string, string>
    rack_names?: string[]
  }>
}

export interface DrydockMessage { message?: string, error?: boolean, context_type?: string, context?: string, ts?: string }

/** A task as Drydock answers it; fields the steps do not read are kept as they came. */
export interface DrydockTask {
  task_id: string
  action?: string
  status?: string
  result?: {
    status?: string
    successes?: string[]
    failures?: string[]
    details?: { errorCount?: number, messageList?: DrydockMessage[] }
  }
  subtask_id_list?: string[]
  [field: string]: unknown
}

function taskOf (value: unknown, what: string): DrydockTask {
  const task = value as DrydockTask | null
  if (task === null || typeof task !== 'object' || typeof task.task_id !== 'string') {
    const got = JSON.stringify(value)?.slice(0, 200)
    throw new DownstreamError('drydock', `Drydock answered ${what} with something other than a task: ${got}`)
  }
  return task
}

export function drydockClient (http: HttpClient) {
  return {
    ...designPeer(http),

    async createTask (action: string, designRef: string, nodeFilter: NodeFilter | null, ctx: CallContext): Promise<DrydockTask> {
      const json: Record<string, unknown> = { action, design_ref: designRef }
      if (nodeFilter !== null) json.node_filter = nodeFilter
      return taskOf(await http.sendJson('POST', '/tasks', { ctx, json }), 'POST /tasks')
    },

    async getTask (taskId: string, ctx: CallContext): Promise<DrydockTask> {
      return taskOf(await http.getJson(`/tasks/${encodeURIComponent(taskId)}`, { ctx }), `GET /tasks/${taskId}`)
    },

    /** The hostnames of every node Drydock knows. */
    async nodes (ctx: CallContext): Promise<string[]> {
      const nodes = await http.getJson<unknown>('/nodes', { ctx })
      if (!Array.isArray(nodes)) throw new DownstreamError('drydock', 'Drydock answered GET /nodes with something other than a list')
      return nodes.flatMap((n: { hostname?: unknown } | null) => typeof n?.hostname === 'string' ? [n.hostname] : [])
    },

    /** The names of the nodes a filter selects in the design (no filter: every node). */
    async nodesForFilter (designRef: string, nodeFilter: NodeFilter | null, ctx: CallContext): Promise<string[]> {
      const names = await http.sendJson<unknown>('POST', '/nodefilter', { ctx, json: { design_ref: designRef, node_filter: nodeFilter } })
      if (!Array.isArray(names) || !names.every((n) => typeof n === 'string')) {
        const got = JSON.stringify(names)?.slice(0, 200)
        throw new DownstreamError('drydock', `Drydock answered POST /nodefilter with something other than a list of node names: ${got}`)
      }
      return names
    }
  }
}
export type DrydockClient = ReturnType<typeof drydockClient>
