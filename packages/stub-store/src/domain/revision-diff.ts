// Comparing two revisions bucket by bucket: the status of each bucket, shared by the
// plain and the deep diff, and the document-level report the deep diff adds for each modified bucket.
import { isEncrypted } from './documents.ts'
import { pyStr, type Mapping } from './values.ts'
import { valueDiff } from './value-diff.ts'

export type BucketStatus = 'created' | 'deleted' | 'modified' | 'unmodified'

/** A document as the plain diff sees it: where it lives and its stored hashes. */
export interface HashedDocument {
  bucket: string
  dataHash: string
  metadataHash: string
}

/** A document as the deep diff sees it: also its identity and what the rendered view shows of it. */
export interface DiffedDocument extends HashedDocument {
  schema: string
  name: string
  metadata: Mapping
  /** Never read when the document is encrypted. */
  data: unknown
}

/** One side of a diff: a revision id (0: the empty store) and the documents it contributes. */
export interface DiffSide<T extends HashedDocument> {
  revision: number
  documents: T[]
}

function byBucket<T extends HashedDocument> (documents: T[]): Map<string, T[]> {
  const out = new Map<string, T[]>()
  for (const d of documents) {
    const list = out.get(d.bucket)
    if (list === undefined) out.set(d.bucket, [d])
    else list.push(d)
  }
  return out
}

const hashPair = (d: HashedDocument): string => `${d.dataHash}:${d.metadataHash}`

function sameContent (left: HashedDocument[], right: HashedDocument[]): boolean {
  if (left.length !== right.length) return false
  const l = left.map(hashPair).sort()
  const r = right.map(hashPair).sort()
  return l.every((h, i) => h === r[i])
}

const compare = (x: string, y: string): number => x < y ? -1 : x > y ? 1 : 0

/**
 * Each bucket's status, by bucket name. A bucket on both sides is unmodified when its sorted
 * (data hash, metadata hash) pairs are equal; a bucket on one side only is created when either side is 0,
 * otherwise created or deleted as seen from the newer revision. The argument order does not matter.
 */
export function bucketStatuses<T extends HashedDocument> (a: DiffSide<T>, b: DiffSide<T>): Record<string, BucketStatus> {
  const left = byBucket(a.documents)
  const right = byBucket(b.documents)
  const newer = a.revision > b.revision ? left : right
  const result: Record<string, BucketStatus> = {}
  for (const name of [...new Set([...left.keys(), ...right.keys()])].sort(compare)) {
    const l = left.get(name)
    const r = right.get(name)
    if (l !== undefined && r !== undefined) result[name] = sameContent(l, r) ? 'unmodified' : 'modified'
    else if (a.revision === 0 || b.revision === 0) result[name] = 'created'
    else result[name] = newer.has(name) ? 'created' : 'deleted'
  }
  return result
}

/** Documents by (schema, name); the first of a pair wins, as upstream's setdefault does. */
function byIdentity (documents: DiffedDocument[]): Map<string, DiffedDocument> {
  const out = new Map<string, DiffedDocument>()
  for (const d of documents) {
    const key = `${d.schema}\u0000${d.name}`
    if (!out.has(key)) out.set(key, d)
  }
  return out
}

function identities (docs: DiffedDocument[]): Array<[string, string]> {
  return docs.map((d): [string, string] => [d.schema, d.name]).sort((x, y) => compare(x[0], y[0]) || compare(x[1], y[1]))
}

/**
 * One modified bucket's report: documents only in the second side are added, only in the first
 * deleted; on both sides with other hashes, changed, keyed by Python's str() of the (schema, name) tuple.
 * The data of a document encrypted on either side is never compared, so no secret can reach the answer.
 */
function bucketReport (first: DiffedDocument[], second: DiffedDocument[]): Mapping {
  const before = byIdentity(first)
  const after = byIdentity(second)
  const added = [...after].filter(([k]) => !before.has(k)).map(([, d]) => d)
  const deleted = [...before].filter(([k]) => !after.has(k)).map(([, d]) => d)
  const changed: Array<[string, Mapping]> = []
  for (const [key, old] of before) {
    const now = after.get(key)
    if (now === undefined || hashPair(now) === hashPair(old)) continue
    const encrypted = isEncrypted(old.metadata) || isEncrypted(now.metadata)
    changed.push([`(${pyStr(old.schema, true)}, ${pyStr(old.name, true)})`, {
      data_changed: encrypted ? { encrypted: true } : valueDiff(old.data, now.data),
      metadata_changed: valueDiff(old.metadata, now.metadata)
    }])
  }
  const report: Mapping = {}
  if (added.length > 0) report.document_added = { count: added.length, details: identities(added) }
  if (changed.length > 0) {
    report.document_changed = { count: changed.length, details: Object.fromEntries(changed.sort(([x], [y]) => compare(x, y))) }
  }
  if (deleted.length > 0) report.document_deleted = { count: deleted.length, details: identities(deleted) }
  return report
}

/** The deep diff: every bucket's status, and a `<bucket> diff` report beside each modified one. */
export function deepBucketDiff (a: DiffSide<DiffedDocument>, b: DiffSide<DiffedDocument>): Mapping {
  const statuses = bucketStatuses(a, b)
  const left = byBucket(a.documents)
  const right = byBucket(b.documents)
  const result: Mapping = {}
  for (const [name, status] of Object.entries(statuses)) {
    result[name] = status
    if (status === 'modified') result[`${name} diff`] = bucketReport(left.get(name) ?? [], right.get(name) ?? [])
  }
  return Object.fromEntries(Object.entries(result).sort(([x], [y]) => compare(x, y)))
}
