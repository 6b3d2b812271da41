// GET /actions/{id}'s read on SQLite: one statement for the action and what belongs to it, and a prepared cache of
// its answers that is never stale — every answer is kept with the database's change count (this connection's changes,
// total_changes()) and data version (other connections' commits, PRAGMA data_version), and any change at all, to any
// table, by this process or another, drops the cache before the next read. A polled action is read from the
// database again only after something was written.
import type { DatabaseSync } from 'node:sqlite'
import type { ActionDetailRecord, AuditRecord, ValidationFailureRecord } from './repositories.ts'
import { toAction, toNote, type Row } from './rows.ts'

/** Most answers kept: the actions being polled, not every action ever read. */
const KEPT = 256

const NOTE = "json_object('note_id', n.note_id, 'assoc_id', n.assoc_id, 'subject', n.subject, 'sub_type', n.sub_type, " +
  "'note_val', n.note_val, 'verbosity', n.verbosity, 'link_url', n.link_url, 'is_auth_link', n.is_auth_link, 'note_timestamp', n.note_timestamp)"

// the action row and, as JSON lists in the order each list read gives them, its failed validations, its audit, its
// notes and its steps' notes (the steps' prefix as a range of the index, as notes.find reads it)
const DETAIL = `SELECT a.*,
  (SELECT json_group_array(json_object('id', f.id, 'action_id', f.action_id, 'validation_name', f.validation_name, 'details', f.details)
    ORDER BY f.id) FROM preflight_validation_failures f WHERE f.action_id = a.id) AS detail_validations,
  (SELECT json_group_array(json_object('id', c.id, 'action_id', c.action_id, 'command', c.command, 'user', c."user", 'datetime', c.datetime)
    ORDER BY c.datetime, c.id) FROM action_command_audit c WHERE c.action_id = a.id) AS detail_audit,
  (SELECT json_group_array(${NOTE} ORDER BY n.note_timestamp, n.note_id)
    FROM notes n WHERE n.assoc_id = 'action/' || a.id AND n.verbosity <= $actionVerbosity) AS detail_action_notes,
  (SELECT json_group_array(${NOTE} ORDER BY n.note_timestamp, n.note_id)
    FROM notes n WHERE n.assoc_id >= $stepsFrom AND n.assoc_id < $stepsTo AND n.verbosity <= $stepsVerbosity) AS detail_step_notes
  FROM actions a WHERE a.id = $id`

export function sqliteActionDetail (db: DatabaseSync) {
  const detail = db.prepare(DETAIL)
  const version = db.prepare('SELECT total_changes() AS changes, (SELECT data_version FROM pragma_data_version) AS data')
  const kept = new Map<string, ActionDetailRecord>()
  let keptAt = ''

  function read (id: string, maxVerbosity: { action: number, steps: number }): ActionDetailRecord | undefined {
    // `step/<id>/` up to, not including, `step/<id>0` ('0' follows '/')
    const row = detail.get({
      id,
      actionVerbosity: maxVerbosity.action,
      stepsFrom: `step/${id}/`,
      stepsTo: `step/${id}0`,
      stepsVerbosity: maxVerbosity.steps
    }) as Row | undefined
    if (row === undefined) return undefined
    const list = (column: string): Row[] => JSON.parse(String(row[column])) as Row[]
    return {
      action: toAction(row),
      validations: list('detail_validations') as unknown as ValidationFailureRecord[],
      audit: list('detail_audit') as unknown as AuditRecord[],
      actionNotes: list('detail_action_notes').map(toNote),
      stepNotes: list('detail_step_notes').map(toNote)
    }
  }

  /** The detail, the same object as last time while nothing was written (callers must not change it). */
  return function actionDetail (id: string, maxVerbosity: { action: number, steps: number }): ActionDetailRecord | undefined {
    const now = version.get() as Row
    const at = `${String(now.changes)}:${String(now.data)}`
    if (at !== keptAt) {
      kept.clear()
      keptAt = at
    }
    const key = `${id}\u0000${maxVerbosity.action}\u0000${maxVerbosity.steps}`
    const found = kept.get(key)
    if (found !== undefined) return found
    const fresh = read(id, maxVerbosity)
    if (fresh === undefined) return undefined
    if (kept.size >= KEPT) kept.delete(kept.keys().next().value as string)
    kept.set(key, fresh)
    return fresh
  }
}
