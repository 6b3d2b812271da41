// The target nodes an action on nodes names (`target_nodes`): what makes a valid list, checked before anything is
// stored, and how the engine is sent it.
import type { ActionKind } from '../catalog.ts'

/** `target_nodes`: a non-empty list of names, or a comma-separated string (the CLI sends strings). */
export function targetNodesOf (value: unknown): string[] | undefined {
  return targetNodesProblem(value) === undefined ? listOf(value) as string[] : undefined
}

/**
 * What is wrong with `target_nodes`, naming the item; undefined when it names nodes. Each item is one node name: the
 * engine gets the list joined by commas and splits it again, so an item holding a comma (`"n1,n3"`) would act on
 * several nodes while the stored action shows one; whitespace or nothing is no node name either.
 */
export function targetNodesProblem (value: unknown): string | undefined {
  const list = listOf(value)
  if (!Array.isArray(list) || list.length === 0) return 'target_nodes must be a non-empty list of node names (or a comma-separated string)'
  for (const [index, item] of list.entries()) {
    if (typeof item !== 'string') return `target_nodes item ${index} (${JSON.stringify(item)}) is not a node name: a string is expected`
    if (item === '') return `target_nodes item ${index} is empty: each item names one node`
    if (item.includes(',')) return `target_nodes item ${index} (${JSON.stringify(item)}) holds a comma: each item names one node`
    if (/\s/.test(item)) return `target_nodes item ${index} (${JSON.stringify(item)}) holds whitespace: each item names one node`
  }
  return undefined
}

function listOf (value: unknown): unknown {
  return typeof value === 'string' ? value.split(',').map((s) => s.trim()) : value
}

/**
 * The parameters as the engine gets them: the stored action keeps them as the caller sent them; `target_nodes` goes
 * to the engine as the comma-separated string the real workflows' operators split (Airship Shipyard's
 * ucp_base_operator.py calls .split(',') on it), so a list would fail every targeted run.
 */
export function engineParametersOf (kind: ActionKind, parameters: Record<string, unknown>): Record<string, unknown> {
  const nodes = kind.validators.includes('target-nodes') ? targetNodesOf(parameters.target_nodes) : undefined
  return nodes === undefined ? { ...parameters } : { ...parameters, target_nodes: nodes.join(',') }
}
