// What a step reads from its run's conf: the action (upstream Shipyard's keys), its revision, its design reference
// and its target nodes, read as tolerantly as upstream's operators read them.
import type { CallContext } from '@slipway/common'
import { StepFailure, type StepCall } from '../types.ts'

export interface ActionConf {
  id?: string
  name?: string
  dag_id?: string
  user?: string
  context_marker?: string
  committed_rev_id?: number | null
  timestamp?: string
  parameters?: Record<string, unknown>
}

export function actionOf (call: StepCall): ActionConf {
  const action = call.conf.action
  return typeof action === 'object' && action !== null ? action as ActionConf : {}
}

/** The context every peer call forwards: the action's context marker and user. */
export function callContext (call: StepCall): CallContext {
  const action = actionOf(call)
  return {
    contextMarker: typeof action.context_marker === 'string' ? action.context_marker : undefined,
    user: typeof action.user === 'string' ? action.user : undefined
  }
}

/** The revision the action runs on: its committed_rev_id, else the one its design_ref names. */
export function revisionOf (call: StepCall): number {
  const committed = actionOf(call).committed_rev_id
  if (typeof committed === 'number' && Number.isInteger(committed) && committed > 0) return committed
  const ref = call.conf.design_ref
  const match = typeof ref === 'string' ? /\/revisions\/(\d+)\//.exec(ref) : null
  if (match !== null) return Number(match[1])
  throw new StepFailure('The action names no committed revision (conf.action.committed_rev_id) and no design_ref: nothing to work on')
}

/**
 * The design reference the peers are given: Deckhand's rendered documents of the action's revision, at the Deckhand
 * the steps use (as upstream's operators build it), else the run's own design_ref.
 */
export function designRefOf (call: StepCall, deckhandUrl: string | null): string {
  if (deckhandUrl !== null) return `deckhand+${deckhandUrl.replace(/\/+$/, '')}/revisions/${revisionOf(call)}/rendered-documents`
  const ref = call.conf.design_ref
  if (typeof ref === 'string' && ref !== '') return ref
  throw new StepFailure('No Deckhand is configured and the run has no design_ref: the peers cannot be told which design to use')
}

/** The workflows that act only on the nodes the action names. */
export const TARGETED_DAGS: ReadonlySet<string> = new Set(['redeploy_server', 'relabel_nodes'])

/**
 * The nodes a targeted workflow names: `parameters.target_nodes`, a comma-separated string (the orchestrator sends
 * the seed's list that way, as upstream's operators read it); a list is taken too. Names nothing: the step fails.
 */
export function targetNodes (call: StepCall): string[] {
  const wanted = actionOf(call).parameters?.target_nodes
  const items = typeof wanted === 'string'
    ? wanted.split(',')
    : Array.isArray(wanted) ? wanted.filter((n): n is string => typeof n === 'string') : []
  const nodes = [...new Set(items.map((n) => n.trim()).filter((n) => n !== ''))]
  if (nodes.length === 0) {
    const got = wanted === undefined ? 'nothing' : JSON.stringify(wanted)
    throw new StepFailure(`${call.dagId} acts on the nodes named in parameters.target_nodes, which names none (got ${got})`)
  }
  return nodes
}
