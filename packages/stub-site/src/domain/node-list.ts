// Lists nodes the way the Kubernetes API server does: label and field selectors, and pages of `limit` items
// chained by an opaque continue token that reads the same snapshot as the first page (a consistent list).
import { BadListOptionsError, ContinueExpiredError } from '../errors.ts'
import type { SiteNode } from '../schemas/nodes.ts'
import type { Inventory } from './inventory.ts'
import { parseFieldSelector, parseSelector, type FieldTest, type LabelTest } from './selector.ts'

export interface NodeListOptions {
  labelSelector?: string | undefined
  fieldSelector?: string | undefined
  /** At most this many nodes; 0 or absent: all of them. */
  limit?: number | undefined
  /** The token of the previous page. */
  continue?: string | undefined
}

export interface NodePage {
  nodes: SiteNode[]
  /** The version the page was read at: the first page's, for every page of one list. */
  resourceVersion: number
  /** Set when more nodes match. */
  continue?: string
  /** How many more match; only without selectors, as Kubernetes gives it. */
  remainingItemCount?: number
}

// the fields Kubernetes lets a node list be selected on (pkg/apis/core/v1 AddFieldLabelConversionsForNode)
const NODE_FIELDS = {
  'metadata.name': (node: SiteNode) => node.hostname,
  'spec.unschedulable': (node: SiteNode) => String(node.unschedulable === true)
} satisfies Record<string, (node: SiteNode) => string>

function fieldsOf (node: SiteNode): Record<string, string> {
  return Object.fromEntries(Object.entries(NODE_FIELDS).map(([field, read]) => [field, read(node)]))
}

interface Query {
  labels: LabelTest
  fields: FieldTest
  selective: boolean
  limit: number
  from?: { resourceVersion: number, after: string }
}

interface ContinueToken { v: 1, rv: number, start: string }

function encodeContinue (resourceVersion: number, after: string): string {
  const token: ContinueToken = { v: 1, rv: resourceVersion, start: after }
  return Buffer.from(JSON.stringify(token)).toString('base64url')
}

function decodeContinue (text: string): { resourceVersion: number, after: string } {
  let token: Partial<ContinueToken> | undefined
  try {
    token = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as Partial<ContinueToken>
  } catch {
    token = undefined
  }
  if (token?.v !== 1 || !Number.isSafeInteger(token.rv) || typeof token.start !== 'string' || token.start === '') {
    throw new BadListOptionsError('invalid continue token: continue key is not valid')
  }
  return { resourceVersion: token.rv ?? 0, after: token.start }
}

// Kubernetes lists in etcd key order: plain code-unit order, never locale order
const byName = (a: SiteNode, b: SiteNode): number => a.hostname < b.hostname ? -1 : a.hostname > b.hostname ? 1 : 0

export function createNodeList (deps: { inventory: Inventory, keptSnapshots?: number }) {
  const { inventory } = deps
  const keptSnapshots = deps.keptSnapshots ?? 32
  // the nodes as they were at each version a paged list started at; nodes are never mutated, so this is cheap
  const snapshots = new Map<number, SiteNode[]>()

  function remember (resourceVersion: number, nodes: SiteNode[]): void {
    snapshots.delete(resourceVersion)
    snapshots.set(resourceVersion, nodes)
    for (const oldest of snapshots.keys()) {
      if (snapshots.size <= keptSnapshots) break
      snapshots.delete(oldest)
    }
  }

  /** Checks the options without reading the nodes; throws BadListOptionsError for what Kubernetes refuses. */
  function parse (options: NodeListOptions): Query {
    const labelSelector = options.labelSelector ?? ''
    const fieldSelector = options.fieldSelector ?? ''
    const query: Query = {
      labels: parseSelector(labelSelector),
      fields: parseFieldSelector(fieldSelector, Object.keys(NODE_FIELDS)),
      selective: labelSelector.trim() !== '' || fieldSelector !== '',
      limit: options.limit ?? 0
    }
    if (options.continue !== undefined && options.continue !== '') query.from = decodeContinue(options.continue)
    return query
  }

  /** One page of the nodes the query selects; a continue token whose snapshot is gone is ContinueExpiredError. */
  function page (query: Query): NodePage {
    let resourceVersion = inventory.resourceVersion()
    // a node Kubernetes deleted is Drydock's still, but no longer listed here
    let all = inventory.list().filter((node) => node.kube_removed !== true).sort(byName)
    if (query.from !== undefined && query.from.resourceVersion !== resourceVersion) {
      const snapshot = snapshots.get(query.from.resourceVersion)
      if (snapshot === undefined) throw new ContinueExpiredError()
      resourceVersion = query.from.resourceVersion
      all = snapshot
    }
    const after = query.from?.after
    const matching = all.filter((node) => (after === undefined || node.hostname > after) &&
      query.labels(node.labels) && query.fields(fieldsOf(node)))
    if (query.limit === 0 || matching.length <= query.limit) return { nodes: matching, resourceVersion }
    const nodes = matching.slice(0, query.limit)
    remember(resourceVersion, all)
    const last = nodes[nodes.length - 1]?.hostname ?? ''
    const result: NodePage = { nodes, resourceVersion, continue: encodeContinue(resourceVersion, last) }
    if (!query.selective) result.remainingItemCount = matching.length - nodes.length
    return result
  }

  return { parse, page }
}

export type NodeList = ReturnType<typeof createNodeList>
