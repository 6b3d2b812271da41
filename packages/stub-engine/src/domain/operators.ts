// What each kind of site-workflow task does when it runs: log lines, and the side effects the real operator
// would have on the site (node states, node labels, design validation, revision tags) when a target is configured.
import type { CallContext } from '@slipway/common'
import type { StubConf } from '../schemas/stub.ts'
import type { TaskInstanceState } from '@slipway/airflow-contract'
import type { TaskAddress } from './injection.ts'
import type { TaskKind } from './workflows.ts'

export interface SiteNode { hostname: string, status_name?: string, power_state?: string }
export interface NodeState { status_name?: string, power_state?: string }

/** The outbound targets; null = not configured, and the task logs that it skipped the call. */
export interface SideEffects {
  site: null | {
    listNodes: (ctx: CallContext) => Promise<SiteNode[]>
    /** False when the site does not know the node. */
    setNodeState: (hostname: string, state: NodeState, ctx: CallContext) => Promise<boolean>
  }
  bootstrap: null | {
    health: (ctx: CallContext) => Promise<void>
    validateDesign: (href: string, ctx: CallContext) => Promise<{ valid: boolean, messages: string[] }>
    putNodeLabels: (node: string, labels: Record<string, string>, ctx: CallContext) => Promise<void>
  }
  store: null | {
    health: (ctx: CallContext) => Promise<void>
    validations: (revision: number, ctx: CallContext) => Promise<Array<{ name: string, status: string }>>
    renderedDocuments: (revision: number, ctx: CallContext) => Promise<unknown[]>
    tagRevision: (revision: number, tag: string, ctx: CallContext) => Promise<void>
  }
}

export type LogLevel = 'info' | 'warning' | 'error'

export interface OperatorContext {
  address: TaskAddress
  conf: Record<string, unknown>
  stub: StubConf | undefined
  effects: SideEffects
  log: (event: string, level?: LogLevel, extra?: Record<string, unknown>) => void
  /** One simulated step of the task's work; rejects when the try is stopped. */
  pause: () => Promise<void>
  /** Other running site-action runs that forbid this one (the concurrency check). */
  concurrencyConflicts: () => string[]
  /** Current state of another task of the same run, by its engine task id. */
  taskState: (taskId: string) => TaskInstanceState | null | undefined
}

/**
 * The tag `create_action_tag` writes (spec/orchestrator.md §8.3): failure when the armada build's last task or the
 * Airflow upgrade branch ended failed or upstream_failed, else success.
 */
export function siteActionTag (taskState: (taskId: string) => TaskInstanceState | null | undefined): 'site-action-success' | 'site-action-failure' {
  const watched = ['armada_build.armada_get_releases', 'upgrade_airflow', 'skip_upgrade_airflow']
  const failed = watched.some((t) => ['failed', 'upstream_failed'].includes(taskState(t) ?? ''))
  return failed ? 'site-action-failure' : 'site-action-success'
}

/** A task that ends in failure; the message is the log's error line. */
export class TaskFailure extends Error { override name = 'TaskFailure' }

export interface OperatorResult { follow?: string[] }

interface ActionConf {
  id?: string
  user?: string
  context_marker?: string
  committed_rev_id?: number
  parameters?: Record<string, unknown>
}

function actionOf (conf: Record<string, unknown>): ActionConf {
  const action = conf.action
  return typeof action === 'object' && action !== null ? action as ActionConf : {}
}

function callContext (conf: Record<string, unknown>): CallContext {
  const action = actionOf(conf)
  return { contextMarker: typeof action.context_marker === 'string' ? action.context_marker : undefined, user: typeof action.user === 'string' ? action.user : undefined }
}

/** The revision number in `deckhand+http://…/revisions/<N>/rendered-documents`. */
export function designRevision (conf: Record<string, unknown>): number | null {
  const ref = conf.design_ref
  if (typeof ref !== 'string') return null
  const match = /\/revisions\/(\d+)\//.exec(ref)
  return match === null ? null : Number(match[1])
}

/** The workflows that act on the nodes named by the action (spec/orchestrator.md §3.1: targeted actions). */
const TARGETED_DAGS: ReadonlySet<string> = new Set(['redeploy_server', 'relabel_nodes'])

/**
 * The nodes a task acts on. A targeted workflow reads `conf.action.parameters.target_nodes` as the real operators
 * do: a comma-separated string they split. Anything else (a list, nothing) fails the task, as `.split(',')` fails
 * there. Other workflows act on every node of the site.
 */
async function targetNodes (ctx: OperatorContext): Promise<string[]> {
  if (TARGETED_DAGS.has(ctx.address.dagId)) {
    const wanted = actionOf(ctx.conf).parameters?.target_nodes
    if (typeof wanted !== 'string') {
      const got = wanted === undefined ? 'nothing' : Array.isArray(wanted) ? 'a list' : `a ${typeof wanted}`
      throw new TaskFailure(`target_nodes must be a comma-separated string of node names, got ${got}: 'split' cannot be applied`)
    }
    const nodes = wanted.split(',').map((n) => n.trim()).filter((n) => n !== '')
    if (nodes.length === 0) throw new TaskFailure('target_nodes names no node')
    return nodes
  }
  if (ctx.effects.site === null) return []
  return (await ctx.effects.site.listNodes(callContext(ctx.conf))).map((n) => n.hostname)
}

const skipped = (ctx: OperatorContext, target: string, what: string): void => {
  ctx.log(`No ${target} configured (${target.toUpperCase()}_URL empty or none): skipped ${what}`, 'warning')
}

/** Labels for relabel_nodes: the node's `owner_data` in the design (drydock/BaremetalNode/v1), else a fixed set. */
export const FIXED_NODE_LABELS: Readonly<Record<string, string>> = { 'slipway.io/relabeled': 'true' }

function designLabels (documents: unknown[], node: string): Record<string, string> | null {
  for (const doc of documents) {
    const d = doc as { schema?: unknown, metadata?: { name?: unknown }, data?: { metadata?: { owner_data?: unknown } } }
    if (typeof d?.schema !== 'string' || !d.schema.startsWith('drydock/BaremetalNode/') || d.metadata?.name !== node) continue
    const owner = d.data?.metadata?.owner_data
    if (typeof owner !== 'object' || owner === null) return null
    return Object.fromEntries(Object.entries(owner).filter(([, v]) => typeof v === 'string')) as Record<string, string>
  }
  return null
}

const OPERATORS: Record<TaskKind, (ctx: OperatorContext) => Promise<OperatorResult | undefined>> = {
  async log (ctx) {
    ctx.log(`${ctx.address.taskId}: simulated work (no component of this stack performs it)`)
    await ctx.pause()
    return undefined
  },

  async concurrency_check (ctx) {
    const conflicts = ctx.concurrencyConflicts()
    if (conflicts.length > 0) throw new TaskFailure(`Concurrency check failed: conflicting runs ${conflicts.join(', ')}`)
    ctx.log('Concurrency check passed: no conflicting site action is running')
    return undefined
  },

  async branch_upgrade (ctx) {
    const follow = ctx.stub?.upgrade_airflow === true ? 'upgrade_airflow' : 'skip_upgrade_airflow'
    ctx.log(`Following branch ${follow}`)
    return { follow: [follow] }
  },

  async preflight (ctx) {
    const call = callContext(ctx.conf)
    if (ctx.effects.store === null) skipped(ctx, 'store', 'the store health check')
    else { await ctx.effects.store.health(call); ctx.log('store is healthy') }
    if (ctx.effects.bootstrap === null) skipped(ctx, 'bootstrap', 'the bootstrap health check')
    else { await ctx.effects.bootstrap.health(call); ctx.log('bootstrap is healthy') }
    return undefined
  },

  async rendered_doc (ctx) {
    const revision = designRevision(ctx.conf)
    if (revision === null) { ctx.log('No design_ref in conf: nothing to retrieve', 'warning'); return undefined }
    if (ctx.effects.store === null) { skipped(ctx, 'store', `retrieving revision ${revision}`); return undefined }
    const documents = await ctx.effects.store.renderedDocuments(revision, callContext(ctx.conf))
    ctx.log(`Retrieved ${documents.length} rendered documents of revision ${revision}`)
    return undefined
  },

  async deckhand_validate (ctx) {
    const revision = designRevision(ctx.conf)
    if (revision === null) { ctx.log('No design_ref in conf: nothing to validate', 'warning'); return undefined }
    if (ctx.effects.store === null) { skipped(ctx, 'store', `the validations of revision ${revision}`); return undefined }
    const results = await ctx.effects.store.validations(revision, callContext(ctx.conf))
    const failed = results.filter((r) => r.status.toLowerCase() === 'failure')
    if (failed.length > 0) throw new TaskFailure(`Site design validation failed in the store: ${failed.map((r) => r.name).join(', ')}`)
    ctx.log(`Revision ${revision}: ${results.length} validation(s), none failed`)
    return undefined
  },

  async promenade_validate (ctx) {
    const href = ctx.conf.design_ref
    if (typeof href !== 'string') { ctx.log('No design_ref in conf: nothing to validate', 'warning'); return undefined }
    if (ctx.effects.bootstrap === null) { skipped(ctx, 'bootstrap', 'validatedesign'); return undefined }
    const result = await ctx.effects.bootstrap.validateDesign(href, callContext(ctx.conf))
    if (!result.valid) throw new TaskFailure(`Bootstrap design validation failed: ${result.messages.join('; ') || 'no message'}`)
    ctx.log('Bootstrap design validation succeeded')
    return undefined
  },

  async verify_site (ctx) {
    if (ctx.effects.site === null) { skipped(ctx, 'site', 'the site check'); return undefined }
    const nodes = await ctx.effects.site.listNodes(callContext(ctx.conf))
    ctx.log(`Site answers with ${nodes.length} node(s)`)
    await ctx.pause()
    return undefined
  },

  async verify_nodes_exist (ctx) {
    if (ctx.effects.site === null) { skipped(ctx, 'site', 'the node check'); return undefined }
    const known = new Set((await ctx.effects.site.listNodes(callContext(ctx.conf))).map((n) => n.hostname))
    const missing = (await targetNodes(ctx)).filter((n) => !known.has(n))
    if (missing.length > 0) throw new TaskFailure(`Nodes not known to the site: ${missing.join(', ')}`)
    ctx.log('Every target node exists')
    return undefined
  },

  async deploy_nodes (ctx) {
    if (ctx.effects.site === null) { skipped(ctx, 'site', 'node provisioning'); await ctx.pause(); return undefined }
    const site = ctx.effects.site
    const nodes = await targetNodes(ctx)
    ctx.log(`Provisioning ${nodes.length} node(s): ${nodes.join(', ')}`)
    for (const [status, power] of [['Allocated', 'on'], ['Deploying', 'on'], ['Deployed', 'on']] as const) {
      for (const node of nodes) {
        if (!await site.setNodeState(node, { status_name: status, power_state: power }, callContext(ctx.conf))) {
          throw new TaskFailure(`Node ${node} is not known to the site`)
        }
      }
      ctx.log(`Nodes now ${status} (power ${power})`)
      await ctx.pause()
    }
    return undefined
  },

  async destroy_nodes (ctx) {
    if (ctx.effects.site === null) { skipped(ctx, 'site', 'node teardown'); return undefined }
    const nodes = await targetNodes(ctx)
    for (const node of nodes) {
      if (!await ctx.effects.site.setNodeState(node, { status_name: 'Ready', power_state: 'off' }, callContext(ctx.conf))) {
        throw new TaskFailure(`Node ${node} is not known to the site`)
      }
    }
    ctx.log(`Released and powered off ${nodes.length} node(s): ${nodes.join(', ')}`)
    await ctx.pause()
    return undefined
  },

  async relabel_nodes (ctx) {
    if (ctx.effects.bootstrap === null) { skipped(ctx, 'bootstrap', 'node relabelling'); return undefined }
    const nodes = await targetNodes(ctx)
    const revision = designRevision(ctx.conf)
    let documents: unknown[] = []
    if (revision !== null && ctx.effects.store !== null) {
      documents = await ctx.effects.store.renderedDocuments(revision, callContext(ctx.conf))
    }
    for (const node of nodes) {
      const labels = designLabels(documents, node) ?? { ...FIXED_NODE_LABELS }
      await ctx.effects.bootstrap.putNodeLabels(node, labels, callContext(ctx.conf))
      ctx.log(`Labels of ${node} set: ${Object.keys(labels).join(', ')}`)
    }
    return undefined
  },

  async create_action_tag (ctx) {
    const tag = siteActionTag(ctx.taskState)
    const committed = actionOf(ctx.conf).committed_rev_id
    const revision = typeof committed === 'number' ? committed : designRevision(ctx.conf)
    if (revision === null) { ctx.log(`No revision in conf: tag ${tag} not written`, 'warning'); return undefined }
    if (ctx.effects.store === null) { skipped(ctx, 'store', `tagging revision ${revision} ${tag}`); return undefined }
    await ctx.effects.store.tagRevision(revision, tag, callContext(ctx.conf))
    ctx.log(`Revision ${revision} tagged ${tag}`)
    return undefined
  },

  async deployment_status (ctx) {
    const final = ctx.address.taskId === 'final_deployment_status'
    ctx.log(`No Kubernetes API for ConfigMaps in this stack: skipped writing deployment-status (status ${final ? 'completed' : 'running'})`, 'warning')
    return undefined
  }
}

export async function runOperator (kind: TaskKind, ctx: OperatorContext): Promise<OperatorResult | undefined> {
  return await OPERATORS[kind](ctx)
}
