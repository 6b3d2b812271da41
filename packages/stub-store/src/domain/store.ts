// The document store's rules (spec §5–§13): bucket writes, revisions and their live sets, listings, rendering
// with post-validation, diffs and rollback; redaction (§12), tags (§13.4) and validations (§10) come from their
// own modules, and Deckhand's departures from its documentation (quirk mode) from quirks.ts.
import type { DocumentRow, StoreDb } from '../db/sqlite.ts'
import { invalidDocumentFormat, invalidInput, revisionNotFound, StoreError } from '../errors.ts'
import type { ParsedDocument } from '../yaml/codec.ts'
import { RULES, type Access } from './access.ts'
import { schemaRegistry, validateAgainstSchemas } from './data-schemas.ts'
import {
  d001, DATA_SCHEMA, isAbstract, LAYERING_POLICY, layerOf, metaKey, structureProblems, VALIDATION_POLICY, withDefaults,
  type ValidationEntry
} from './documents.ts'
import { documentFilter, parseLimit, sortItems, values, type ListedDocument, type Query } from './filters.ts'
import { renderDocuments, type RenderDocument } from './render.ts'
import { bucketStatuses, deepBucketDiff, type BucketStatus, type DiffedDocument, type DiffSide, type HashedDocument } from './revision-diff.ts'
import { firstTagMatches, quirkRollbackRows } from './quirks.ts'
import { redact, showsCleartext } from './redaction.ts'
import { isSecretRef, type SecretStore } from './secrets.ts'
import { createTags, tagData } from './tags.ts'
import { createValidations } from './validations.ts'
import {
  contentHash, decodeStoredValue, decodeValue, encodeStoredValue, encodeValue, hasSpecial, isMapping,
  type Mapping
} from './values.ts'

export { RULES, type Access } from './access.ts'

const forbidden = (): StoreError => new StoreError(403, 'HTTPForbidden', 'Insufficient permissions to perform this action.')

/** Microsecond UTC timestamps without zone, like upstream's `createdAt`; strictly increasing. */
function createClock () {
  let last = 0
  return (): string => {
    let micros = Math.floor((performance.timeOrigin + performance.now()) * 1000)
    if (micros <= last) micros = last + 1
    last = micros
    const iso = new Date(Math.floor(micros / 1000)).toISOString().slice(0, 19)
    return `${iso}.${String(micros % 1_000_000).padStart(6, '0')}`
  }
}

interface Stored {
  row: DocumentRow
  metadata: Mapping
  data: unknown
}

function decode (row: DocumentRow): Stored {
  return { row, metadata: decodeStoredValue(row.metadata) as Mapping, data: decodeValue(row.data, row.special === 1) }
}

function listed (s: Stored, revision: number): ListedDocument {
  return { id: s.row.id, schema: s.row.schema, metadata: s.metadata, data: s.data, status: { bucket: s.row.bucket, revision } }
}

const hidden = (schema: string): boolean => schema.startsWith(VALIDATION_POLICY)

/** The query parameters that make a rendered-documents answer less than the whole rendering (filters.ts). */
const WHOLE_ANSWER_KEYS = ['schema', 'metadata.name', 'status.bucket', 'metadata.label', 'sort', 'order', 'limit']

export interface StoreDeps {
  db: StoreDb
  secrets: SecretStore
  /** Rendered results kept per (revision, secrets mode, encrypted access); 0 disables the cache. */
  renderCacheSize?: number
  /** Reproduce Deckhand where it departs from its documentation (quirks.ts); false: the documented rules. */
  deckhandQuirks?: boolean
}

export function createStore (deps: StoreDeps) {
  const { db, secrets } = deps
  const quirks = deps.deckhandQuirks ?? false
  const now = createClock()
  const cacheSize = deps.renderCacheSize ?? 8
  const renderCache = new Map<string, ListedDocument[]>()

  function clearCache (): void { renderCache.clear() }

  function revisionId (raw: string, errorType?: string): number {
    if (!/^\d+$/.test(raw)) throw revisionNotFound(raw, errorType)
    const id = Number(raw)
    if (db.getRevision(id) === undefined) throw revisionNotFound(raw, errorType)
    return id
  }

  // ---- buckets (spec §5) -------------------------------------------------------------------------

  function putBucket (bucket: string, parsed: ParsedDocument[], access: Access): { revision: number | undefined, documents: unknown[] } {
    const invalid = parsed.map((p, i) => (isMapping(p.value) && Object.keys(p.value).length > 0) ? -1 : i + 1).filter((i) => i > 0)
    if (invalid.length > 0) {
      throw new StoreError(400, 'HTTPBadRequest', `Expected a list of valid objects. Invalid entries found at following indexes: ${invalid.join(',')}.`)
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
        throw new StoreError(409, 'DuplicateDocumentExists', `Document [${schema}, ${layer === '' ? 'None' : layer}] ${name} already exists in bucket: ${bucket}.`)
      }
      seen.add(key)
      const data = 'data' in body ? body.data : {}
      incoming.push({ schema, layer, name, metadata, data, special: (parsed[i] as ParsedDocument).special || hasSpecial(data), key })
    }

    for (const doc of incoming) {
      if (doc.metadata.storagePolicy !== 'encrypted') continue
      const d = doc.data
      const empty = d === null || d === undefined || d === '' || (Array.isArray(d) && d.length === 0) || (isMapping(d) && Object.keys(d).length === 0)
      // spec §5.1 step 2: an encrypted document with nothing to hide is stored as cleartext
      if (empty) doc.metadata.storagePolicy = 'cleartext'
      else if (!access.can(RULES.createEncrypted)) throw forbidden()
    }

    return db.transaction(() => {
      const latest = db.latestRevision()
      const live = latest === undefined ? [] : db.liveSummaries(latest.id)
      const liveByKey = new Map(live.map((d) => [metaKey(d.schema, d.layer, d.name), d]))
      // spec §5.1 steps 3–4 check the full live set; Deckhand (quirk mode, ledger 1b and 2) checks only the copies
      // the latest revision wrote, so once another bucket was written a second LayeringPolicy or a document
      // already owned elsewhere is accepted (the stand-in then keeps the newest copy of that document live)
      const owned = quirks && latest !== undefined ? db.writesOf(latest.id).filter((d) => d.deleted === 0) : live
      const ownerByKey = quirks ? new Map(owned.map((d) => [metaKey(d.schema, d.layer, d.name), d])) : liveByKey

      // spec §5.1 step 3
      const livePolicy = owned.find((d) => d.schema.startsWith(LAYERING_POLICY))
      if (livePolicy !== undefined) {
        const conflicting = incoming.filter((d) => d.schema.startsWith(LAYERING_POLICY) &&
          d.key !== metaKey(livePolicy.schema, livePolicy.layer, livePolicy.name))
        if (conflicting.length > 0) {
          throw new StoreError(409, 'SingletonDocumentConflict', `A singleton document [${livePolicy.schema}, ${livePolicy.layer === '' ? 'None' : livePolicy.layer}] ${livePolicy.name} already exists in the system. The new document(s) ${conflicting.map((d) => `[${d.schema}, ${d.layer === '' ? 'None' : d.layer}] ${d.name}`).join(', ')} cannot be created. To create a document with a new name, delete the current one first.`)
        }
      }
      // spec §5.1 step 4: one bucket per document
      for (const doc of incoming) {
        const owner = ownerByKey.get(doc.key)
        if (owner !== undefined && owner.bucket !== bucket) {
          throw new StoreError(409, 'DuplicateDocumentExists', `Document [${doc.schema}, ${doc.layer === '' ? 'None' : doc.layer}] ${doc.name} already exists in bucket: ${owner.bucket}.`)
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

  // ---- revisions (spec §6) -----------------------------------------------------------------------

  function listRevisions (query: Query) {
    const buckets = db.bucketsWrittenByAll()
    const tags = new Map<number, string[]>()
    for (const t of db.allTags()) {
      const list = tags.get(t.revision_id) ?? []
      list.push(t.tag)
      tags.set(t.revision_id, list)
    }
    let results = db.listRevisions().map((r) => ({
      id: r.id,
      createdAt: r.created_at,
      buckets: buckets.get(r.id) ?? [],
      tags: (tags.get(r.id) ?? []).sort()
    }))
    const wantedTags = values(query, 'tag')
    if (wantedTags.length > 0) {
      // spec §6.3: a revision having any of the tags; Deckhand (quirk mode, ledger 4) looks at its first tag only
      const firstTags = quirks ? db.firstTags() : undefined
      results = results.filter((r) => firstTags !== undefined
        ? firstTagMatches(firstTags.get(r.id), wantedTags)
        : r.tags.some((t) => wantedTags.includes(t)))
    }
    const order = values(query, 'order').at(-1)
    results = sortItems(results, values(query, 'sort'), order === 'desc' ? 'desc' : 'asc')
    return { count: results.length, results }
  }

  function showRevision (raw: string, baseUrl: string) {
    const id = revisionId(raw)
    const row = db.getRevision(id)!
    const tags: Mapping = {}
    for (const t of db.tagsOf(id)) tags[t.tag] = tagData(t.data)
    const validationPolicies = db.writesOf(id)
      .filter((d) => d.deleted === 0 && d.schema.startsWith(VALIDATION_POLICY))
      .map((d) => ({ name: d.name, url: `${baseUrl}/revisions/${id}/documents?schema=${d.schema}&metadata.name=${d.name}`, status: 'unknown' }))
    return {
      id,
      createdAt: row.created_at,
      url: `${baseUrl}/revisions/${id}`,
      buckets: db.bucketsWrittenBy(id),
      tags,
      validationPolicies,
      status: validationPolicies.length > 0 ? 'failed' : 'success'
    }
  }

  function purge (): void {
    db.transaction(() => db.purge())
    clearCache()
  }

  // ---- documents (spec §7) -----------------------------------------------------------------------

  function liveStored (id: number, access: Access): Stored[] {
    const mayListEncrypted = access.can(RULES.listEncrypted)
    const out: Stored[] = []
    for (const row of db.liveDocuments(id)) {
      const s = decode(row)
      if (s.metadata.storagePolicy === 'encrypted' && !mayListEncrypted) continue
      out.push(s)
    }
    return out
  }

  function finish (docs: ListedDocument[], query: Query, withLayering: boolean, sortAlways: boolean): ListedDocument[] {
    const limit = parseLimit(query)
    const filter = documentFilter(query, withLayering)
    let out = docs.filter((d) => !hidden(d.schema) && filter(d))
    const sort = values(query, 'sort')
    const order = values(query, 'order').at(-1)
    if (sortAlways || sort.length > 0) out = sortItems(out, sort, order)
    if (limit !== undefined) out = out.slice(0, limit)
    return out
  }

  function listDocuments (raw: string, query: Query, access: Access): ListedDocument[] {
    // spec §7: upstream's documents endpoint names the error HTTPNotFound (same message)
    const id = revisionId(raw, 'HTTPNotFound')
    const cleartext = showsCleartext(query, access)
    parseLimit(query)
    const docs = liveStored(id, access).map((s) => listed(s, s.row.origin_revision))
    const out = finish(docs, query, true, true)
    return cleartext ? out : out.map(redact)
  }

  // ---- rendering (spec §8) -----------------------------------------------------------------------

  function renderRevision (id: number, cleartext: boolean, access: Access): ListedDocument[] {
    const mayListEncrypted = access.can(RULES.listEncrypted)
    const cacheKey = `${id}:${cleartext ? 1 : 0}:${mayListEncrypted ? 1 : 0}`
    const cached = renderCache.get(cacheKey)
    if (cached !== undefined) return cached

    const stored = liveStored(id, access)
    if (!stored.some((s) => s.row.schema.startsWith(LAYERING_POLICY))) {
      const fallback = db.newestLayeringPolicy()
      if (fallback !== undefined) stored.push(decode(fallback))
    }
    const input: RenderDocument[] = stored.map((s) => ({
      id: s.row.id,
      schema: s.row.schema,
      name: s.row.name,
      layer: s.row.layer,
      metadata: s.metadata,
      data: s.metadata.storagePolicy === 'encrypted' && isSecretRef(s.data) ? secrets.get(s.data) : s.data,
      bucket: s.row.bucket,
      revision: s.row.origin_revision
    }))
    const { documents, returned } = renderDocuments(input, { cleartextSecrets: cleartext, deckhandQuirks: quirks })
    const out = documents.filter(returned)

    // spec §8 step 5 also re-checks structure (D001, 500): rendering changes only `data`, plus a storagePolicy
    // flip in metadata, and every stored document passed that check at PUT, so the re-check cannot fail and is
    // left out of this hot path. Validation sees the real substitution paths (redaction comes after, §8 step 6).
    const registry = schemaRegistry(input.filter((d) => d.schema.startsWith(DATA_SCHEMA)).map((d) => ({ name: d.name, data: d.data })))
    const failures = validateAgainstSchemas(out.filter((d) => !isAbstract(d.metadata)), registry)
    if (failures.length > 0) throw invalidDocumentFormat(failures)

    const result = out.map((d): ListedDocument =>
      ({ id: d.id, schema: d.schema, metadata: d.metadata, data: d.data, status: { bucket: d.bucket, revision: d.revision } }))
    if (cacheSize > 0) {
      if (renderCache.size >= cacheSize) renderCache.delete(renderCache.keys().next().value as string)
      renderCache.set(cacheKey, result)
    }
    return result
  }

  // a cached rendering's whole answer (no filter, sort or limit), made once: the same list every time it is asked
  // for, so that the route can send the bytes it emitted for it before (http.ts)
  const wholeAnswers = new WeakMap<ListedDocument[], ListedDocument[]>()

  function renderedDocuments (raw: string, query: Query, access: Access): ListedDocument[] {
    const id = revisionId(raw)
    const cleartext = showsCleartext(query, access)
    parseLimit(query)
    const rendered = renderRevision(id, cleartext, access)
    if (!WHOLE_ANSWER_KEYS.every((key) => values(query, key).length === 0)) {
      return finish(cleartext ? rendered : rendered.map(redact), query, false, false)
    }
    let answer = wholeAnswers.get(rendered)
    if (answer === undefined) {
      answer = finish(cleartext ? rendered : rendered.map(redact), query, false, false)
      wholeAnswers.set(rendered, answer)
    }
    return answer
  }

  // ---- diff and rollback (spec §13) --------------------------------------------------------------

  function diffId (raw: string): number {
    if (!/^\d+$/.test(raw)) throw invalidInput(raw)
    const id = Number(raw)
    if (id !== 0 && db.getRevision(id) === undefined) throw revisionNotFound(raw)
    return id
  }

  function diffSide (id: number): DiffSide<HashedDocument> {
    const documents = id === 0
      ? []
      : db.liveSummaries(id).map((d) => ({ bucket: d.bucket, dataHash: d.data_hash, metadataHash: d.metadata_hash }))
    return { revision: id, documents }
  }

  function diff (rawA: string, rawB: string): Record<string, BucketStatus> {
    const a = diffId(rawA)
    const b = diffId(rawB)
    return bucketStatuses(diffSide(a), diffSide(b))
  }

  /**
   * One side of a deep diff (spec §13.2): the revision's rendered documents as the redacted rendered view
   * shows them (0: none, not rendered), each with the hashes of the stored copy it was rendered from.
   */
  function deepDiffSide (id: number, access: Access): DiffSide<DiffedDocument> {
    if (id === 0) return { revision: 0, documents: [] }
    const rendered = renderRevision(id, false, access).filter((d) => !hidden(d.schema)).map(redact)
    const live = new Map(db.liveSummaries(id).map((d) => [d.id, d]))
    const documents = rendered.map((d): DiffedDocument => {
      // the fallback LayeringPolicy of spec §8 step 2 is rendered without being live in the revision
      const stored = live.get(d.id) ?? db.documentById(d.id) as DocumentRow
      return {
        bucket: d.status.bucket,
        schema: d.schema,
        name: d.metadata.name as string,
        dataHash: stored.data_hash,
        metadataHash: stored.metadata_hash,
        metadata: d.metadata,
        data: d.data
      }
    })
    return { revision: id, documents }
  }

  function deepDiff (rawA: string, rawB: string, access: Access): Mapping {
    const a = diffId(rawA)
    const b = diffId(rawB)
    return deepBucketDiff(deepDiffSide(a, access), deepDiffSide(b, access))
  }

  function rollback (raw: string, access: Access, baseUrl: string) {
    if (!/^\d+$/.test(raw)) throw revisionNotFound(raw)
    const target = Number(raw)
    if (target !== 0 && db.getRevision(target) === undefined) throw revisionNotFound(raw)
    const created = db.transaction(() => {
      const latest = db.latestRevision()
      const latestLive = latest === undefined ? [] : db.liveSummaries(latest.id)
      if (latestLive.some((d) => (JSON.parse(d.metadata) as Mapping).storagePolicy === 'encrypted') && !access.can(RULES.createEncrypted)) throw forbidden()
      // spec §13.3: the target's live set; Deckhand (quirk mode) restores oldest copies instead (quirkRollbackRows)
      const targetRows = target === 0
        ? []
        : quirks ? quirkRollbackRows(db.writesOf(target), db.writesBefore(target)) : db.liveDocuments(target)
      const targetBuckets = new Set(targetRows.map((d) => d.bucket))
      const latestHashes = new Set(latestLive.map((d) => `${d.data_hash}:${d.metadata_hash}`))
      const createdAt = now()
      const rev = db.insertRevision(createdAt)
      for (const d of latestLive) if (!targetBuckets.has(d.bucket)) writeTombstone(rev, d.bucket, d, createdAt)
      for (const d of targetRows) {
        const unchanged = latestHashes.has(`${d.data_hash}:${d.metadata_hash}`)
        db.insertDocument({ ...d, revision_id: rev, origin_revision: unchanged ? target : rev, created_at: createdAt })
      }
      clearCache()
      return rev
    })
    return showRevision(String(created), baseUrl)
  }

  const tags = createTags({ db, revisionId })
  const validations = createValidations({ db, now, revisionId })

  return {
    putBucket,
    listRevisions,
    showRevision,
    purge,
    listDocuments,
    renderedDocuments,
    diff,
    deepDiff,
    rollback,
    ...tags,
    ...validations
  }
}

export type Store = ReturnType<typeof createStore>
