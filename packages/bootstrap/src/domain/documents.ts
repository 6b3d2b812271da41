// Site-design documents as the bootstrap service reads them: lookups by schema and name, and the
// envelope checks of a design fetched over plain HTTP (the store's own checks, which a deckhand+ design has passed).

import { DesignError } from '../errors.ts'
import type { DesignDocument } from '../types.ts'

export { DesignError } from '../errors.ts'
export type { DesignDocument } from '../types.ts'

/** A design indexed by schema and name. */
export function indexDesign (documents: DesignDocument[]) {
  const bySchema = new Map<string, DesignDocument[]>()
  for (const doc of documents) {
    const list = bySchema.get(doc.schema)
    if (list === undefined) bySchema.set(doc.schema, [doc])
    else list.push(doc)
  }
  function find (schema: string, name?: string): DesignDocument | undefined {
    const list = bySchema.get(schema) ?? []
    return name === undefined ? list[0] : list.find((d) => d.metadata.name === name)
  }
  return {
    documents,
    all: (schema: string): DesignDocument[] => bySchema.get(schema) ?? [],
    find,
    /** The document, or a DesignError naming what is missing: a design defect is the caller's, a 400. */
    require (schema: string, name?: string): DesignDocument {
      const doc = find(schema, name)
      if (doc === undefined) {
        throw new DesignError(`No document found matching schema=${schema}${name === undefined ? '' : ` name=${name}`}`)
      }
      return doc
    }
  }
}

export type DesignIndex = ReturnType<typeof indexDesign>

/** A value at a dotted path of a document's data; falsy values count as missing, as upstream's lookup does. */
export function dataAt (doc: DesignDocument | undefined, path: string): unknown {
  let current: unknown = doc?.data
  for (const part of path.split('.')) {
    if (current === null || typeof current !== 'object') return undefined
    current = (current as Record<string, unknown>)[part]
  }
  if (current === '' || current === 0 || current === false || current === null) return undefined
  if (Array.isArray(current) && current.length === 0) return undefined
  if (typeof current === 'object' && current !== null && Object.keys(current).length === 0) return undefined
  return current
}

/** Like dataAt, but a missing value is a DesignError naming the document and path. */
export function requireDataAt (doc: DesignDocument, path: string): unknown {
  const value = dataAt(doc, path)
  if (value === undefined) throw new DesignError(`Document ${doc.schema} ${doc.metadata.name} has no value at data.${path}`)
  return value
}

const TOP_LEVEL_KEYS = new Set(['schema', 'metadata', 'data'])

// messages about a fetched document name it by its position, or by schema and name once its envelope is checked,
// and quote none of its other keys or values: whatever a design_ref points at is never reflected (issue 18)

/**
 * Checks the envelopes of a plain-HTTP design and drops abstract documents, as Deckhand's engine does: a
 * LayeringPolicy is required, every document needs schema, metadata.name and metadata.schema, Document-kind metadata
 * needs a layer from the policy's order and a storagePolicy, and only schema/metadata/data are allowed at the top.
 */
export function prepareLocalDesign (raw: unknown[]): DesignDocument[] {
  const documents: DesignDocument[] = []
  raw.forEach((item, index) => {
    if (item === null || item === undefined) return
    if (typeof item !== 'object' || Array.isArray(item)) {
      throw new DesignError(`Document ${index + 1} is not a mapping`, 'DeckhandException')
    }
    const doc = item as Record<string, unknown>
    const extra = Object.keys(doc).filter((k) => !TOP_LEVEL_KEYS.has(k))
    if (extra.length > 0) {
      throw new DesignError(`Document ${index + 1} has top-level keys other than schema, metadata and data`, 'DeckhandException')
    }
    const metadata = doc.metadata as Record<string, unknown> | undefined
    if (typeof doc.schema !== 'string' || doc.schema === '') {
      throw new DesignError(`Document ${index + 1} has no schema`, 'DeckhandException')
    }
    if (metadata === undefined || typeof metadata !== 'object' ||
      typeof metadata.name !== 'string' || typeof metadata.schema !== 'string') {
      throw new DesignError(`Document ${index + 1} needs metadata.name and metadata.schema`, 'DeckhandException')
    }
    documents.push(doc as unknown as DesignDocument)
  })
  const policy = documents.find((d) => d.schema.startsWith('deckhand/LayeringPolicy/'))
  if (policy === undefined) {
    throw new DesignError('No layering policy found in the system so could not render documents', 'DeckhandException')
  }
  const layers = (policy.data as { layerOrder?: unknown } | null)?.layerOrder
  const layerOrder = Array.isArray(layers) ? layers.map(String) : []
  for (const doc of documents) {
    if (!String(doc.metadata.schema).startsWith('metadata/Document/')) continue
    const layer = doc.metadata.layeringDefinition?.layer
    if (layer === undefined || !layerOrder.includes(layer)) {
      throw new DesignError(
        `Document ${doc.schema} ${doc.metadata.name} has a layer that is not in the LayeringPolicy's layerOrder`,
        'DeckhandException'
      )
    }
    if (doc.metadata.storagePolicy !== 'cleartext' && doc.metadata.storagePolicy !== 'encrypted') {
      throw new DesignError(`Document ${doc.schema} ${doc.metadata.name} needs storagePolicy cleartext or encrypted`, 'DeckhandException')
    }
  }
  return layer(documents, layerOrder).filter((d) => d.metadata.layeringDefinition?.abstract !== true)
}

interface LayerAction { method?: string, path?: string }

function isMapping (value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}

function mergeDeep (parent: unknown, child: unknown): unknown {
  if (!isMapping(parent) || !isMapping(child)) return child
  const out: Record<string, unknown> = { ...parent }
  for (const [key, value] of Object.entries(child)) out[key] = key in out ? mergeDeep(out[key], value) : value
  return out
}

function pathParts (path: string): string[] {
  return path === '.' ? [] : path.replace(/^\./, '').split('.')
}

function getPath (data: unknown, parts: string[]): unknown {
  return parts.reduce<unknown>((value, part) => isMapping(value) ? value[part] : undefined, data)
}

function setPath (data: unknown, parts: string[], value: unknown): unknown {
  if (parts.length === 0) return value
  const [head, ...rest] = parts as [string, ...string[]]
  const base = isMapping(data) ? { ...data } : {}
  if (value === undefined && rest.length === 0) delete base[head]
  else base[head] = setPath(base[head], rest, value)
  return base
}

const labelKey = (schema: string, key: string, value: unknown): string => `${schema}\n${key}\n${String(value)}`

/** Documents by schema and each of their labels, in the order given: a parent is looked up, not searched for. */
function labelIndex (documents: DesignDocument[]): Map<string, DesignDocument[]> {
  const index = new Map<string, DesignDocument[]>()
  for (const doc of documents) {
    const labels = doc.metadata.labels
    if (!isMapping(labels)) continue
    for (const [key, value] of Object.entries(labels)) {
      const list = index.get(labelKey(doc.schema, key, value))
      if (list === undefined) index.set(labelKey(doc.schema, key, value), [doc])
      else list.push(doc)
    }
  }
  return index
}

/**
 * The parent of `doc` among `candidates` (its schema's documents carrying the selector's first label, in layer
 * order): every selector label matching, in a higher layer than the child, the lowest such layer winning, and
 * the first document of that layer.
 */
function parentOf (
  doc: DesignDocument,
  selector: Record<string, unknown>,
  candidates: DesignDocument[],
  rank: (d: DesignDocument) => number
): DesignDocument | undefined {
  const own = rank(doc)
  let parent: DesignDocument | undefined
  for (const candidate of candidates) {
    if (candidate === doc || rank(candidate) >= own || (parent !== undefined && rank(candidate) <= rank(parent))) continue
    const labels = candidate.metadata.labels as Record<string, unknown> | undefined
    if (Object.entries(selector).every(([k, v]) => labels?.[k] === v)) parent = candidate
  }
  return parent
}

/**
 * Deckhand's layering for a design rendered here (as Airship Deckhand's deckhand/engine/layering.py does): a child
 * with a parentSelector takes the data of the one parent in a higher layer whose labels match, then applies its
 * actions in order. Substitution is the store's: a deckhand+ design_ref arrives rendered.
 */
function layer (documents: DesignDocument[], layerOrder: string[]): DesignDocument[] {
  const rank = (d: DesignDocument): number => layerOrder.indexOf(d.metadata.layeringDefinition?.layer ?? '')
  const rendered = new Map<DesignDocument, DesignDocument>()
  const ordered = [...documents].sort((a, b) => rank(a) - rank(b))
  const byLabel = labelIndex(ordered)
  for (const doc of ordered) {
    const definition = doc.metadata.layeringDefinition as { parentSelector?: Record<string, string>, actions?: LayerAction[] } | undefined
    const selector = definition?.parentSelector
    if (selector === undefined || Object.keys(selector).length === 0) { rendered.set(doc, doc); continue }
    const [firstKey, firstValue] = Object.entries(selector)[0] as [string, unknown]
    const parent = parentOf(doc, selector, byLabel.get(labelKey(doc.schema, firstKey, firstValue)) ?? [], rank)
    if (parent === undefined) { rendered.set(doc, doc); continue }
    let data = structuredClone((rendered.get(parent) ?? parent).data)
    for (const action of definition?.actions ?? []) {
      if (typeof action.path !== 'string') {
        throw new DesignError(
          `Document ${doc.schema} ${doc.metadata.name} has a layering action without a string path`,
          'DeckhandException'
        )
      }
      const parts = pathParts(action.path)
      const own = getPath(doc.data, parts)
      if (action.method === 'merge') data = setPath(data, parts, mergeDeep(getPath(data, parts), own))
      else if (action.method === 'replace') data = setPath(data, parts, own)
      else if (action.method === 'delete') data = parts.length === 0 ? {} : setPath(data, parts, undefined)
      else {
        throw new DesignError(
          `Document ${doc.schema} ${doc.metadata.name} has a layering action whose method is not merge, replace or delete`,
          'DeckhandException'
        )
      }
    }
    rendered.set(doc, { ...doc, data })
  }
  return documents.map((d) => rendered.get(d) ?? d)
}
