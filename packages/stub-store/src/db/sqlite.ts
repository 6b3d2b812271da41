// The store's SQLite database (node:sqlite): revisions, per-revision document writes (copies and
// tombstones), tags, validation entries and encrypted secrets. Synchronous, so one write at a time.
import { DatabaseSync, type StatementSync } from 'node:sqlite'

export interface DocumentRow {
  id: number
  revision_id: number
  bucket: string
  schema: string
  layer: string
  name: string
  metadata: string
  data: string
  special: number
  data_hash: string
  metadata_hash: string
  origin_revision: number
  deleted: number
  created_at: string
}

export type NewDocumentRow = Omit<DocumentRow, 'id'>

export interface RevisionRow { id: number, created_at: string }
export interface TagRow { revision_id: number, tag: string, data: string }
export interface ValidationRow {
  id: number
  revision_id: number
  name: string
  status: string
  validator: string
  errors: string
  created_at: string
}
export interface SecretRow { ref: string, payload: Uint8Array, fingerprint: string }

const SCHEMA = `
CREATE TABLE IF NOT EXISTS revisions (id INTEGER PRIMARY KEY, created_at TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS documents (
  id INTEGER PRIMARY KEY,
  revision_id INTEGER NOT NULL,
  bucket TEXT NOT NULL,
  schema TEXT NOT NULL,
  layer TEXT NOT NULL,
  name TEXT NOT NULL,
  metadata TEXT NOT NULL,
  data TEXT NOT NULL,
  special INTEGER NOT NULL,
  data_hash TEXT NOT NULL,
  metadata_hash TEXT NOT NULL,
  origin_revision INTEGER NOT NULL,
  deleted INTEGER NOT NULL,
  created_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS documents_meta ON documents (schema, layer, name, id, revision_id, deleted);
CREATE INDEX IF NOT EXISTS documents_revision ON documents (revision_id, bucket);
CREATE TABLE IF NOT EXISTS tags (
  revision_id INTEGER NOT NULL,
  tag TEXT NOT NULL,
  data TEXT NOT NULL,
  PRIMARY KEY (revision_id, tag)
);
CREATE TABLE IF NOT EXISTS validations (
  id INTEGER PRIMARY KEY,
  revision_id INTEGER NOT NULL,
  name TEXT NOT NULL,
  status TEXT NOT NULL,
  validator TEXT NOT NULL,
  errors TEXT NOT NULL,
  created_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS validations_revision ON validations (revision_id, id);
CREATE TABLE IF NOT EXISTS secrets (ref TEXT PRIMARY KEY, payload BLOB NOT NULL, fingerprint TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
`

const DOC_COLUMNS = 'd.id, d.revision_id, d.bucket, d.schema, d.layer, d.name, d.metadata, d.data, d.special, d.data_hash, d.metadata_hash, d.origin_revision, d.deleted, d.created_at'
// the newest write of every (schema, layer, name) at or before a revision; ids grow with revisions
const NEWEST_WRITES = 'SELECT max(id) AS id FROM documents WHERE revision_id <= ? GROUP BY schema, layer, name'
// the same with the newest write's tombstone flag (SQLite takes bare columns from the max() row)
const LIVE_IDS = 'SELECT max(id) AS id, deleted FROM documents WHERE revision_id <= ? GROUP BY schema, layer, name'
// a revision's live documents without their bodies, in write order
const LIVE_SUMMARIES = `SELECT d.id, d.bucket, d.schema, d.layer, d.name, d.data_hash, d.metadata_hash, d.origin_revision, d.metadata FROM documents d JOIN (${NEWEST_WRITES}) m ON m.id = d.id WHERE d.deleted = 0 ORDER BY d.id`
type SummaryColumn = 'id' | 'bucket' | 'schema' | 'layer' | 'name' | 'data_hash' | 'metadata_hash' | 'origin_revision' | 'metadata'
const NEWEST_LAYERING_POLICY = `SELECT ${DOC_COLUMNS} FROM documents d WHERE d.schema LIKE 'deckhand/LayeringPolicy%' AND d.deleted = 0 ORDER BY d.id DESC LIMIT 1`
const INSERT_DOCUMENT = 'INSERT INTO documents (revision_id, bucket, schema, layer, name, metadata, data, special, ' +
  'data_hash, metadata_hash, origin_revision, deleted, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)'

export function openStoreDb (path: string) {
  const db = new DatabaseSync(path)
  if (path !== ':memory:') {
    db.exec('PRAGMA journal_mode = WAL')
    db.exec('PRAGMA synchronous = NORMAL')
  }
  db.exec('PRAGMA busy_timeout = 5000')
  db.exec(SCHEMA)

  const cache = new Map<string, StatementSync>()
  const stmt = (sql: string): StatementSync => {
    let s = cache.get(sql)
    if (s === undefined) {
      s = db.prepare(sql)
      cache.set(sql, s)
    }
    return s
  }

  function transaction<T> (fn: () => T): T {
    db.exec('BEGIN IMMEDIATE')
    try {
      const result = fn()
      db.exec('COMMIT')
      return result
    } catch (error) {
      db.exec('ROLLBACK')
      throw error
    }
  }

  return {
    transaction,
    close: () => { if (db.isOpen) db.close() },

    latestRevision: (): RevisionRow | undefined =>
      stmt('SELECT id, created_at FROM revisions ORDER BY id DESC LIMIT 1').get() as RevisionRow | undefined,
    getRevision: (id: number): RevisionRow | undefined =>
      stmt('SELECT id, created_at FROM revisions WHERE id = ?').get(id) as RevisionRow | undefined,
    listRevisions: (): RevisionRow[] => stmt('SELECT id, created_at FROM revisions ORDER BY id').all() as unknown as RevisionRow[],
    insertRevision (createdAt: string): number {
      const r = stmt('INSERT INTO revisions (created_at) VALUES (?)').run(createdAt)
      return Number(r.lastInsertRowid)
    },
    bucketsWrittenBy: (revisionId: number): string[] =>
      (stmt('SELECT DISTINCT bucket FROM documents WHERE revision_id = ? ORDER BY bucket').all(revisionId) as Array<{ bucket: string }>)
        .map((r) => r.bucket),
    bucketsWrittenByAll (): Map<number, string[]> {
      const out = new Map<number, string[]>()
      const pairs = stmt('SELECT DISTINCT revision_id, bucket FROM documents ORDER BY revision_id, bucket').all()
      for (const r of pairs as Array<{ revision_id: number, bucket: string }>) {
        const list = out.get(r.revision_id) ?? []
        list.push(r.bucket)
        out.set(r.revision_id, list)
      }
      return out
    },

    /** The live set of a revision (each document's newest copy up to it, tombstones left out), in write order. */
    liveDocuments (revisionId: number): DocumentRow[] {
      const newest = stmt(LIVE_IDS).all(revisionId) as Array<{ id: number, deleted: number }>
      const live = new Set<number>()
      for (const r of newest) if (r.deleted === 0) live.add(r.id)
      const written = (stmt('SELECT count(*) AS n FROM documents WHERE revision_id <= ?').get(revisionId) as { n: number }).n
      // mostly-live history: one sequential pass over the rowid range beats a lookup per live document
      if (written <= live.size * 2 + 64) {
        const upToRevision = `SELECT ${DOC_COLUMNS} FROM documents d WHERE d.id <= (SELECT max(id) FROM documents WHERE revision_id <= ?) ORDER BY d.id`
        const rows = stmt(upToRevision).all(revisionId) as unknown as DocumentRow[]
        return rows.filter((r) => live.has(r.id))
      }
      const newestLive = `SELECT ${DOC_COLUMNS} FROM documents d WHERE d.id IN (${NEWEST_WRITES}) AND d.deleted = 0 ORDER BY d.id`
      return stmt(newestLive).all(revisionId) as unknown as DocumentRow[]
    },
    /** The live set without bodies: enough for ownership checks and diffs. */
    liveSummaries: (revisionId: number): Array<Pick<DocumentRow, SummaryColumn>> =>
      stmt(LIVE_SUMMARIES).all(revisionId) as never,
    documentById: (id: number): DocumentRow | undefined =>
      stmt(`SELECT ${DOC_COLUMNS} FROM documents d WHERE d.id = ?`).get(id) as DocumentRow | undefined,
    writesOf: (revisionId: number): DocumentRow[] =>
      stmt(`SELECT ${DOC_COLUMNS} FROM documents d WHERE d.revision_id = ? ORDER BY d.id`).all(revisionId) as unknown as DocumentRow[],
    /** Every copy and tombstone written before a revision, oldest first. */
    writesBefore: (revisionId: number): DocumentRow[] =>
      stmt(`SELECT ${DOC_COLUMNS} FROM documents d WHERE d.revision_id < ? ORDER BY d.id`).all(revisionId) as unknown as DocumentRow[],
    newestLayeringPolicy: (): DocumentRow | undefined =>
      stmt(NEWEST_LAYERING_POLICY).get() as DocumentRow | undefined,
    insertDocument (row: NewDocumentRow): number {
      const r = stmt(INSERT_DOCUMENT).run(row.revision_id, row.bucket, row.schema, row.layer, row.name, row.metadata, row.data,
        row.special, row.data_hash, row.metadata_hash, row.origin_revision, row.deleted, row.created_at)
      return Number(r.lastInsertRowid)
    },

    tagsOf: (revisionId: number): TagRow[] =>
      stmt('SELECT revision_id, tag, data FROM tags WHERE revision_id = ? ORDER BY tag').all(revisionId) as unknown as TagRow[],
    allTags: (): TagRow[] => stmt('SELECT revision_id, tag, data FROM tags ORDER BY revision_id, tag').all() as unknown as TagRow[],
    /** Each revision's first tag still present, by creation (re-tagging keeps a tag's row, so its place). */
    firstTags (): Map<number, string> {
      const out = new Map<number, string>()
      for (const t of stmt('SELECT revision_id, tag FROM tags ORDER BY rowid').all() as Array<{ revision_id: number, tag: string }>) {
        if (!out.has(t.revision_id)) out.set(t.revision_id, t.tag)
      }
      return out
    },
    upsertTag: (revisionId: number, tag: string, data: string): void => {
      stmt('INSERT INTO tags (revision_id, tag, data) VALUES (?, ?, ?) ON CONFLICT (revision_id, tag) DO UPDATE SET data = excluded.data')
        .run(revisionId, tag, data)
    },
    deleteTag: (revisionId: number, tag: string): boolean =>
      Number(stmt('DELETE FROM tags WHERE revision_id = ? AND tag = ?').run(revisionId, tag).changes) > 0,
    deleteTags: (revisionId: number): void => { stmt('DELETE FROM tags WHERE revision_id = ?').run(revisionId) },

    insertValidation (row: Omit<ValidationRow, 'id'>): number {
      const r = stmt('INSERT INTO validations (revision_id, name, status, validator, errors, created_at) VALUES (?, ?, ?, ?, ?, ?)')
        .run(row.revision_id, row.name, row.status, row.validator, row.errors, row.created_at)
      return Number(r.lastInsertRowid)
    },
    validationsOf: (revisionId: number): ValidationRow[] =>
      stmt('SELECT * FROM validations WHERE revision_id = ? ORDER BY id').all(revisionId) as unknown as ValidationRow[],

    insertSecret: (row: SecretRow): void => {
      stmt('INSERT INTO secrets (ref, payload, fingerprint) VALUES (?, ?, ?)').run(row.ref, row.payload, row.fingerprint)
    },
    getSecret: (ref: string): SecretRow | undefined =>
      stmt('SELECT ref, payload, fingerprint FROM secrets WHERE ref = ?').get(ref) as SecretRow | undefined,

    getSetting: (key: string): string | undefined =>
      (stmt('SELECT value FROM settings WHERE key = ?').get(key) as { value: string } | undefined)?.value,
    setSetting: (key: string, value: string): void => {
      stmt('INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value').run(key, value)
    },

    /** Purge (DELETE /revisions): everything but settings; ids restart at 1 because the tables are empty. */
    purge (): void {
      db.exec('DELETE FROM documents; DELETE FROM tags; DELETE FROM validations; DELETE FROM secrets; DELETE FROM revisions;')
    }
  }
}

export type StoreDb = ReturnType<typeof openStoreDb>
