// The nodes' labels as the committed site design gives them, read from the rendered documents without a YAML library:
// each drydock/BaremetalNode/v1 document's `data.metadata.owner_data`, the labels the provisioner puts on the node
// and relabel_nodes sets again. What Kubernetes holds now is in no answer of the orchestrator's.
import { factsOf, splitDocuments } from './yaml-docs.js'

const NODE_SCHEMA = /^drydock\/BaremetalNode\/v\d+$/

const plain = (value) => value.trim().replace(/^'(.*)'$/, (_, inner) => inner.replaceAll("''", "'")).replace(/^"(.*)"$/, '$1')

/** The scalar entries of the block mapping at `path` (keys from the top) in one document's text, as an object. */
export function mappingAt (doc, path) {
  const found = {}
  // the keys open at each indentation, outermost first
  const open = []
  for (const line of doc.split('\n')) {
    const match = /^( *)([^\s#:'"-][^:]*|'[^']*'|"[^"]*"):(?:\s+(.*))?$/.exec(line)
    if (match === null) continue
    const indent = match[1].length
    while (open.length > 0 && open.at(-1).indent >= indent) open.pop()
    const key = plain(match[2])
    const value = (match[3] ?? '').replace(/\s+#.*$/, '')
    const at = open.map((o) => o.key)
    if (value === '') { open.push({ indent, key }); continue }
    if (at.length === path.length && at.every((k, i) => k === path[i])) found[key] = plain(value)
  }
  return found
}

/** Each node's design labels by host name (the document's name): `Map<string, Record<string, string>>`. */
export function designLabels (renderedText) {
  const labels = new Map()
  for (const doc of splitDocuments(String(renderedText))) {
    const facts = factsOf(doc)
    if (!NODE_SCHEMA.test(facts.schema) || facts.name === '') continue
    labels.set(facts.name, mappingAt(doc, ['data', 'metadata', 'owner_data']))
  }
  return labels
}

/** `{ a: 'b' }` → `['a=b']`, sorted. */
export const labelTexts = (labels) => Object.entries(labels ?? {}).map(([k, v]) => `${k}=${v}`).sort()
