// Drydock's tasks: created queued, run in the background a phase at a time (SITE_TASK_MS apart) so that callers
// really poll, one subtask per node for the node-level actions, results folded up as Drydock's orchestrator does.
import { BadRequestError, type CallContext } from '@slipway/common'
import type { DesignFetcher } from '../../clients/design.ts'
import { TaskNotFoundError, UnsupportedActionError } from '../../errors.ts'
import {
  NODE_SUBTASK_ACTIONS, TASK_ACTIONS, type NodeAction, type Task, type TaskCreate
} from '../../schemas/drydock.ts'
import type { SeedNode } from '../../schemas/nodes.ts'
import { seedFromBaremetalNode } from '../design.ts'
import type { Site, SiteLog } from '../site.ts'
import { applyNodeFilter, designNodes, type DesignNode } from './node-filter.ts'
import { doneMessage, failedPhase, phasesFor, type LabelSink } from './node-work.ts'
import type { TaskFaults } from './task-faults.ts'
import { addMessage, fail, newTask, succeed, toTask, type MessageOptions, type TaskRecord } from './task-record.ts'
import { designValidation, validateDesignDocuments } from './validate.ts'
import { layeredTask, type TaskQuery } from './task-views.ts'

export interface DrydockTasksDeps {
  site: Site
  fetchDesign: DesignFetcher
  /** The bootstrap service relabel_nodes calls; null: not configured, and each relabel subtask fails. */
  bootstrap: LabelSink | null
  faults: TaskFaults
  /** The pause before each phase of a task. */
  phaseMs: number
  log: SiteLog
  now?: () => Date
}

// Drydock's create handler also takes validate_design as a task
const ACTIONS = new Set<string>([...TASK_ACTIONS, 'validate_design'])
const isNodeAction = (action: string): action is NodeAction => action in NODE_SUBTASK_ACTIONS

/** Python's rendering of what was sent as the action, for Drydock's `Unsupported action …` message. */
function shown (value: unknown): string {
  if (value === undefined || value === null) return 'None'
  return typeof value === 'string' ? value : JSON.stringify(value)
}

export function createDrydockTasks (deps: DrydockTasksDeps) {
  const now = deps.now ?? (() => new Date())
  const tasks = new Map<string, TaskRecord>()
  const timers = new Set<NodeJS.Timeout>()
  let closed = false

  /** One phase's pause; once closed it never ends, so the work stops with the site. */
  async function pause (): Promise<void> {
    await new Promise<void>((resolve) => {
      if (closed) return
      const timer = setTimeout(() => { timers.delete(timer); resolve() }, deps.phaseMs)
      timers.add(timer)
    })
  }

  /** A phase of `action`'s work: a pause, and more pauses while the action is set stuck. */
  async function phase (action: string): Promise<void> {
    do await pause()
    while (deps.faults.isStuck(action))
  }

  function set (task: TaskRecord, status: TaskRecord['status']): void {
    task.status = status
    task.updated = now()
  }

  function say (task: TaskRecord, text: string, options: MessageOptions = {}): void {
    addMessage(task, now(), text, options)
    task.updated = now()
  }

  function finish (task: TaskRecord): void { set(task, 'complete') }

  async function runNode (action: NodeAction, sub: TaskRecord, node: DesignNode, ctx: CallContext): Promise<void> {
    const onNode = { contextType: 'node', context: node.name }
    // a stuck action still starts: it is its work that never ends
    await pause()
    set(sub, 'running')
    try {
      if (deps.site.inventory.find(node.name) === undefined) {
        say(sub, `Node ${node.name} is not known to the site`, { ...onNode, error: true })
        fail(sub, node.name)
        return
      }
      if (deps.faults.failsNode(action, node.name)) {
        await phase(action)
        const where = failedPhase(action)
        if (where !== undefined) deps.site.inventory.setState(node.name, { status_name: where[0], power_state: where[1] })
        say(sub, `${sub.action} failed on node ${node.name} (fault set by SITE_FAIL_NODES)`, { ...onNode, error: true })
        fail(sub, node.name)
        return
      }
      if (action === 'relabel_nodes') {
        await phase(action)
        if (deps.bootstrap === null) throw new Error('no bootstrap service is configured (BOOTSTRAP_URL) to set node labels')
        await deps.bootstrap.putNodeLabels(node.name, node.ownerData, ctx)
        say(sub, `Labels of node ${node.name} set: ${Object.keys(node.ownerData).join(', ') || 'none'}`, onNode)
        succeed(sub, node.name)
        return
      }
      const phases = phasesFor(action, deps.site.inventory.get(node.name))
      if (phases.length === 0) await phase(action)
      for (const [status, power] of phases) {
        await phase(action)
        deps.site.inventory.setState(node.name, { status_name: status, power_state: power })
      }
      // a deployed machine joins the cluster with the labels of its design (the join script's node labels): a node
      // whose labels were cleared before it was torn down comes back with them
      if (action === 'deploy_nodes' && phases.length > 0 && Object.keys(node.ownerData).length > 0) {
        deps.site.inventory.patchNode(node.name, { metadata: { labels: node.ownerData } }, 'merge')
      }
      say(sub, doneMessage(action, node.name, phases.length > 0, deps.site.inventory.get(node.name)), onNode)
      succeed(sub, node.name)
    } catch (error) {
      const reason = (error as { reason?: string }).reason ?? (error as Error).message
      say(sub, `${sub.action} failed on node ${node.name}: ${reason}`, { ...onNode, error: true })
      fail(sub, node.name)
    } finally {
      finish(sub)
    }
  }

  async function runNodes (task: TaskRecord, action: NodeAction, documents: unknown[], ctx: CallContext): Promise<void> {
    const targets = applyNodeFilter(task.nodeFilter, designNodes(documents))
    // Drydock enlists the machines of its design: a node the site does not know yet is added from its document
    deps.site.inventory.addMissing(targets.map((n) => seedFromBaremetalNode(n.document)).filter((s): s is SeedNode => s !== undefined))
    if (targets.length === 0) {
      say(task, 'No nodes selected by the node filter: nothing to do')
      succeed(task)
      return
    }
    const subtasks = targets.map((node) => {
      const sub = newTask({
        action: NODE_SUBTASK_ACTIONS[action],
        designRef: task.designRef,
        nodeFilter: { filter_set_type: 'union', filter_set: [{ filter_type: 'union', node_names: [node.name] }] },
        parentTaskId: task.taskId,
        createdBy: task.createdBy,
        now: now()
      })
      tasks.set(sub.taskId, sub)
      set(sub, 'queued')
      task.subtaskIds.push(sub.taskId)
      say(task, `Started subtask ${sub.taskId} for action ${sub.action}`)
      return { sub, node }
    })
    await Promise.all(subtasks.map(async ({ sub, node }) => { await runNode(action, sub, node, ctx) }))
    // as Drydock's align_result and bubble_results: each subtask's outcome folds into the parent's
    task.resultStatus = 'incomplete'
    for (const { sub } of subtasks) {
      if (sub.resultStatus === 'success' || sub.resultStatus === 'partial_success') succeed(task)
      if (sub.resultStatus === 'failure' || sub.resultStatus === 'partial_success') fail(task)
      for (const name of sub.successes) succeed(task, name)
      for (const name of sub.failures) fail(task, name)
    }
    const failed = task.failures.length
    say(task, failed === 0
      ? `${action} succeeded on ${task.successes.length} node(s)`
      : `${action} failed on ${failed} of ${subtasks.length} node(s): ${task.failures.join(', ')}`)
  }

  async function run (task: TaskRecord, ctx: CallContext): Promise<void> {
    await pause()
    set(task, 'running')
    try {
      const documents = await deps.fetchDesign(task.designRef, ctx)
      if (isNodeAction(task.action)) {
        await runNodes(task, task.action, documents, ctx)
      } else if (task.action === 'validate_design') {
        await phase(task.action)
        const messages = validateDesignDocuments(documents, now())
        for (const m of messages) say(task, m.message, { error: m.error, contextType: 'document', context: m.documents[0]?.name ?? 'NA' })
        if (designValidation(messages).code === 200) succeed(task)
        else fail(task)
      } else {
        // verify_site and prepare_site: the site answers when its design reads
        await phase(task.action)
        say(task, `Site design read: ${designNodes(documents).length} node(s)`)
        succeed(task)
      }
    } catch (error) {
      const reason = (error as { reason?: string }).reason ?? (error as Error).message
      say(task, `Unable to run ${task.action}: ${reason}`, { error: true, contextType: 'NA', context: 'NA' })
      fail(task)
    }
    finish(task)
  }

  /** `POST /tasks`: the task, already queued; its work goes on in the background. */
  function create (body: TaskCreate, ctx: CallContext & { createdBy?: string | null }): Task {
    if (typeof body.action !== 'string' || !ACTIONS.has(body.action)) throw new UnsupportedActionError(shown(body.action))
    if (typeof body.design_ref !== 'string' || body.design_ref === '') {
      throw new BadRequestError('Task creation requires fields design_ref, action', 'Task creation requires fields design_ref, action')
    }
    const task = newTask({
      action: body.action, designRef: body.design_ref, nodeFilter: body.node_filter, createdBy: ctx.createdBy ?? null, now: now()
    })
    tasks.set(task.taskId, task)
    set(task, 'queued')
    const call: CallContext = { contextMarker: ctx.contextMarker, user: ctx.user }
    run(task, call).catch((error: unknown) => {
      deps.log.warn({ taskId: task.taskId, err: (error as Error).message }, 'task stopped unexpectedly')
    })
    return toTask(task)
  }

  function find (taskId: string): TaskRecord {
    const task = tasks.get(taskId)
    if (task === undefined) throw new TaskNotFoundError(taskId)
    return task
  }

  /** `GET /tasks/{id}` with Drydock's options: the task, or with `layers` the task and its subtasks by id. */
  function get (taskId: string, query: TaskQuery): Record<string, unknown> {
    find(taskId)
    return layeredTask(taskId, query, (id) => tasks.get(id))
  }

  /** `GET /tasks`: every task, subtasks included, oldest first. */
  function list (): Task[] {
    return [...tasks.values()].map(toTask)
  }

  /** `POST /nodefilter`: the names of the design's nodes the filter selects. */
  async function nodesForFilter (nodeFilter: unknown, designRef: string, ctx: CallContext): Promise<string[]> {
    let documents: unknown[]
    try {
      documents = await deps.fetchDesign(designRef, ctx)
    } catch (error) {
      // Drydock then has no site design, and its filter over no design selects nothing
      deps.log.warn({ err: (error as { reason?: string }).reason ?? (error as Error).message }, 'nodefilter: design not read')
      return []
    }
    return applyNodeFilter(nodeFilter, designNodes(documents)).map((n) => n.name)
  }

  function close (): void {
    closed = true
    for (const timer of timers) clearTimeout(timer)
    timers.clear()
  }

  return { create, get, list, nodesForFilter, close }
}

export type DrydockTasks = ReturnType<typeof createDrydockTasks>
