// PostgreSQL (DATABASE_URL) through `pg`, the same tables and semantics as the embedded SQLite.
import pg from 'pg'
import type { ActionDetailRecord, Repositories } from './repositories.ts'
import { MIGRATIONS } from './migrations.ts'
import { postgresStagingJournal } from './staging-journal.ts'
import { postgresRunSummaries } from './run-summaries.ts'
import { listVersionOf, listVersionSql } from './list-version.ts'
import { toAction, toAudit, toLock, toNote, toRunOwners, toValidationFailure, type Row } from './rows.ts'

const ACTION_LIST_VERSION = listVersionSql('left(assoc_id, 7) = \'action/\'')

type Query = (text: string, values?: unknown[]) => Promise<Row[]>

/** Applies the migrations not applied yet, each in its own transaction, under one advisory lock so two instances do not race. */
async function migrate (pool: pg.Pool): Promise<void> {
  const client = await pool.connect()
  try {
    await client.query('SELECT pg_advisory_lock(7414001)')
    await client.query('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY)')
    const applied = new Set((await client.query('SELECT version FROM schema_migrations')).rows.map((r: Row) => Number(r.version)))
    for (const migration of MIGRATIONS) {
      if (applied.has(migration.version)) continue
      await client.query('BEGIN')
      try {
        await client.query(migration.postgres)
        await client.query('INSERT INTO schema_migrations (version) VALUES ($1)', [migration.version])
        await client.query('COMMIT')
      } catch (error) {
        await client.query('ROLLBACK')
        throw error
      }
    }
  } finally {
    await client.query('SELECT pg_advisory_unlock(7414001)').catch(() => {})
    client.release()
  }
}

/** `work` in one transaction on a connection of its own: committed when it returns, rolled back when it throws. */
async function inTransaction<T> (pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect()
  try {
    await client.query('BEGIN')
    const result = await work(client)
    await client.query('COMMIT')
    return result
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {})
    throw error
  } finally {
    client.release()
  }
}

function postgresActions (pool: pg.Pool, q: Query): Repositories['actions'] {
  return {
    async insert (a, also = {}) {
      await inTransaction(pool, async (client) => {
        await client.query(`INSERT INTO actions (id, name, parameters, dag_id, dag_execution_date, "user", datetime, context_marker,
        committed_rev_id, allow_intermediate_commits, validation_failed, tags_done, start_state, start_reason, trigger_at, user_id,
        project_id)
        VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)`,
        [a.id, a.name, JSON.stringify(a.parameters), a.dag_id, a.dag_execution_date, a.user, a.datetime, a.context_marker,
          a.committed_rev_id, a.allow_intermediate_commits ? 1 : 0, a.validation_failed ? 1 : 0, a.tags_done ? 1 : 0,
          a.start_state, a.start_reason, a.trigger_at, a.user_id, a.project_id])
        const { audit: r, failure: f } = also
        if (r !== undefined) {
          await client.query(
            'INSERT INTO action_command_audit (id, action_id, command, "user", datetime) VALUES ($1, $2, $3, $4, $5)',
            [r.id, r.action_id, r.command, r.user, r.datetime])
        }
        if (f !== undefined) {
          await client.query(
            'INSERT INTO preflight_validation_failures (id, action_id, validation_name, details) VALUES ($1, $2, $3, $4)',
            [f.id, f.action_id, f.validation_name, f.details])
        }
      })
    },
    async get (id) {
      const row = (await q('SELECT * FROM actions WHERE id = $1', [id]))[0]
      return row === undefined ? undefined : toAction(row)
    },
    list: async (window) => window === undefined
      ? (await q('SELECT * FROM actions ORDER BY id')).map(toAction)
      // a window: the newest first, turned back to oldest first (LIMIT NULL: no limit)
      : (await q('SELECT * FROM actions WHERE id > $1 ORDER BY id DESC LIMIT $2', [window.since ?? '', window.limit ?? null]))
          .reverse().map(toAction),
    page: async (afterId, limit) => (await q('SELECT * FROM actions WHERE id > $1 ORDER BY id LIMIT $2', [afterId, limit])).map(toAction),
    listVersion: async () => listVersionOf(await Promise.all(ACTION_LIST_VERSION.map(async (sql) => await q(sql)))),
    listTagsPending: async () => (await q(
      'SELECT * FROM actions WHERE tags_done = 0 AND validation_failed = 0 AND start_state = \'started\' ORDER BY id'
    )).map(toAction),
    async markTagsDone (id) { await q('UPDATE actions SET tags_done = 1 WHERE id = $1', [id]) },
    listStartPending: async () => (await q('SELECT * FROM actions WHERE start_state = \'pending\' ORDER BY id')).map(toAction),
    async markStarted (id, date) {
      const sql = `UPDATE actions SET start_state = 'started', start_reason = NULL,
        dag_execution_date = COALESCE($1, dag_execution_date) WHERE id = $2 AND start_state IN ('pending', 'failed')`
      return (await pool.query(sql, [date, id])).rowCount !== 0
    },
    async markStartFailed (id, reason) {
      const sql = 'UPDATE actions SET start_state = \'failed\', start_reason = $1 WHERE id = $2 AND start_state = \'pending\''
      return (await pool.query(sql, [reason, id])).rowCount !== 0
    },
    async notePending (id, at, reason) {
      await q('UPDATE actions SET trigger_at = $1, start_reason = $2 WHERE id = $3 AND start_state = \'pending\'', [at, reason, id])
    },
    async findRetries (query) {
      // IS NOT DISTINCT FROM: no project matches no project
      const sql = `SELECT * FROM actions WHERE context_marker = $1 AND user_id = $2 AND project_id IS NOT DISTINCT FROM $3
        AND name = $4 AND datetime >= $5 AND start_state IN ('pending', 'started') ORDER BY id DESC`
      return (await q(sql, [query.contextMarker, query.userId, query.projectId, query.name, query.since])).map(toAction)
    },
    async runOwners (ids) {
      const rows = ids.length === 0 ? [] : await q('SELECT id, dag_id, start_state FROM actions WHERE id = ANY($1::text[])', [ids])
      return toRunOwners(rows)
    },
    detail: async (id, maxVerbosity) => await actionDetail(q, id, maxVerbosity)
  }
}

/**
 * One round trip: the action row and, as JSON lists in the order each list read gives them, its failed
 * validations, its audit, its notes and its steps' notes.
 */
async function actionDetail (
  q: Query, id: string, maxVerbosity: { action: number, steps: number }
): Promise<ActionDetailRecord | undefined> {
  const row = (await q(`SELECT a.*,
      COALESCE((SELECT json_agg(f ORDER BY f.id) FROM preflight_validation_failures f WHERE f.action_id = a.id), '[]')
        AS detail_validations,
      COALESCE((SELECT json_agg(c ORDER BY c.datetime, c.id) FROM action_command_audit c WHERE c.action_id = a.id), '[]')
        AS detail_audit,
      COALESCE((SELECT json_agg(n ORDER BY n.note_timestamp, n.note_id) FROM notes n
        WHERE n.assoc_id = 'action/' || a.id AND n.verbosity <= $2), '[]') AS detail_action_notes,
      COALESCE((SELECT json_agg(n ORDER BY n.note_timestamp, n.note_id) FROM notes n
        WHERE left(n.assoc_id, length($3::text)) = $3::text AND n.verbosity <= $4), '[]') AS detail_step_notes
      FROM actions a WHERE a.id = $1`, [id, maxVerbosity.action, `step/${id}/`, maxVerbosity.steps]))[0]
  if (row === undefined) return undefined
  const list = (column: string): Row[] => row[column] as Row[]
  return {
    action: toAction(row),
    validations: list('detail_validations').map(toValidationFailure),
    audit: list('detail_audit').map(toAudit),
    actionNotes: list('detail_action_notes').map(toNote),
    stepNotes: list('detail_step_notes').map(toNote)
  }
}

function postgresRecords (q: Query): Pick<Repositories, 'audit' | 'validationFailures' | 'notes'> {
  return {
    audit: {
      async insert (r) {
        await q('INSERT INTO action_command_audit (id, action_id, command, "user", datetime) VALUES ($1, $2, $3, $4, $5)',
          [r.id, r.action_id, r.command, r.user, r.datetime])
      },
      listFor: async (actionId) => (await q(
        'SELECT id, action_id, command, "user", datetime FROM action_command_audit WHERE action_id = $1 ORDER BY datetime, id',
        [actionId])).map(toAudit)
    },
    validationFailures: {
      async insert (r) {
        await q('INSERT INTO preflight_validation_failures (id, action_id, validation_name, details) VALUES ($1, $2, $3, $4)',
          [r.id, r.action_id, r.validation_name, r.details])
      },
      listFor: async (actionId) => (await q(
        'SELECT * FROM preflight_validation_failures WHERE action_id = $1 ORDER BY id', [actionId])).map(toValidationFailure)
    },
    notes: {
      async insert (n) {
        await q(`INSERT INTO notes (note_id, assoc_id, subject, sub_type, note_val, verbosity, link_url, is_auth_link, note_timestamp)
          VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
        [n.note_id, n.assoc_id, n.subject, n.sub_type, n.note_val, n.verbosity, n.link_url, n.is_auth_link ? 1 : 0, n.note_timestamp])
      },
      async get (noteId) {
        const row = (await q('SELECT * FROM notes WHERE note_id = $1', [noteId]))[0]
        return row === undefined ? undefined : toNote(row)
      },
      async find ({ exact = [], prefix, maxVerbosity }) {
        if (maxVerbosity < 1 || (exact.length === 0 && prefix === undefined)) return []
        const rows = await q(`SELECT * FROM notes
          WHERE (assoc_id = ANY($1::text[]) OR ($2::text IS NOT NULL AND left(assoc_id, length($2::text)) = $2::text))
          AND verbosity <= $3 ORDER BY note_timestamp, note_id`, [exact, prefix ?? null, maxVerbosity])
        return rows.map(toNote)
      }
    }
  }
}

function postgresLocks (pool: pg.Pool, q: Query): Repositories['locks'] {
  return {
    async acquire ({ id, lock_type: lockType, user, reference_id: referenceId, leaseS, now }) {
      const taken = await inTransaction(pool, async (client) => {
        // serialise acquirers of this lock type for the length of the transaction
        await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [lockType])
        const live = await client.query(
          'SELECT id FROM api_locks WHERE lock_type = $1 AND released = 0 AND expires_at > $2 LIMIT 1',
          [lockType, now.toISOString()])
        if (live.rows.length > 0) return false
        await client.query(
          'INSERT INTO api_locks (id, lock_type, "user", reference_id, acquired_at, expires_at, released) VALUES ($1, $2, $3, $4, $5, $6, 0)',
          [id, lockType, user, referenceId, now.toISOString(), new Date(now.getTime() + leaseS * 1000).toISOString()])
        return true
      })
      return taken ? toLock((await q('SELECT * FROM api_locks WHERE id = $1', [id]))[0] as Row) : undefined
    },
    renew: async ({ id, leaseS, now }) => await inTransaction(pool, async (client) => {
      // the acquirers' lock of this type: an acquire that read this lease as run out has inserted its own row
      // before this looks, or reads the lease extended
      await client.query('SELECT pg_advisory_xact_lock(hashtext(lock_type)) FROM api_locks WHERE id = $1', [id])
      const renewed = await client.query(`UPDATE api_locks SET expires_at = $1 WHERE id = $2 AND released = 0 AND expires_at > $3
        AND NOT EXISTS (SELECT 1 FROM api_locks later WHERE later.lock_type = api_locks.lock_type AND later.id <> api_locks.id
          AND later.released = 0 AND later.acquired_at >= api_locks.acquired_at)`,
      [new Date(now.getTime() + leaseS * 1000).toISOString(), id, now.toISOString()])
      return renewed.rowCount !== 0
    }),
    async release (id) { await q('UPDATE api_locks SET released = 1 WHERE id = $1', [id]) },
    async get (id) {
      const row = (await q('SELECT * FROM api_locks WHERE id = $1', [id]))[0]
      return row === undefined ? undefined : toLock(row)
    }
  }
}

/** Connects, migrates, and answers the repositories. */
export async function openPostgres (url: string, options: { schema?: string } = {}): Promise<Repositories> {
  const searchPath = options.schema === undefined ? {} : { options: `-c search_path=${options.schema}` }
  const pool = new pg.Pool({ connectionString: url, max: 10, ...searchPath })
  await migrate(pool)
  let closed = false
  const q = async (text: string, values: unknown[] = []): Promise<Row[]> => (await pool.query(text, values)).rows as Row[]

  return {
    actions: postgresActions(pool, q),
    ...postgresRecords(q),
    locks: postgresLocks(pool, q),
    stagingJournal: postgresStagingJournal(q),
    runSummaries: postgresRunSummaries(q, async (work) => await inTransaction(pool, async (client) =>
      await work(async (text, values = []) => (await client.query(text, values)).rows as Row[]))),
    async close () {
      if (closed) return
      closed = true
      await pool.end()
    }
  }
}
