// Lists nodes the way the Kubernetes API server does (selectors, pages chained by a continue token: list-pages.ts).
import type { SiteNode } from '../schemas/nodes.ts'
import type { Inventory } from './inventory.ts'
import { createListPages, type ListOptions, type ListPage, type ListQuery } from './list-pages.ts'

export type NodeListOptions = ListOptions

export type NodePage = Omit<ListPage<SiteNode>, 'items'> & { nodes: SiteNode[] }

// the fields Kubernetes lets a node list be selected on (pkg/apis/core/v1 AddFieldLabelConversionsForNode)
const NODE_FIELDS = {
  'metadata.name': (node: SiteNode) => node.hostname,
  'spec.unschedulable': (node: SiteNode) => String(node.unschedulable === true)
} satisfies Record<string, (node: SiteNode) => string>

export function createNodeList (deps: { inventory: Inventory, keptSnapshots?: number }) {
  const { inventory } = deps
  const list = createListPages<SiteNode>({
    keyOf: (node) => node.hostname,
    labelsOf: (node) => node.labels,
    fields: NODE_FIELDS,
    keptSnapshots: deps.keptSnapshots
  })

  /** One page of the nodes the query (from parse) selects; a continue token whose snapshot is gone is ContinueExpiredError. */
  function page (query: ListQuery): NodePage {
    const resourceVersion = inventory.resourceVersion()
    // a node Kubernetes deleted is Drydock's still, but no longer listed here
    const { items: nodes, ...rest } = list.page(query, inventory.list().filter((node) => node.kube_removed !== true), resourceVersion)
    return { nodes, ...rest }
  }

  return { parse: list.parse, page }
}

export type NodeList = ReturnType<typeof createNodeList>
