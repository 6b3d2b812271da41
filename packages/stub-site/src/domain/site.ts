// Keeps the inventory in step with the committed design when the site follows a store: new nodes are added,
// known ones keep their state, and a store that does not answer leaves the known nodes served as they are.
import type { Inventory } from './inventory.ts'
import { BAREMETAL_NODE_SCHEMA, seedFromBaremetalNode } from './design.ts'
import { createNodeList, type NodeListOptions, type NodePage } from './node-list.ts'
import type { SeedNode } from '../schemas/nodes.ts'

/** Where the committed design comes from (the store client). */
export interface DesignSource {
  /** Documents of `schema` in the newest committed revision; undefined when nothing is committed. */
  committedDocuments: (schema: string) => Promise<unknown[] | undefined>
}

export interface SiteLog {
  warn: (fields: Record<string, unknown>, message: string) => void
  info: (fields: Record<string, unknown>, message: string) => void
}

export function createSite (deps: { inventory: Inventory, design?: DesignSource | undefined, log: SiteLog }) {
  const { inventory, design, log } = deps
  const nodeList = createNodeList({ inventory })
  let inFlight: Promise<void> | undefined

  async function pull (source: DesignSource): Promise<void> {
    try {
      const documents = await source.committedDocuments(BAREMETAL_NODE_SCHEMA)
      if (documents === undefined) return
      const seeds = documents.map(seedFromBaremetalNode).filter((s): s is SeedNode => s !== undefined)
      const added = inventory.addMissing(seeds)
      if (added.length > 0) log.info({ added: added.map((n) => n.hostname) }, 'nodes added from the committed design')
    } catch (error) {
      log.warn({ err: (error as Error).message }, 'could not read the committed design; serving the known nodes')
    }
  }

  /** Reads the committed design once (concurrent callers share one read); never throws. */
  async function refresh (): Promise<void> {
    if (design === undefined) return
    inFlight ??= pull(design).finally(() => { inFlight = undefined })
    await inFlight
  }

  /** Refreshes only when `hostname` is not known yet: a node named before the first list still resolves. */
  async function refreshFor (hostname: string): Promise<void> {
    if (inventory.find(hostname) === undefined) await refresh()
  }

  /** A Kubernetes node list page; bad options are refused before the design is read. */
  async function listNodes (options: NodeListOptions): Promise<NodePage> {
    const query = nodeList.parse(options)
    await refresh()
    return nodeList.page(query)
  }

  return { inventory, refresh, refreshFor, listNodes, followsStore: design !== undefined }
}

export type Site = ReturnType<typeof createSite>
