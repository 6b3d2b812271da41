// Deckhand's departures from its own documentation, reproduced only in quirk mode (STORE_DECKHAND_QUIRKS; the package
// README's quirk table sets each beside the documented behaviour the default mode keeps): what a rollback restores,
// how a layering action's path loses `.data` and what its `delete` removes, and which tag `?tag=` sees.
import type { DocumentRow } from '../db/sqlite.ts'
import { metaKey } from './documents.ts'
import { contentHash, decodeStoredValue, isMapping, numericValue, WholeFloat, type Mapping } from './values.ts'

/**
 * Python's `==` on document values: booleans are the integers 0 and 1 and a float equals the integer of the same
 * value (`1 == True == 1.0`), mappings compare by keys whatever their order, lists element by element; NaN equals
 * nothing. Values of different kinds (a string and a number) are never equal.
 */
export function pyEquals (a: unknown, b: unknown): boolean {
  const x = asNumber(a)
  const y = asNumber(b)
  if (x !== undefined || y !== undefined) return x !== undefined && y !== undefined && x === y
  if (a === b) return true
  if (a === null || b === null || a === undefined || b === undefined) return (a ?? null) === (b ?? null)
  if (typeof a === 'string' || typeof b === 'string') return false
  if (a instanceof Date || b instanceof Date) return a instanceof Date && b instanceof Date && a.getTime() === b.getTime()
  if (a instanceof Uint8Array || b instanceof Uint8Array) {
    return a instanceof Uint8Array && b instanceof Uint8Array && Buffer.from(a).equals(Buffer.from(b))
  }
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((v, i) => pyEquals(v, b[i]))
  }
  if (!isMapping(a) || !isMapping(b)) return false
  const keys = Object.keys(a)
  return keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && pyEquals(a[k], b[k]))
}

function asNumber (v: unknown): number | undefined {
  if (typeof v === 'boolean') return v ? 1 : 0
  if (typeof v === 'number' || v instanceof WholeFloat) return numericValue(v) as number
  return undefined
}

/**
 * Deckhand's layering `delete`: it does not remove the entry at the path but walks the whole data depth-first
 * (mapping entries in their order, list items in theirs, each value checked before its contents) and removes the
 * first value equal (Python's `==`) to the one at the path — `{a: 1, b: 1}` minus `.b` leaves `{b: 1}`. The walk
 * reaches the path's own value at the latest, so something is always removed. Mutates `root`.
 */
export function deleteFirstEqual (root: unknown, target: unknown): boolean {
  if (Array.isArray(root)) {
    for (let i = 0; i < root.length; i++) {
      if (pyEquals(root[i], target)) { root.splice(i, 1); return true }
      if (deleteFirstEqual(root[i], target)) return true
    }
  } else if (isMapping(root)) {
    for (const key of Object.keys(root)) {
      if (pyEquals(root[key], target)) { delete (root as Mapping)[key]; return true }
      if (deleteFirstEqual(root[key], target)) return true
    }
  }
  return false
}

/**
 * Deckhand's normalisation of a layering action path: a leading `.data` or `$.data` is cut as text, so `.database`
 * becomes `.base` (the documented rule cuts only a whole `data` segment); what remains gets a leading `.` unless
 * it has one. The result is read as it stands, without the documented `.data` cut a second time.
 */
export function quirkActionPath (path: string): string {
  const prefix = /^\$?\.data/.exec(path)
  if (prefix === null) return path
  const rest = path.slice(prefix[0].length)
  if (rest === '') return '.'
  return rest.startsWith('.') || rest.startsWith('$.') ? rest : `.${rest}`
}

/** Deckhand's `?tag=`: a revision matches only when one of the tags asked for is its first (oldest) tag. */
export function firstTagMatches (firstTag: string | undefined, wanted: string[]): boolean {
  return firstTag !== undefined && wanted.includes(firstTag)
}

/**
 * What Deckhand's rollback to `target` copies into the new revision. It does not rebuild the target's live set: it
 * takes the target's own writes, then every earlier write oldest first, and keeps the first copy of each document.
 * So a bucket the target rewrote comes back as the target wrote it, and a document the target deleted comes back
 * live with its tombstone's empty data; every other document comes back as the oldest copy ever written of it,
 * documents deleted since included. Buckets with no document in the result are emptied by the caller, as in the
 * documented rollback. Returned in the order the copies were first written.
 */
export function quirkRollbackRows (ownWrites: DocumentRow[], earlierWrites: DocumentRow[]): DocumentRow[] {
  const chosen = new Map<string, DocumentRow>()
  for (const row of [...ownWrites, ...earlierWrites]) {
    const key = metaKey(row.schema, row.layer, row.name)
    if (!chosen.has(key)) chosen.set(key, row)
  }
  return [...chosen.values()].sort((a, b) => a.id - b.id).map((row) => {
    if (row.deleted === 0) return row
    // a tombstone keeps the document's metadata and holds `{}` as data; restored, it is a live copy of exactly that
    return {
      ...row,
      data: '{}',
      special: 0,
      deleted: 0,
      data_hash: contentHash({}),
      metadata_hash: contentHash(decodeStoredValue(row.metadata))
    }
  })
}
