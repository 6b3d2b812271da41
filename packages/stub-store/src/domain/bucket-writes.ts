// Bucket writes: a PUT of a bucket's documents checked whole (structure, duplicates, the one layering policy, one
// bucket per document, the right to write secrets) and then written as one new revision with its tombstones, or not
// at all. Secrets go to the secret store; an unchanged secret keeps its reference, so its hash and diffs stay.
import type { StoreDb } from '../db/sqlite.ts'
import { invalidDocumentFormat, StoreError } from '../errors.ts'
import type { ParsedDocument } from '../yaml/codec.ts'
import { RULES, type Access } from './access.ts'
import {
  d001, LAYERING_POLICY, layerOf, metaKey, structureProblems, VALIDATION_POLICY, withDefaults, type ValidationEntry
} from './documents.ts'
import { isSecretRef, type SecretStore } from './secrets.ts'
import { contentHash, decodeValue, encodeStoredValue, encodeValue, hasSpecial, isMapping, type Mapping } from './values.ts'

export const forbidden = (): StoreError => new StoreError(403, 'HTTPForbidden', 'Insufficient permissions to perform this action.')

/** Documents of the validation policy schema are stored but never listed. */
export const hidden = (schema: string): boolean => schema.startsWith(VALIDATION_POLICY)

export interface BucketWriteDeps {
  db: StoreDb
  secrets: SecretStore
  /** Deckhand's own checks of ownership (quirks.ts) in place of the documented ones. */
  quirks: boolean
  now: () => string
  /** Called once a write has changed the live set: every kept rendering is stale. */
  clearCache: () => void
}

/** A document as the conflict messages name it: `[schema, layer] name`, an empty layer spelled None. */
function named (d: { schema: string, layer: string, name: string }): string {
  return `[${d.schema}, ${d.layer === '' ? 'None' : d.layer}] ${d.name}`
}

export function createBucketWrites ({ db, secrets, quirks, now, clearCache }: BucketWriteDeps) {
  function putBucket (bucket: string, parsed: ParsedDocument[], access: Access): { revision: number | undefined, documents: unknown[] } {
    const invalid = parsed.map((p, i) => (isMapping(p.value) && Object.keys(p.value).length > 0) ? -1 : i + 1).filter((i) => i > 0)
    if (invalid.length > 0) {
      throw new StoreError(400, 'HTTPBadRequest',
        `Expected a list of valid objects. Invalid entries found at following indexes: ${invalid.join(',')}.`)
    }
    const bodies = parsed.map((p) => p.value as Mapping)
    const entries: ValidationEntry[] = []
    for (const body of bodies) for (const problem of structureProblems(body)) entries.push(d001(body, problem))
    if (entries.length > 0) throw invalidDocumentFormat(entries)

    interface Incoming { schema: string, layer: string, name: string, metadata: Mapping, data: unknown, special: boolean, key: string }
    const incoming: Incoming[] = []
    const seen = new Set<string>()
    for (let i = 0; i < bodies.length; i++) {
      const body = bodies[i] as Mapping
      const metadata = withDefaults(body.metadata as Mapping)
      const schema = body.schema as string
      const layer = layerOf(metadata)
      const name = metadata.name as string
      const key = metaKey(schema, layer, name)
      if (seen.has(key)) {
        throw new StoreError(409, 'DuplicateDocumentExists',
          `Document [${schema}, ${layer === '' ? 'None' : layer}] ${name} already exists in bucket: ${bucket}.`)
      }
      seen.add(key)
      const data = 'data' in body ? body.data : {}
      incoming.push({ schema, layer, name, metadata, data, special: (parsed[i] as ParsedDocument).special || hasSpecial(data), key })
    }

    for (const doc of incoming) {
      if (doc.metadata.storagePolicy !== 'encrypted') continue
      const d = doc.data
      const empty = d === null || d === undefined || d === '' || (Array.isArray(d) && d.length === 0) ||
        (isMapping(d) && Object.keys(d).length === 0)
      // an encrypted document with nothing to hide is stored as cleartext
      if (empty) doc.metadata.storagePolicy = 'cleartext'
      else if (!access.can(RULES.createEncrypted)) throw forbidden()
    }

    return db.transaction(() => {
      const latest = db.latestRevision()
      const live = latest === undefined ? [] : db.liveSummaries(latest.id)
      const liveByKey = new Map(live.map((d) => [metaKey(d.schema, d.layer, d.name), d]))
      // the documented rules check the full live set; Deckhand itself (quirk mode) checks only the copies
      // the latest revision wrote, so once another bucket was written a second LayeringPolicy or a document
      // already owned elsewhere is accepted (the stand-in then keeps the newest copy of that document live)
      const owned = quirks && latest !== undefined ? db.writesOf(latest.id).filter((d) => d.deleted === 0) : live
      const ownerByKey = quirks ? new Map(owned.map((d) => [metaKey(d.schema, d.layer, d.name), d])) : liveByKey

      // one live layering policy: another name is a conflict
      const livePolicy = owned.find((d) => d.schema.startsWith(LAYERING_POLICY))
      if (livePolicy !== undefined) {
        const conflicting = incoming.filter((d) => d.schema.startsWith(LAYERING_POLICY) &&
          d.key !== metaKey(livePolicy.schema, livePolicy.layer, livePolicy.name))
        if (conflicting.length > 0) {
          throw new StoreError(409, 'SingletonDocumentConflict',
            `A singleton document ${named(livePolicy)} already exists in the system. The new document(s) ${conflicting.map(named).join(', ')} cannot be created. To create a document with a new name, delete the current one first.`)
        }
      }
      // a document lives in one bucket: another bucket's document of the same schema, layer and name is a conflict
      for (const doc of incoming) {
        const owner = ownerByKey.get(doc.key)
        if (owner !== undefined && owner.bucket !== bucket) {
          throw new StoreError(409, 'DuplicateDocumentExists',
            `Document [${doc.schema}, ${doc.layer === '' ? 'None' : doc.layer}] ${doc.name} already exists in bucket: ${owner.bucket}.`)
        }
      }
      const deletions = live.filter((d) => d.bucket === bucket && !seen.has(metaKey(d.schema, d.layer, d.name)))
      if (incoming.length === 0 && deletions.length === 0) return { revision: undefined, documents: [] }

      const createdAt = now()
      const rev = db.insertRevision(createdAt)
      const out: unknown[] = []
      for (const doc of incoming) {
        const current = liveByKey.get(doc.key)
        let data = doc.data
        let special = doc.special
        if (doc.metadata.storagePolicy === 'encrypted') {
          let reuse: string | undefined
          if (current !== undefined) {
            // an unchanged secret keeps its reference, so the data hash (and the diff) stays the same
            const stored = liveDataOf(current.id)
            if (isSecretRef(stored)) reuse = stored
          }
          data = secrets.put(doc.data, reuse)
          special = false
        }
        const dataHash = contentHash(data)
        const metadataHash = contentHash(doc.metadata)
        const origin = current !== undefined && current.data_hash === dataHash && current.metadata_hash === metadataHash
          ? current.origin_revision
          : rev
        const id = db.insertDocument({
          revision_id: rev,
          bucket,
          schema: doc.schema,
          layer: doc.layer,
          name: doc.name,
          metadata: encodeStoredValue(doc.metadata),
          data: encodeValue(data, special),
          special: special ? 1 : 0,
          data_hash: dataHash,
          metadata_hash: metadataHash,
          origin_revision: origin,
          deleted: 0,
          created_at: createdAt
        })
        if (!hidden(doc.schema)) out.push({ id, schema: doc.schema, metadata: doc.metadata, data, status: { bucket, revision: rev } })
      }
      for (const d of deletions) writeTombstone(rev, d.bucket, d, createdAt)
      clearCache()
      return { revision: rev, documents: out.length > 0 ? out : [{ status: { bucket, revision: rev } }] }
    })
  }

  function liveDataOf (documentId: number): unknown {
    const row = db.documentById(documentId)
    return row === undefined ? undefined : decodeValue(row.data, row.special === 1)
  }

  function writeTombstone (
    rev: number,
    bucket: string,
    d: { schema: string, layer: string, name: string, metadata: string },
    createdAt: string
  ): void {
    db.insertDocument({
      revision_id: rev,
      bucket,
      schema: d.schema,
      layer: d.layer,
      name: d.name,
      metadata: d.metadata,
      data: '{}',
      special: 0,
      data_hash: contentHash({}),
      metadata_hash: contentHash({}),
      origin_revision: rev,
      deleted: 1,
      created_at: createdAt
    })
  }

  return { putBucket, writeTombstone }
}
