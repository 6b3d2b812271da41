// The document store's rules: bucket writes (bucket-writes.ts), revisions and their live sets, listings,
// rendering with post-validation, diffs and rollback; redaction, tags and validations come from their own modules,
// and Deckhand's departures from its documentation (quirk mode) from quirks.ts.
import type { DocumentRow, StoreDb } from '../db/sqlite.ts'
import { invalidDocumentFormat, invalidInput, revisionNotFound } from '../errors.ts'
import { RULES, type Access } from './access.ts'
import { createBucketWrites, forbidden, hidden } from './bucket-writes.ts'
import { schemaRegistry, validateAgainstSchemas } from './data-schemas.ts'
import { DATA_SCHEMA, isAbstract, LAYERING_POLICY, VALIDATION_POLICY } from './documents.ts'
import { documentFilter, parseLimit, sortItems, values, type ListedDocument, type Query } from './filters.ts'
import { renderDocuments, type RenderDocument } from './render.ts'
import {
  bucketStatuses, deepBucketDiff, type BucketStatus, type DiffedDocument, type DiffSide, type HashedDocument
} from './revision-diff.ts'
import { firstTagMatches, quirkRollbackRows } from './quirks.ts'
import { redact, showsCleartext } from './redaction.ts'
import { isSecretRef, type SecretStore } from './secrets.ts'
import { createTags, tagData } from './tags.ts'
import { createValidations } from './validations.ts'
import { decodeStoredValue, decodeValue, type Mapping } from './values.ts'

export { RULES, type Access } from './access.ts'

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

  const { putBucket, writeTombstone } = createBucketWrites({ db, secrets, quirks, now, clearCache })

  // ---- revisions ------------------------------------------------------------------------------------

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
      // a revision having any of the tags; Deckhand (quirk mode) looks at its first tag only
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
      .map((d) => ({
        name: d.name,
        url: `${baseUrl}/revisions/${id}/documents?schema=${d.schema}&metadata.name=${d.name}`,
        status: 'unknown'
      }))
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

  // ---- documents ------------------------------------------------------------------------------------

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
    // Deckhand's documents endpoint names the error HTTPNotFound (same message)
    const id = revisionId(raw, 'HTTPNotFound')
    const cleartext = showsCleartext(query, access)
    parseLimit(query)
    const docs = liveStored(id, access).map((s) => listed(s, s.row.origin_revision))
    const out = finish(docs, query, true, true)
    return cleartext ? out : out.map(redact)
  }

  // ---- rendering ------------------------------------------------------------------------------------

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

    // Deckhand also re-checks structure after rendering (D001, 500): rendering changes only `data`, plus a
    // storagePolicy flip in metadata, and every stored document passed that check at PUT, so the re-check cannot fail
    // and is left out of this hot path. Validation sees the real substitution paths (redaction comes after).
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

  // ---- diff and rollback ----------------------------------------------------------------------------

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
   * One side of a deep diff: the revision's rendered documents as the redacted rendered view
   * shows them (0: none, not rendered), each with the hashes of the stored copy it was rendered from.
   */
  function deepDiffSide (id: number, access: Access): DiffSide<DiffedDocument> {
    if (id === 0) return { revision: 0, documents: [] }
    const rendered = renderRevision(id, false, access).filter((d) => !hidden(d.schema)).map(redact)
    const live = new Map(db.liveSummaries(id).map((d) => [d.id, d]))
    const documents = rendered.map((d): DiffedDocument => {
      // the fallback LayeringPolicy (a revision without one borrows the newest stored anywhere) is rendered without
      // being live in the revision
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
      const encrypted = latestLive.some((d) => (JSON.parse(d.metadata) as Mapping).storagePolicy === 'encrypted')
      if (encrypted && !access.can(RULES.createEncrypted)) throw forbidden()
      // the target's live set; Deckhand (quirk mode) restores oldest copies instead (quirkRollbackRows)
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
