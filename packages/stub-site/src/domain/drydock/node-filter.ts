// The design's baremetal nodes and Drydock's node filter over them (the orchestrator's process_node_filter):
// `{filter_set_type, filter_set: [{filter_type, node_names, node_tags, node_labels, rack_names, rack_labels}]}`.
import { NodeFilterError } from '../../errors.ts'
import { BAREMETAL_NODE_SCHEMA } from '../design.ts'

/** A node as the filter sees it: its name, tags, rack and owner_data (the labels it is matched on). */
export interface DesignNode {
  name: string
  tags: string[]
  rack: string | null
  ownerData: Record<string, string>
  document: unknown
}

const record = (value: unknown): Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? value as Record<string, unknown> : {}

const strings = (value: unknown): string[] => Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []

/** Every concrete drydock/BaremetalNode/v1 of the design, in design order (a name given twice counts once). */
export function designNodes (documents: unknown[]): DesignNode[] {
  const nodes = new Map<string, DesignNode>()
  for (const document of documents) {
    const doc = record(document)
    if (doc.schema !== BAREMETAL_NODE_SCHEMA) continue
    const metadata = record(doc.metadata)
    const name = metadata.name
    if (typeof name !== 'string' || name === '' || record(metadata.layeringDefinition).abstract === true) continue
    const nodeMetadata = record(record(doc.data).metadata)
    const ownerData = Object.fromEntries(Object.entries(record(nodeMetadata.owner_data))
      .filter((entry): entry is [string, string] => typeof entry[1] === 'string'))
    const rack = typeof nodeMetadata.rack === 'string' ? nodeMetadata.rack : null
    if (!nodes.has(name)) nodes.set(name, { name, tags: strings(nodeMetadata.tags), rack, ownerData, document })
  }
  return [...nodes.values()]
}

function union (sets: DesignNode[][], all: DesignNode[]): DesignNode[] {
  const chosen = new Set(sets.flat())
  return all.filter((n) => chosen.has(n))
}

function intersection (sets: DesignNode[][], all: DesignNode[]): DesignNode[] {
  // no set at all constrains nothing, as Drydock's list_intersection of nothing is no constraint
  return all.filter((n) => sets.every((set) => set.includes(n)))
}

/** One filter of the set: each criterion given selects nodes; `filter_type` joins the criteria. */
function applyFilter (filter: unknown, all: DesignNode[]): DesignNode[] {
  const f = record(filter)
  const sets: DesignNode[][] = []
  const names = strings(f.node_names)
  if (names.length > 0) sets.push(all.filter((n) => names.includes(n.name)))
  const tags = strings(f.node_tags)
  if (tags.length > 0) sets.push(all.filter((n) => n.tags.some((t) => tags.includes(t))))
  const racks = strings(f.rack_names)
  if (racks.length > 0) sets.push(all.filter((n) => n.rack !== null && racks.includes(n.rack)))
  const labels = Object.entries(record(f.node_labels))
  // a node matching any one label is selected (Drydock extends the set label by label)
  if (labels.length > 0) sets.push(all.filter((n) => labels.some(([k, v]) => n.ownerData[k] === v)))
  // Drydock does not filter on rack labels: every node matches
  if (Object.keys(record(f.rack_labels)).length > 0) sets.push(all)
  if (f.filter_type === 'union') return union(sets, all)
  if (f.filter_type === 'intersection') return intersection(sets, all)
  throw new NodeFilterError(`Unknown filter type ${String(f.filter_type)}`)
}

/** The nodes a task's filter selects; no filter (null or absent) selects every node of the design. */
export function applyNodeFilter (nodeFilter: unknown, all: DesignNode[]): DesignNode[] {
  if (nodeFilter === null || nodeFilter === undefined) return all
  if (typeof nodeFilter !== 'object' || Array.isArray(nodeFilter)) {
    throw new NodeFilterError("Invalid node_filter, must be a dictionary with keys 'filter_set_type' and 'filter_set'.")
  }
  const filter = nodeFilter as Record<string, unknown>
  const sets = (Array.isArray(filter.filter_set) ? filter.filter_set : []).map((f) => applyFilter(f, all))
  if (filter.filter_set_type === 'union') return union(sets, all)
  if (filter.filter_set_type === 'intersection') return intersection(sets, all)
  throw new NodeFilterError(`Unknown filter set type ${String(filter.filter_set_type)}`)
}
