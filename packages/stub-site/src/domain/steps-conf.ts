// What a step reads from the run's conf (the action, the design reference, the target nodes) and the rules it
// decides by, read as tolerantly as the real operators read them: a missing field is a missing value, not an error.
import type { CallContext } from '@slipway/common'

/** A step that ends in failure; its message is the step's error line. */
export class StepFailure extends Error { override name = 'StepFailure' }

interface ActionConf {
  id?: string
  user?: string
  context_marker?: string
  committed_rev_id?: number
  parameters?: Record<string, unknown>
}

export function actionOf (conf: Record<string, unknown>): ActionConf {
  const action = conf.action
  return typeof action === 'object' && action !== null ? action as ActionConf : {}
}

/** The context forwarded to the store and the bootstrap service: the caller's headers, else the action's own. */
export function callContext (conf: Record<string, unknown>, headers: CallContext = {}): CallContext {
  const action = actionOf(conf)
  return {
    contextMarker: headers.contextMarker ?? (typeof action.context_marker === 'string' ? action.context_marker : undefined),
    user: headers.user ?? (typeof action.user === 'string' ? action.user : undefined)
  }
}

/** The revision number in `deckhand+http://…/revisions/<N>/rendered-documents`, or null. */
export function designRevision (conf: Record<string, unknown>): number | null {
  const ref = conf.design_ref
  if (typeof ref !== 'string') return null
  const match = /\/revisions\/(\d+)\//.exec(ref)
  return match === null ? null : Number(match[1])
}

/** The workflows that act only on the nodes the action names; the others act on every node of the site. */
export const TARGETED_DAGS: ReadonlySet<string> = new Set(['redeploy_server', 'relabel_nodes'])

/**
 * The nodes a targeted workflow names. `conf.action.parameters.target_nodes` is read as the real operators read it:
 * a comma-separated string they split. Anything else (a list, nothing) fails the step, as splitting fails there;
 * so does a string naming no node.
 */
export function namedTargets (conf: Record<string, unknown>): string[] {
  const wanted = actionOf(conf).parameters?.target_nodes
  if (typeof wanted !== 'string') {
    const got = wanted === undefined ? 'nothing' : Array.isArray(wanted) ? 'a list' : `a ${typeof wanted}`
    throw new StepFailure(`target_nodes must be a comma-separated string of node names, got ${got}: 'split' cannot be applied`)
  }
  const nodes = wanted.split(',').map((n) => n.trim()).filter((n) => n !== '')
  if (nodes.length === 0) throw new StepFailure('target_nodes names no node')
  return nodes
}

/** The tasks whose end decides the action's tag: the armada build's last task and either side of the upgrade branch. */
export const TAG_WATCHED_TASKS = ['armada_build.armada_get_releases', 'upgrade_airflow', 'skip_upgrade_airflow'] as const

/**
 * The tag create_action_tag writes: failure when one of the watched tasks ended failed or upstream_failed, else
 * success (a watched task that did not run, or is not in this workflow, counts for success).
 */
export function siteActionTag (taskStates: Readonly<Record<string, string | null>>): 'site-action-success' | 'site-action-failure' {
  const failed = TAG_WATCHED_TASKS.some((t) => ['failed', 'upstream_failed'].includes(taskStates[t] ?? ''))
  return failed ? 'site-action-failure' : 'site-action-success'
}

/** Labels relabel_nodes gives a node whose design document has no owner_data. */
export const FIXED_NODE_LABELS: Readonly<Record<string, string>> = { 'slipway.io/relabeled': 'true' }

/** Labels for relabel_nodes: the node's `data.metadata.owner_data` in its drydock/BaremetalNode document, or null. */
export function designLabels (documents: unknown[], node: string): Record<string, string> | null {
  for (const doc of documents) {
    const d = doc as { schema?: unknown, metadata?: { name?: unknown }, data?: { metadata?: { owner_data?: unknown } } } | null
    if (typeof d?.schema !== 'string' || !d.schema.startsWith('drydock/BaremetalNode/') || d.metadata?.name !== node) continue
    const owner = d.data?.metadata?.owner_data
    if (typeof owner !== 'object' || owner === null) return null
    return Object.fromEntries(Object.entries(owner).filter(([, v]) => typeof v === 'string')) as Record<string, string>
  }
  return null
}
