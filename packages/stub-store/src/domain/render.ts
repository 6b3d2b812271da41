// Rendering: the layering policy and layer checks, parent selection, replacement, substitution sources and
// dependency order, then each document's layering actions (layering-actions.ts) and substitutions
// (substitution.ts). Documents are indexed by labels, by (schema, name) and by meta so no step scans the whole set
// per document.
import type { StoreError } from '../errors.ts'
import { isAbstract, isControl, LAYERING_POLICY, metaKey } from './documents.ts'
import { applyActions } from './layering-actions.ts'
import { docRef, err, type Node, type RenderDocument, type RenderOptions } from './render-node.ts'
import { substitute } from './substitution.ts'
import { clone, deepEqual, isMapping, numericValue, type Mapping } from './values.ts'

export type { RenderDocument, RenderOptions } from './render-node.ts'

function labelKey (key: string, value: unknown): string {
  // 1.0 and 1 select each other (Python's ==), so they share a key
  return `${key}\u0000${typeof value === 'string' ? value : JSON.stringify(numericValue(value))}`
}

/**
 * Renders a revision's documents. Returns every document processed, in dependency order, with rendered
 * data; the caller leaves out abstract, replaced and hidden ones (`returned`). A document's metadata is its
 * stored one, with `storagePolicy: encrypted` when it received a value from an encrypted source while secrets
 * are redacted; substitution paths stay as written, so DataSchema validation masks the real destinations, and
 * the redaction hashes them when the document is shown.
 */
export function renderDocuments (
  docs: RenderDocument[],
  options: RenderOptions
): { documents: RenderDocument[], returned: (d: RenderDocument) => boolean } {
  const policyDoc = docs.find((d) => d.schema.startsWith(LAYERING_POLICY))
  if (policyDoc === undefined) throw err(409, 'LayeringPolicyNotFound', 'Required LayeringPolicy was not found for layering.')
  const policyData = policyDoc.data
  const layerOrder: string[] = isMapping(policyData) && Array.isArray(policyData.layerOrder)
    ? policyData.layerOrder.filter((l): l is string => typeof l === 'string')
    : []
  const orderIndex = new Map(layerOrder.map((l, i) => [l, i]))

  // index by meta, first occurrence wins
  const byMeta = new Map<string, Node>()
  const nodes: Node[] = []
  for (const doc of docs) {
    const key = metaKey(doc.schema, doc.layer, doc.name)
    if (byMeta.has(key)) continue
    const m = doc.metadata
    const ld = isMapping(m.layeringDefinition) ? m.layeringDefinition : {}
    const node: Node = {
      doc,
      index: nodes.length,
      control: isControl(m),
      abstract: isAbstract(m),
      replacement: m.replacement === true,
      selector: isMapping(ld.parentSelector) && Object.keys(ld.parentSelector).length > 0 ? ld.parentSelector : undefined,
      actions: Array.isArray(ld.actions) ? ld.actions : undefined,
      layerIndex: -1,
      parent: undefined,
      parentCount: 0,
      replacedBy: undefined,
      current: doc.data,
      metadata: m,
      encryptedSource: false,
      deps: []
    }
    if (doc.layer !== '') {
      const idx = orderIndex.get(doc.layer)
      if (idx === undefined) {
        throw err(400, 'InvalidDocumentLayer',
          `Invalid layer '${doc.layer}' for document [${doc.schema}] ${doc.name} was not found in layerOrder: ${layerOrder.join(', ')} for provided LayeringPolicy: ${policyDoc.name}.`)
      }
      node.layerIndex = idx
    }
    byMeta.set(key, node)
    nodes.push(node)
  }

  selectParents(nodes, layerOrder)
  checkReplacements(nodes)

  // substitution sources: concrete documents by (schema, name), first wins, replaced ones by their replacement
  const sources = new Map<string, Node>()
  for (const n of nodes) {
    if (n.abstract) continue
    const key = `${n.doc.schema}\u0000${n.doc.name}`
    if (!sources.has(key)) sources.set(key, n)
  }
  for (const [key, n] of sources) {
    if (n.replacedBy === undefined) continue
    if (n.replacedBy.replacedBy !== undefined) {
      throw err(400, 'InvalidDocumentReplacement',
        `Replacement document ${docRef(n.replacedBy.doc)} is invalid. Reason: Replacement document cannot itself be replaced by another document.`)
    }
    sources.set(key, n.replacedBy)
  }

  // dependency edges: parent (or its replacement) and substitution sources
  const inGraph = new Uint8Array(nodes.length)
  for (const n of nodes) {
    if (n.parent !== undefined && n.selector !== undefined) {
      const p = n.parent.replacedBy !== undefined && n.parent.replacedBy !== n ? n.parent.replacedBy : n.parent
      n.deps.push(p)
    }
    const subs = n.metadata.substitutions
    if (Array.isArray(subs)) {
      for (const s of subs) {
        const src = isMapping(s) && isMapping(s.src) ? s.src : undefined
        if (src === undefined) continue
        const source = sources.get(`${String(src.schema)}\u0000${String(src.name)}`)
        if (source !== undefined) n.deps.push(source)
      }
    }
    if (n.deps.length > 0) {
      inGraph[n.index] = 1
      for (const d of n.deps) inGraph[d.index] = 1
    }
  }
  const order = dependencyOrder(nodes, inGraph)

  for (const n of order) processNode(n, sources, options)

  const documents: RenderDocument[] = []
  const returnedSet = new Set<RenderDocument>()
  for (const n of order) {
    const rendered: RenderDocument = { ...n.doc, metadata: n.metadata, data: n.current }
    documents.push(rendered)
    const replaced = n.replacedBy !== undefined
    if (!n.abstract && !replaced) returnedSet.add(rendered)
  }
  return { documents, returned: (d) => returnedSet.has(d) }
}

/** Parent selection exactly as upstream counts it: the nearest layer above with a match, one parent there. */
function selectParents (nodes: Node[], layerOrder: string[]): void {
  const childrenByLabel = new Map<string, Node[]>()
  for (const n of nodes) {
    if (n.selector === undefined || n.control || n.layerIndex < 0) continue
    const [k, v] = Object.entries(n.selector)[0] as [string, unknown]
    const key = labelKey(k, v)
    const list = childrenByLabel.get(key)
    if (list === undefined) childrenByLabel.set(key, [n])
    else list.push(n)
  }
  if (childrenByLabel.size === 0) return
  const byLayer: Node[][] = layerOrder.map(() => [])
  for (const n of nodes) if (n.layerIndex >= 0 && !n.control) byLayer[n.layerIndex]?.push(n)
  for (const layerNodes of byLayer) {
    for (const p of layerNodes) {
      const labels = p.metadata.labels
      if (!isMapping(labels)) continue
      for (const lk of Object.keys(labels)) {
        const candidates = childrenByLabel.get(labelKey(lk, labels[lk]))
        if (candidates === undefined) continue
        for (const c of candidates) {
          if (c === p) continue
          const selector = c.selector as Mapping
          let matches = true
          for (const sk in selector) {
            if (!Object.hasOwn(labels, sk) || !deepEqual(labels[sk], selector[sk])) { matches = false; break }
          }
          if (!matches) continue
          if (c.doc.schema !== p.doc.schema) {
            throw err(400, 'InvalidDocumentParent',
              `The document parent [${p.doc.schema}] ${p.doc.name} is invalid for document [${c.doc.schema}] ${c.doc.name}. Reason: Child has parentSelector which references parent, but their \`schema\`s do not match.`)
          }
          if (p.layerIndex >= c.layerIndex) {
            throw err(400, 'InvalidDocumentParent',
              `The document parent [${p.doc.schema}] ${p.doc.name} is invalid for document [${c.doc.schema}] ${c.doc.name}. Reason: Child has parentSelector which references parent, but the child layer ${c.doc.layer} must be lower than the parent layer ${p.doc.layer} for layerOrder ${layerOrder.join(', ')}.`)
          }
          c.parentCount++
          if (c.parent === undefined) {
            c.parent = p
          } else if (p.layerIndex > c.parent.layerIndex) {
            c.parent = p
            c.parentCount--
          }
        }
      }
    }
  }
  for (const n of nodes) {
    if (n.parentCount > 1) {
      throw err(400, 'IndeterminateDocumentParent',
        `Too many parent documents found for document [${n.doc.schema}, ${n.doc.layer}] ${n.doc.name}. Found: ${n.parentCount}. Expected: 1.`)
    }
  }
}

/** Replacement rules checked before anything renders. */
function checkReplacements (nodes: Node[]): void {
  const invalid = (n: Node, reason: string): StoreError =>
    err(400, 'InvalidDocumentReplacement', `Replacement document ${docRef(n.doc)} is invalid. Reason: ${reason}`)
  const seen = new Set<string>()
  for (const n of nodes) {
    const p = n.parent
    if (n.replacement) {
      if (p === undefined) throw invalid(n, 'Replacement document must have a parent.')
      if (p.doc.schema !== n.doc.schema || p.doc.name !== n.doc.name) {
        throw invalid(n, 'Replacement document must have the same `schema` and `metadata.name` as its parent.')
      }
      p.replacedBy = n
    } else {
      if (p !== undefined && p.doc.schema === n.doc.schema && p.doc.name === n.doc.name) {
        throw invalid(n,
          'Non-replacement documents cannot have the same `schema` and `metadata.name` as their parent. Either add `replacement: true` to the document or give the document a different name.')
      }
      if (!n.control) {
        const key = `${n.doc.schema}\u0000${n.doc.name}`
        if (seen.has(key)) {
          throw invalid(n,
            'More than one document with the same name and schema was found, but none has `replacement: true`. Ensure that only one document for each name and schema exists, or that one of them has `replacement: true`.')
        }
        seen.add(key)
      }
    }
  }
}

/** Dependencies first (iterative depth-first search); documents outside the graph last, in input order. */
function dependencyOrder (nodes: Node[], inGraph: Uint8Array): Node[] {
  const state = new Uint8Array(nodes.length) // 0 new, 1 on the stack, 2 done
  const order: Node[] = []
  for (const start of nodes) {
    if (inGraph[start.index] === 0 || state[start.index] === 2) continue
    const stack: Array<{ node: Node, next: number }> = [{ node: start, next: 0 }]
    state[start.index] = 1
    while (stack.length > 0) {
      const top = stack[stack.length - 1] as { node: Node, next: number }
      if (top.next < top.node.deps.length) {
        const dep = top.node.deps[top.next++] as Node
        if (state[dep.index] === 1) {
          const cycle = stack.slice(stack.findIndex((f) => f.node === dep)).map((f) => docRef(f.node.doc))
          throw err(400, 'SubstitutionDependencyCycle',
            `Cannot determine substitution order as a dependency cycle exists for the following documents: ${cycle.join(', ')}.`)
        }
        if (state[dep.index] === 0) {
          state[dep.index] = 1
          stack.push({ node: dep, next: 0 })
        }
      } else {
        state[top.node.index] = 2
        order.push(top.node)
        stack.pop()
      }
    }
  }
  for (const n of nodes) if (inGraph[n.index] === 0) order.push(n)
  return order
}

function processNode (n: Node, sources: Map<string, Node>, options: RenderOptions): void {
  if (n.control) return
  const p = n.parent
  if (p !== undefined && n.actions !== undefined) {
    const from = p.replacedBy !== undefined && p.replacedBy !== n ? p.replacedBy : p
    n.current = applyActions(from.current, n, options.deckhandQuirks ?? false)
  }
  const subs = n.metadata.substitutions
  if (Array.isArray(subs) && subs.length > 0) {
    // substitution writes into the data: never into the stored copy
    if (n.current === n.doc.data) n.current = clone(n.doc.data)
    substitute(n, subs, sources, options)
  }
  if (n.replacement && p !== undefined) p.current = n.current
}
