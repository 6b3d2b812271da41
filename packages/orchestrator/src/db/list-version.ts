// The action list's database token, read the same way from SQLite and PostgreSQL: what a list shows from the database
// changes only by an action added, a start that settles (its state counted), a pending start noted again (its reason
// shown) or an action note added; each of those changes one of these three index reads. No row is ever deleted.
import { createHash } from 'node:crypto'
import type { Row } from './rows.ts'

/**
 * The three reads; `actionNotes` is the condition that picks the notes of actions (assoc_id `action/<id>`) in the
 * database's own way: SQLite compares bytes, so a range of the index; PostgreSQL may collate by locale, so a prefix.
 */
export const listVersionSql = (actionNotes: string): string[] => [
  'SELECT start_state, count(*) AS n FROM actions GROUP BY start_state ORDER BY start_state',
  'SELECT id, start_reason, trigger_at FROM actions WHERE start_state = \'pending\' ORDER BY id',
  `SELECT count(*) AS n, max(note_id) AS newest FROM notes WHERE ${actionNotes}`
]

/** The token of the three reads' rows: short, and the same for the same rows whatever the database. */
export function listVersionOf (results: Row[][]): string {
  const text = JSON.stringify(results.map((rows) => rows.map((row) => Object.values(row).map((v) => v == null ? null : String(v)))))
  return createHash('sha256').update(text).digest('base64url').slice(0, 22)
}
