// The embedded database: node:sqlite in ORCHESTRATOR_DATA_DIR (or in memory), migrated at start-up.
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { DatabaseSync, type StatementSync } from 'node:sqlite'
import type { AuditRecord, NoteRecord, Repositories, ValidationFailureRecord } from './repositories.ts'
import { MIGRATIONS } from './migrations.ts'
import { sqliteStagingJournal } from './staging-journal.ts'
import { sqliteActionDetail } from './sqlite-action-detail.ts'
import { sqliteRunSummaries } from './run-summaries.ts'
import { listVersionOf, listVersionSql } from './list-version.ts'
import { toAction, toLock, toNote, toRunOwners, type Row } from './rows.ts'

/** Applies the migrations not applied yet, each in its own transaction. */
function migrate (db: DatabaseSync): void {
  db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY)')
  const applied = new Set(db.prepare('SELECT version FROM schema_migrations').all().map((r) => Number((r as Row).version)))
  for (const migration of MIGRATIONS) {
    if (applied.has(migration.version)) continue
    db.exec('BEGIN')
    try {
      db.exec(migration.sqlite)
      db.prepare('INSERT INTO schema_migrations (version) VALUES (?)').run(migration.version)
      db.exec('COMMIT')
    } catch (error) {
      db.exec('ROLLBACK')
      throw error
    }
  }
}

/** Statements whose text varies (which of the notes filters are given), compiled once and kept while in use. */
function adHocStatements (db: DatabaseSync): (sql: string) => StatementSync {
  const adHoc = new Map<string, StatementSync>()
  return (sql) => {
    let statement = adHoc.get(sql)
    if (statement === undefined) {
      statement = db.prepare(sql)
      if (adHoc.size >= 64) adHoc.delete(adHoc.keys().next().value as string)
    } else {
      adHoc.delete(sql)
    }
    adHoc.set(sql, statement)
    return statement
  }
}

/** The fixed reads and writes, compiled once. */
function prepareStatements (db: DatabaseSync) {
  return {
    insertAction: db.prepare(`INSERT INTO actions (id, name, parameters, dag_id, dag_execution_date, "user", datetime, context_marker,
    committed_rev_id, allow_intermediate_commits, validation_failed, tags_done, start_state, start_reason, trigger_at, user_id,
    project_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
    getAction: db.prepare('SELECT * FROM actions WHERE id = ?'),
    listActions: db.prepare('SELECT * FROM actions ORDER BY id'),
    pageActions: db.prepare('SELECT * FROM actions WHERE id > ? ORDER BY id LIMIT ?'),
    // a window: the newest first, turned back to oldest first (LIMIT -1: no limit)
    listWindow: db.prepare('SELECT * FROM actions WHERE id > ? ORDER BY id DESC LIMIT ?'),
    // '0' follows '/': every `action/…` id and nothing else
    listVersion: listVersionSql('assoc_id >= \'action/\' AND assoc_id < \'action0\'').map((sql) => db.prepare(sql)),
    tagsPending: db.prepare(
      'SELECT * FROM actions WHERE tags_done = 0 AND validation_failed = 0 AND start_state = \'started\' ORDER BY id'),
    markTags: db.prepare('UPDATE actions SET tags_done = 1 WHERE id = ?'),
    startPending: db.prepare('SELECT * FROM actions WHERE start_state = \'pending\' ORDER BY id'),
    markStarted: db.prepare(`UPDATE actions SET start_state = 'started', start_reason = NULL,
    dag_execution_date = COALESCE(?, dag_execution_date) WHERE id = ? AND start_state IN ('pending', 'failed')`),
    markStartFailed: db.prepare('UPDATE actions SET start_state = \'failed\', start_reason = ? WHERE id = ? AND start_state = \'pending\''),
    notePending: db.prepare('UPDATE actions SET trigger_at = ?, start_reason = ? WHERE id = ? AND start_state = \'pending\''),
    // IS: no project matches no project
    retries: db.prepare(`SELECT * FROM actions WHERE context_marker = ? AND user_id = ? AND project_id IS ? AND name = ?
    AND datetime >= ? AND start_state IN ('pending', 'started') ORDER BY id DESC`),
    // the ids as one JSON array: one statement whatever their number
    runOwners: db.prepare('SELECT id, dag_id, start_state FROM actions WHERE id IN (SELECT value FROM json_each(?))'),
    insertAudit: db.prepare('INSERT INTO action_command_audit (id, action_id, command, "user", datetime) VALUES (?, ?, ?, ?, ?)'),
    listAudit: db.prepare('SELECT * FROM action_command_audit WHERE action_id = ? ORDER BY datetime, id'),
    insertFailure: db.prepare('INSERT INTO preflight_validation_failures (id, action_id, validation_name, details) VALUES (?, ?, ?, ?)'),
    listFailures: db.prepare('SELECT * FROM preflight_validation_failures WHERE action_id = ? ORDER BY id'),
    insertNote: db.prepare(`INSERT INTO notes (note_id, assoc_id, subject, sub_type, note_val, verbosity, link_url, is_auth_link,
    note_timestamp) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`),
    getNote: db.prepare('SELECT * FROM notes WHERE note_id = ?'),
    liveLock: db.prepare(
      'SELECT * FROM api_locks WHERE lock_type = ? AND released = 0 AND expires_at > ? ORDER BY acquired_at DESC, id DESC LIMIT 1'),
    insertLock: db.prepare(
      'INSERT INTO api_locks (id, lock_type, "user", reference_id, acquired_at, expires_at, released) VALUES (?, ?, ?, ?, ?, ?, 0)'),
    // the lock's own row, if nothing has taken the lock since: see renew in repositories.ts
    renewLock: db.prepare(`UPDATE api_locks SET expires_at = ? WHERE id = ? AND released = 0 AND expires_at > ?
    AND NOT EXISTS (SELECT 1 FROM api_locks later WHERE later.lock_type = api_locks.lock_type AND later.id <> api_locks.id
      AND later.released = 0 AND later.acquired_at >= api_locks.acquired_at)`),
    releaseLock: db.prepare('UPDATE api_locks SET released = 1 WHERE id = ?'),
    getLock: db.prepare('SELECT * FROM api_locks WHERE id = ?')
  }
}

type Statements = ReturnType<typeof prepareStatements>

function sqliteActions (db: DatabaseSync, stmt: Statements): Repositories['actions'] {
  // GET /actions/{id}'s one read, and its answers kept while nothing is written (sqlite-action-detail.ts)
  const actionDetail = sqliteActionDetail(db)
  return {
    async insert (a, also = {}) {
      // node:sqlite is synchronous: nothing of this process runs between BEGIN and COMMIT
      db.exec('BEGIN IMMEDIATE')
      try {
        stmt.insertAction.run(a.id, a.name, JSON.stringify(a.parameters), a.dag_id, a.dag_execution_date, a.user, a.datetime,
          a.context_marker, a.committed_rev_id, a.allow_intermediate_commits ? 1 : 0, a.validation_failed ? 1 : 0, a.tags_done ? 1 : 0,
          a.start_state, a.start_reason, a.trigger_at, a.user_id, a.project_id)
        const { audit: r, failure: f } = also
        if (r !== undefined) stmt.insertAudit.run(r.id, r.action_id, r.command, r.user, r.datetime)
        if (f !== undefined) stmt.insertFailure.run(f.id, f.action_id, f.validation_name, f.details)
        db.exec('COMMIT')
      } catch (error) {
        db.exec('ROLLBACK')
        throw error
      }
    },
    async get (id) {
      const row = stmt.getAction.get(id) as Row | undefined
      return row === undefined ? undefined : toAction(row)
    },
    list: async (window) => window === undefined
      ? stmt.listActions.all().map((r) => toAction(r as Row))
      : stmt.listWindow.all(window.since ?? '', window.limit ?? -1).reverse().map((r) => toAction(r as Row)),
    page: async (afterId, limit) => stmt.pageActions.all(afterId, limit).map((r) => toAction(r as Row)),
    listVersion: async () => listVersionOf(stmt.listVersion.map((s) => s.all() as Row[])),
    listTagsPending: async () => stmt.tagsPending.all().map((r) => toAction(r as Row)),
    async markTagsDone (id) { stmt.markTags.run(id) },
    listStartPending: async () => stmt.startPending.all().map((r) => toAction(r as Row)),
    markStarted: async (id, date) => Number(stmt.markStarted.run(date, id).changes) > 0,
    markStartFailed: async (id, reason) => Number(stmt.markStartFailed.run(reason, id).changes) > 0,
    async notePending (id, at, reason) { stmt.notePending.run(at, reason, id) },
    findRetries: async (q) => stmt.retries.all(q.contextMarker, q.userId, q.projectId, q.name, q.since).map((r) => toAction(r as Row)),
    async runOwners (ids) {
      const rows = ids.length === 0 ? [] : stmt.runOwners.all(JSON.stringify(ids)) as Row[]
      return toRunOwners(rows)
    },
    detail: async (id, maxVerbosity) => actionDetail(id, maxVerbosity)
  }
}

function sqliteNotes (stmt: Statements, prepared: (sql: string) => StatementSync): Repositories['notes'] {
  return {
    async insert (n) {
      stmt.insertNote.run(n.note_id, n.assoc_id, n.subject, n.sub_type, n.note_val, n.verbosity, n.link_url,
        n.is_auth_link ? 1 : 0, n.note_timestamp)
    },
    async get (noteId) {
      const row = stmt.getNote.get(noteId) as Row | undefined
      return row === undefined ? undefined : toNote(row)
    },
    async find ({ exact = [], prefix, maxVerbosity }) {
      if (maxVerbosity < 1 || (exact.length === 0 && prefix === undefined)) return []
      const clauses: string[] = []
      const params: Array<string | number> = []
      // the ids as one JSON parameter: one statement text whatever their number (a text per count left a compiled
      // statement behind for each, whose native memory only a rare garbage collection gave back)
      if (exact.length > 0) { clauses.push('assoc_id IN (SELECT value FROM json_each(?))'); params.push(JSON.stringify(exact)) }
      // a prefix as a range of the (binary-collated) index: everything from the prefix up to, not including, the
      // prefix with its last character's successor
      if (prefix !== undefined && prefix !== '') {
        clauses.push('(assoc_id >= ? AND assoc_id < ?)')
        const chars = [...prefix]
        const last = chars.pop() as string
        params.push(prefix, chars.join('') + String.fromCodePoint((last.codePointAt(0) ?? 0) + 1))
      }
      const sql = `SELECT * FROM notes WHERE (${clauses.join(' OR ')}) AND verbosity <= ? ORDER BY note_timestamp, note_id`
      const rows = prepared(sql).all(...params, maxVerbosity)
      return rows.map((r) => toNote(r as Row))
    }
  }
}

function sqliteLocks (db: DatabaseSync, stmt: Statements): Repositories['locks'] {
  return {
    async acquire ({ id, lock_type: lockType, user, reference_id: referenceId, leaseS, now }) {
      // node:sqlite is synchronous: check and insert cannot interleave with another request of this process,
      // and BEGIN IMMEDIATE keeps another process off the table meanwhile
      db.exec('BEGIN IMMEDIATE')
      try {
        const live = stmt.liveLock.get(lockType, now.toISOString()) as Row | undefined
        if (live !== undefined) { db.exec('COMMIT'); return undefined }
        stmt.insertLock.run(id, lockType, user, referenceId, now.toISOString(), new Date(now.getTime() + leaseS * 1000).toISOString())
        db.exec('COMMIT')
      } catch (error) {
        db.exec('ROLLBACK')
        throw error
      }
      return toLock(stmt.getLock.get(id) as Row)
    },
    // one statement: another process's acquire (BEGIN IMMEDIATE) cannot interleave with it
    renew: async ({ id, leaseS, now }) =>
      Number(stmt.renewLock.run(new Date(now.getTime() + leaseS * 1000).toISOString(), id, now.toISOString()).changes) > 0,
    async release (id) { stmt.releaseLock.run(id) },
    async get (id) {
      const row = stmt.getLock.get(id) as Row | undefined
      return row === undefined ? undefined : toLock(row)
    }
  }
}

/** Opens (and migrates) the database in `dataDir`, or in memory for `:memory:`. */
export function openSqlite (dataDir: string): Repositories {
  let path = ':memory:'
  if (dataDir !== ':memory:') {
    mkdirSync(dataDir, { recursive: true })
    path = join(dataDir, 'orchestrator.sqlite')
  }
  const db = new DatabaseSync(path)
  db.exec('PRAGMA journal_mode = WAL; PRAGMA busy_timeout = 5000; PRAGMA foreign_keys = ON;')
  migrate(db)
  const stmt = prepareStatements(db)
  return {
    actions: sqliteActions(db, stmt),
    audit: {
      async insert (r: AuditRecord) { stmt.insertAudit.run(r.id, r.action_id, r.command, r.user, r.datetime) },
      listFor: async (actionId) => stmt.listAudit.all(actionId) as unknown as AuditRecord[]
    },
    validationFailures: {
      async insert (r: ValidationFailureRecord) { stmt.insertFailure.run(r.id, r.action_id, r.validation_name, r.details) },
      listFor: async (actionId) => stmt.listFailures.all(actionId) as unknown as ValidationFailureRecord[]
    },
    notes: sqliteNotes(stmt, adHocStatements(db)),
    locks: sqliteLocks(db, stmt),
    stagingJournal: sqliteStagingJournal(db),
    runSummaries: sqliteRunSummaries(db),
    async close () { if (db.isOpen) db.close() }
  }
}

export type { NoteRecord }
