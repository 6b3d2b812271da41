// Query filters, sorting and limits of the document listings, shared by raw and rendered views.
import { StoreError } from '../errors.ts'
import { isMapping, numericValue, type Mapping } from './values.ts'

export type Query = Record<string, string | string[] | undefined>

export function values (query: Query, key: string): string[] {
  const v = query[key]
  if (v === undefined) return []
  return Array.isArray(v) ? v : [v]
}

/** A document as listed: id, schema, metadata, data, and its bucket and revision under status. */
export interface ListedDocument {
  id: number
  schema: string
  metadata: Mapping
  data: unknown
  status: { bucket: string, revision: number }
}

function schemaMatcher (wanted: string[]): ((schema: string) => boolean) | undefined {
  if (wanted.length === 0) return undefined
  if (wanted.length > 1) {
    // repeated values match exactly, as Deckhand matches them
    const set = new Set(wanted)
    return (schema) => set.has(schema)
  }
  const parts = (wanted[0] as string).split('/')
  return (schema) => {
    const have = schema.split('/')
    if (parts.length > have.length) return false
    return parts.every((p, i) => have[i] === p)
  }
}

/** Every filter of the query as one predicate; `withLayering` also honours the two layeringDefinition filters. */
export function documentFilter (query: Query, withLayering: boolean): (doc: ListedDocument) => boolean {
  const checks: Array<(doc: ListedDocument) => boolean> = []
  const schema = schemaMatcher(values(query, 'schema'))
  if (schema !== undefined) checks.push((d) => schema(d.schema))
  const names = values(query, 'metadata.name')
  if (names.length > 0) checks.push((d) => names.includes(d.metadata.name as string))
  const buckets = values(query, 'status.bucket')
  if (buckets.length > 0) checks.push((d) => buckets.includes(d.status.bucket))
  const labels = values(query, 'metadata.label')
  if (labels.length > 0) {
    const pairs = labels.map((l) => {
      const eq = l.indexOf('=')
      return eq < 0 ? undefined : [l.slice(0, eq), l.slice(eq + 1)] as const
    })
    checks.push((d) => {
      const have = isMapping(d.metadata.labels) ? d.metadata.labels : {}
      return pairs.every((p) => p !== undefined && Object.hasOwn(have, p[0]) && String(have[p[0]]) === p[1])
    })
  }
  if (withLayering) {
    const abstract = values(query, 'metadata.layeringDefinition.abstract')
    if (abstract.length > 0) {
      const wanted = abstract.map((a) => a.toLowerCase()).map((a) => a === 'true' ? true : a === 'false' ? false : undefined)
      checks.push((d) => {
        const ld = isMapping(d.metadata.layeringDefinition) ? d.metadata.layeringDefinition : {}
        return wanted.some((w) => w !== undefined && (ld.abstract === true) === w)
      })
    }
    const layers = values(query, 'metadata.layeringDefinition.layer')
    if (layers.length > 0) {
      checks.push((d) => {
        const ld = isMapping(d.metadata.layeringDefinition) ? d.metadata.layeringDefinition : {}
        return layers.includes(ld.layer as string)
      })
    }
  }
  return (doc) => checks.every((c) => c(doc))
}

function fieldAt (doc: unknown, path: string): unknown {
  let cur = doc
  for (const part of path.split('.')) {
    if (!isMapping(cur) || !Object.hasOwn(cur, part)) return undefined
    cur = cur[part]
  }
  return cur
}

function compare (x: unknown, y: unknown): number {
  const a = numericValue(x)
  const b = numericValue(y)
  if (typeof a === 'number' && typeof b === 'number') return a - b
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0
  const sa = typeof a === 'string' ? a : JSON.stringify(a) ?? ''
  const sb = typeof b === 'string' ? b : JSON.stringify(b) ?? ''
  if (typeof a !== typeof b) return typeof a < typeof b ? -1 : 1
  return sa < sb ? -1 : sa > sb ? 1 : 0
}

/** Sorts by the given field paths (missing values last, stable) in `order`; no fields keeps the order given. */
export function sortItems<T> (items: T[], fields: string[], order: string | undefined): T[] {
  const desc = order === 'desc'
  if (fields.length === 0) return desc ? [...items].reverse() : items
  const keyed = items.map((item, i) => ({ item, i, keys: fields.map((f) => fieldAt(item, f)) }))
  keyed.sort((x, y) => {
    for (let k = 0; k < fields.length; k++) {
      const a = x.keys[k]
      const b = y.keys[k]
      const am = a === undefined || a === null
      const bm = b === undefined || b === null
      if (am || bm) {
        if (am && bm) continue
        return am ? 1 : -1
      }
      const c = compare(a, b)
      if (c !== 0) return desc ? -c : c
    }
    return x.i - y.i
  })
  return keyed.map((k) => k.item)
}

/** The `limit` parameter: an integer, absolute value used; absent → no limit. */
export function parseLimit (query: Query): number | undefined {
  const raw = values(query, 'limit')
  if (raw.length === 0) return undefined
  const v = raw[raw.length - 1] as string
  if (!/^\s*[-+]?\d+\s*$/.test(v)) {
    throw new StoreError(400, 'HTTPInvalidParam',
      'The "limit" parameter is invalid. Query parameter limit must be of type <class \'int\'>.')
  }
  return Math.abs(Number(v))
}

/** `cleartext-secrets` as the caller wrote it: true/false in any case; undefined when absent. */
export function parseCleartext (query: Query): boolean | undefined {
  const raw = values(query, 'cleartext-secrets')
  if (raw.length === 0) return undefined
  const v = (raw[raw.length - 1] as string).toLowerCase()
  if (v === 'true') return true
  if (v === 'false') return false
  throw new StoreError(400, 'HTTPInvalidParam',
    'The "cleartext-secrets" parameter is invalid. The value of the parameter must be "true" or "false".')
}
