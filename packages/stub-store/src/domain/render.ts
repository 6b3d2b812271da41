// Rendering (spec §9): layering policy and layer checks, parent selection, replacement, substitution
// sources, dependency order, then layering actions and substitutions per document. Documents are
// indexed by labels, by (schema, name) and by meta so no step scans the whole set per document.
import { StoreError } from '../errors.ts'
import { isAbstract, isControl, LAYERING_POLICY, metaKey } from './documents.ts'
import { deleteAt, getAt, getSourceAt, parseActionPath, parsePath, PathError, setAt, type Segment } from './paths.ts'
import { deleteFirstEqual, quirkActionPath } from './quirks.ts'
import { clone, deepEqual, isMapping, numericValue, ownValue, pyStr, setKey, type Mapping } from './values.ts'

export interface RenderDocument {
  id: number
  schema: string
  name: string
  layer: string
  metadata: Mapping
  /** For encrypted documents, the secret (already resolved from its reference). */
  data: unknown
  bucket: string
  /** Origin revision, shown as `status.revision`. */
  revision: number
}

interface Node {
  doc: RenderDocument
  index: number
  control: boolean
  abstract: boolean
  replacement: boolean
  selector: Mapping | undefined
  actions: unknown[] | undefined
  layerIndex: number
  parent: Node | undefined
  parentCount: number
  replacedBy: Node | undefined
  current: unknown
  metadata: Mapping
  encryptedSource: boolean
  deps: Node[]
}

const err = (status: number, type: string, message: string): StoreError => new StoreError(status, type, message)

const docRef = (d: RenderDocument): string => `[${d.schema}, ${d.layer === '' ? 'None' : d.layer}] ${d.name}`

function labelKey (key: string, value: unknown): string {
  // 1.0 and 1 select each other (Python's ==), so they share a key
  return `${key}\u0000${typeof value === 'string' ? value : JSON.stringify(numericValue(value))}`
}

/** Python-flavoured regex source to JavaScript (named groups). */
function compileRegex (source: string, flags: string): RegExp {
  try {
    return new RegExp(source.replace(/\(\?P<([A-Za-z_]\w*)>/g, '(?<$1>').replace(/\(\?P=([A-Za-z_]\w*)\)/g, '\\k<$1>'), flags)
  } catch (error) {
    throw err(400, 'InvalidSubstitutionPattern', `The substitution pattern ${source} is not a valid regular expression: ${(error as Error).message}`)
  }
}

export interface RenderOptions {
  cleartextSecrets: boolean
  /** Layering actions as Deckhand applies them (quirks.ts): `.data` cut as text, `delete` of the first equal value. */
  deckhandQuirks?: boolean
}

/**
 * Renders a revision's documents. Returns every document processed, in dependency order, with rendered
 * data; the caller leaves out abstract, replaced and hidden ones (`returned`). A document's metadata is its
 * stored one, with `storagePolicy: encrypted` when it received a value from an encrypted source while secrets
 * are redacted (spec §9.7.4); substitution paths stay as written, so DataSchema validation masks the real
 * destinations (§11), and the redaction of §9.10 step 7 and §12 hashes them when the document is shown.
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
        throw err(400, 'InvalidDocumentLayer', `Invalid layer '${doc.layer}' for document [${doc.schema}] ${doc.name} was not found in layerOrder: ${layerOrder.join(', ')} for provided LayeringPolicy: ${policyDoc.name}.`)
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
      throw err(400, 'InvalidDocumentReplacement', `Replacement document ${docRef(n.replacedBy.doc)} is invalid. Reason: Replacement document cannot itself be replaced by another document.`)
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

/** Parent selection exactly as upstream counts it (spec §9.2). */
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
            throw err(400, 'InvalidDocumentParent', `The document parent [${p.doc.schema}] ${p.doc.name} is invalid for document [${c.doc.schema}] ${c.doc.name}. Reason: Child has parentSelector which references parent, but their \`schema\`s do not match.`)
          }
          if (p.layerIndex >= c.layerIndex) {
            throw err(400, 'InvalidDocumentParent', `The document parent [${p.doc.schema}] ${p.doc.name} is invalid for document [${c.doc.schema}] ${c.doc.name}. Reason: Child has parentSelector which references parent, but the child layer ${c.doc.layer} must be lower than the parent layer ${p.doc.layer} for layerOrder ${layerOrder.join(', ')}.`)
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
      throw err(400, 'IndeterminateDocumentParent', `Too many parent documents found for document [${n.doc.schema}, ${n.doc.layer}] ${n.doc.name}. Found: ${n.parentCount}. Expected: 1.`)
    }
  }
}

/** Replacement rules checked before anything renders (spec §9.3). */
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
        throw invalid(n, 'Non-replacement documents cannot have the same `schema` and `metadata.name` as their parent. Either add `replacement: true` to the document or give the document a different name.')
      }
      if (!n.control) {
        const key = `${n.doc.schema}\u0000${n.doc.name}`
        if (seen.has(key)) {
          throw invalid(n, 'More than one document with the same name and schema was found, but none has `replacement: true`. Ensure that only one document for each name and schema exists, or that one of them has `replacement: true`.')
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
          throw err(400, 'SubstitutionDependencyCycle', `Cannot determine substitution order as a dependency cycle exists for the following documents: ${cycle.join(', ')}.`)
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

function missingKey (action: unknown, p: Node, c: Node): StoreError {
  return err(400, 'MissingDocumentKey', `Missing action path in ${pyStr(action)} needed for layering from either the data section of the parent [${p.doc.schema}, ${p.doc.layer}] ${p.doc.name} or child [${c.doc.schema}, ${c.doc.layer}] ${c.doc.name} document.`)
}

/** Deep-merges `src` into `dst` (mappings recurse, everything else replaced by the child's copy). */
function deepMerge (dst: Mapping, src: Mapping): void {
  for (const k in src) {
    const s = src[k]
    const d = ownValue(dst, k)
    if (isMapping(s) && isMapping(d)) deepMerge(d, s)
    else setKey(dst, k, clone(s))
  }
}

function applyActions (parentData: unknown, n: Node, quirks: boolean): unknown {
  const p = n.parent as Node
  let work: unknown = parentData === null || parentData === undefined ? {} : clone(parentData)
  const child = n.doc.data
  for (const action of n.actions as unknown[]) {
    const a = isMapping(action) ? action : {}
    const method = a.method
    let segs: Segment[]
    try {
      segs = quirks ? parsePath(quirkActionPath(String(a.path))) : parseActionPath(String(a.path))
    } catch (error) {
      throw err(400, 'InvalidDocumentFormat', `Invalid layering action path ${String(a.path)} in document ${docRef(n.doc)}: ${(error as Error).message}`)
    }
    try {
      if (method === 'merge' || method === 'replace') {
        const c = getAt(child, segs)
        if (c === undefined || c === null) throw missingKey(action, p, n)
        if (method === 'merge') {
          const existing = getAt(work, segs)
          if (isMapping(existing) && isMapping(c)) deepMerge(existing, c)
          else work = setAt(work, segs, clone(c))
        } else {
          work = setAt(work, segs, clone(c))
        }
      } else if (method === 'delete') {
        if (segs.length === 0) {
          work = {}
        } else {
          const existing = getAt(work, segs)
          if (existing === undefined || existing === null) throw missingKey(action, p, n)
          if (quirks) deleteFirstEqual(work, existing)
          else deleteAt(work, segs)
        }
      } else {
        throw err(400, 'UnsupportedActionMethod', `Method in ${pyStr(n.actions)} is invalid for document ${docRef(n.doc)}.`)
      }
    } catch (error) {
      if (error instanceof PathError) throw err(400, 'MissingDocumentKey', `${missingKey(action, p, n).message} ${error.message}`)
      throw error
    }
  }
  return work
}

function replacePattern (text: string, pattern: RegExp, value: unknown): string {
  const replacement = typeof value === 'string' ? value : pyStr(value)
  return text.replace(pattern, () => replacement)
}

function recurseReplace (value: unknown, pattern: RegExp, literal: string, v: unknown, depth: number): unknown {
  if (depth === 0) return value
  const nextDepth = depth < 0 ? depth : depth - 1
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const item = value[i]
      if (typeof item === 'string') { if (item.includes(literal)) value[i] = replacePattern(item, pattern, v) } else value[i] = recurseReplace(item, pattern, literal, v, nextDepth)
    }
  } else if (isMapping(value)) {
    for (const k in value) {
      const item = value[k]
      if (typeof item === 'string') { if (item.includes(literal)) value[k] = replacePattern(item, pattern, v) } else value[k] = recurseReplace(item, pattern, literal, v, nextDepth)
    }
  }
  return value
}

/**
 * Issue 21: Deckhand's jsonpath-ng writes only the first element of a list substituted into a list index
 * (`.hosts[1]`), silently dropping the rest. No site means that, so the stand-in refuses it with a 400 that names
 * the difference instead of rendering something Deckhand would render differently.
 */
function listIntoIndex (n: Node, destPath: string): StoreError {
  return err(400, 'SubstitutionDestinationInvalid', `Cannot substitute a list into the list index ${destPath} of ${docRef(n.doc)}: Deckhand writes only the list's first element there. Substitute into the parent path, or one element with src.path.`)
}

function substitute (n: Node, subs: unknown[], sources: Map<string, Node>, options: RenderOptions): void {
  for (const sub of subs) {
    if (!isMapping(sub) || !isMapping(sub.src)) continue
    const src = sub.src
    const source = sources.get(`${String(src.schema)}\u0000${String(src.name)}`)
    if (source === undefined) {
      throw err(409, 'SubstitutionSourceNotFound', `Required substitution source document [${String(src.schema)}] ${String(src.name)} was not found, yet is referenced by [${n.doc.schema}] ${n.doc.name}.`)
    }
    const srcPath = String(src.path)
    let value: unknown
    const sourceData = source.current
    try {
      value = isMapping(sourceData) ? getSourceAt(sourceData, parsePath(srcPath)) : sourceData
    } catch (error) {
      throw err(400, 'SubstitutionSourceDataNotFound', `Invalid src.path ${srcPath} in a substitution of ${docRef(n.doc)}: ${(error as Error).message}`)
    }
    if (value === undefined || value === null) {
      throw err(400, 'SubstitutionSourceDataNotFound', `Required substitution source secret was not found at path ${srcPath} in source document [${source.doc.schema}, ${source.doc.layer}] ${source.doc.name} which is referenced by destination document [${n.doc.schema}, ${n.doc.layer}] ${n.doc.name} under its \`metadata.substitutions\`.`)
    }
    if (typeof src.pattern === 'string') {
      if (typeof value !== 'string') {
        throw err(400, 'SubstitutionSourceDataNotFound', `The substitution source value at path ${srcPath} in [${source.doc.schema}] ${source.doc.name} must be a string to apply src.pattern ${src.pattern}.`)
      }
      const m = compileRegex(src.pattern, '').exec(value)
      if (m !== null) {
        const group = typeof src.match_group === 'number' ? src.match_group : 0
        const g = m[group]
        if (g === undefined) {
          throw err(400, 'SubstitutionSourceDataNotFound', `The src.pattern ${src.pattern} has no group ${group} (substitution of ${docRef(n.doc)}).`)
        }
        value = g
      }
    }
    const dests = Array.isArray(sub.dest) ? sub.dest : [sub.dest]
    for (const d of dests) {
      if (!isMapping(d)) continue
      const destPath = String(d.path)
      let segs: Segment[]
      try {
        segs = parsePath(destPath)
      } catch (error) {
        throw err(400, 'InvalidDocumentFormat', `Invalid dest.path ${destPath} in ${docRef(n.doc)}: ${(error as Error).message}`)
      }
      try {
        if (typeof d.pattern !== 'string') {
          if (Array.isArray(value) && typeof segs[segs.length - 1] === 'number') throw listIntoIndex(n, destPath)
          const v = clone(value)
          if (segs.length === 0) {
            n.current = isMapping(n.current) && isMapping(v) ? Object.assign(n.current, v) : v
          } else {
            n.current = setAt(n.current, segs, v)
          }
          continue
        }
        const pattern = compileRegex(d.pattern, 'g')
        const target = getAt(n.current, segs)
        const recurse = isMapping(d.recurse) ? d.recurse : undefined
        if (typeof target === 'string') {
          n.current = setAt(n.current, segs, replacePattern(target, pattern, value))
        } else if (recurse !== undefined && (Array.isArray(target) || isMapping(target))) {
          recurseReplace(target, pattern, d.pattern, value, typeof recurse.depth === 'number' ? recurse.depth : -1)
        } else {
          throw err(400, 'MissingDocumentPattern', `The destination document's \`data\` section is missing the pattern ${d.pattern} specified under \`substitutions.dest.pattern\` at path ${destPath}, specified under \`substitutions.dest.path\`.`)
        }
      } catch (error) {
        if (error instanceof PathError) {
          throw err(400, 'SubstitutionDestinationInvalid', `Cannot substitute into ${docRef(n.doc)} at ${destPath}: ${error.message}`)
        }
        throw error
      }
    }
    if (source.metadata.storagePolicy === 'encrypted' && !options.cleartextSecrets) n.encryptedSource = true
  }
  if (n.encryptedSource && n.metadata.storagePolicy !== 'encrypted') {
    n.metadata = { ...n.metadata, storagePolicy: 'encrypted' }
  }
}
