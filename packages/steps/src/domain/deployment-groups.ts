// A deployment strategy (shipyard/DeploymentStrategy/v1) as prepare_and_deploy_nodes runs it, deciding as upstream
// Shipyard's node operator decides: groups in dependency order, each node acted on by the first group that selects
// it, a group's success criteria counted over all the nodes it selects (deployed nodes count as prepared), a failed
// group failing every group that depends on it, and the step failing when a critical group failed.
import { StepFailure } from '../types.ts'
import type { NodeFilter } from '../clients/drydock.ts'

export type Stage = 'NOT_STARTED' | 'PREPARED' | 'DEPLOYED' | 'FAILED'

export interface Selector { node_names: string[], node_labels: string[], node_tags: string[], rack_names: string[] }

export interface SuccessCriteria {
  percent_successful_nodes?: number
  minimum_successful_nodes?: number
  maximum_failed_nodes?: number
}

export interface GroupSpec {
  name: string
  critical: boolean
  depends_on: string[]
  selectors: Selector[]
  success_criteria?: SuccessCriteria
}

/** All nodes at once, every one of them to succeed: upstream's strategy when the configuration names none. */
export const DEFAULT_STRATEGY: GroupSpec[] = [{
  name: 'default',
  critical: true,
  depends_on: [],
  selectors: [{ node_names: [], node_labels: [], node_tags: [], rack_names: [] }],
  success_criteria: { percent_successful_nodes: 100 }
}]

const strings = (value: unknown, what: string): string[] => {
  if (value === undefined || value === null) return []
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) {
    throw new StepFailure(`${what} must be a list of strings, got ${JSON.stringify(value)}`)
  }
  return value
}

/** The strategy document's groups, checked: required fields, labels as key:value, known dependencies, no cycle. */
export function readStrategy (data: unknown): GroupSpec[] {
  const groups = (data as { groups?: unknown } | null)?.groups
  if (!Array.isArray(groups) || groups.length === 0) throw new StepFailure('The deployment strategy has no groups')
  const specs = groups.map((g: Record<string, unknown> | null, i) => {
    for (const field of ['name', 'critical', 'depends_on', 'selectors']) {
      if (g === null || typeof g !== 'object' || !(field in g)) throw new StepFailure(`Deployment group ${i + 1}: '${field}' is required`)
    }
    const name = String(g!.name)
    const selectors = (Array.isArray(g!.selectors) ? g!.selectors : []).map((s: Record<string, unknown> | null) => {
      const selector = {
        node_names: strings(s?.node_names, `Group ${name} node_names`),
        node_labels: strings(s?.node_labels, `Group ${name} node_labels`),
        node_tags: strings(s?.node_tags, `Group ${name} node_tags`),
        rack_names: strings(s?.rack_names, `Group ${name} rack_names`)
      }
      for (const label of selector.node_labels) {
        const parts = label.split(':')
        if (parts.length !== 2 || parts.some((p) => p.trim() === '')) {
          throw new StepFailure(`Group ${name}: label ${label} is not in key:value form`)
        }
      }
      return selector
    })
    const spec: GroupSpec = {
      name, critical: g!.critical === true, depends_on: strings(g!.depends_on, `Group ${name} depends_on`), selectors
    }
    const criteria = g!.success_criteria
    if (typeof criteria === 'object' && criteria !== null) spec.success_criteria = criteria as SuccessCriteria
    return spec
  })
  groupOrder(specs)
  return specs
}

/** The groups' names in an order where each comes after those it depends on; an unknown group or a cycle fails. */
export function groupOrder (groups: GroupSpec[]): string[] {
  const names = new Set(groups.map((g) => g.name))
  for (const g of groups) {
    const unknown = g.depends_on.filter((d) => !names.has(d))
    if (unknown.length > 0) throw new StepFailure(`Deployment group ${g.name} depends on unknown group(s): ${unknown.join(', ')}`)
  }
  const order: string[] = []
  const state = new Map<string, 'visiting' | 'done'>()
  const byName = new Map(groups.map((g) => [g.name, g]))
  const visit = (name: string, path: string[]): void => {
    if (state.get(name) === 'done') return
    if (state.get(name) === 'visiting') {
      const cycle = path.slice(path.indexOf(name))
      throw new StepFailure(`The deployment groups ${cycle.join(', ')} depend on each other in a cycle`)
    }
    state.set(name, 'visiting')
    for (const parent of byName.get(name)!.depends_on) visit(parent, [...path, name])
    state.set(name, 'done')
    order.push(name)
  }
  for (const g of groups) visit(g.name, [])
  return order
}

/** Drydock's node filter for a group's selectors; null (every node) when a selector selects all. */
export function selectorFilter (selectors: Selector[]): NodeFilter | null {
  const sets = selectors
    .filter((s) => s.node_names.length + s.node_labels.length + s.node_tags.length + s.rack_names.length > 0)
    .map((s) => ({
      filter_type: 'intersection' as const,
      node_names: s.node_names,
      node_tags: s.node_tags,
      node_labels: Object.fromEntries(s.node_labels.map((l) => l.split(':').map((p) => p.trim()) as [string, string])),
      rack_names: s.rack_names
    }))
  return sets.length === 0 ? null : { filter_set_type: 'union', filter_set: sets }
}

/** Drydock's node filter naming nodes. */
export const namesFilter = (names: string[]): NodeFilter => ({
  filter_set_type: 'union', filter_set: [{ filter_type: 'union', node_names: names }]
})

/** The criteria a group missed with these successes, each as `name: actual vs needed`; empty when it met them all. */
export function missedCriteria (criteria: SuccessCriteria | undefined, groupNodes: string[], successes: ReadonlySet<string>): string[] {
  if (criteria === undefined || groupNodes.length === 0) return []
  const all = new Set(groupNodes)
  const succeeded = [...all].filter((n) => successes.has(n)).length
  const failed = all.size - succeeded
  const percent = succeeded / all.size * 100
  const missed: string[] = []
  if (criteria.percent_successful_nodes !== undefined && !(percent >= criteria.percent_successful_nodes)) {
    missed.push(`percent_successful_nodes: ${Math.round(percent * 10) / 10} < ${criteria.percent_successful_nodes}`)
  }
  if (criteria.minimum_successful_nodes !== undefined && !(succeeded >= criteria.minimum_successful_nodes)) {
    missed.push(`minimum_successful_nodes: ${succeeded} < ${criteria.minimum_successful_nodes}`)
  }
  if (criteria.maximum_failed_nodes !== undefined && !(failed <= criteria.maximum_failed_nodes)) {
    missed.push(`maximum_failed_nodes: ${failed} > ${criteria.maximum_failed_nodes}`)
  }
  return missed
}
