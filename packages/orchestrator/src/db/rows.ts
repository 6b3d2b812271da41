// The one reading of the tables' rows as records, for both databases: each hands its driver's row (an object of
// column values) here. Flags are stored as 0 and 1, JSON as text, and a missing value as NULL.
import type { ActionRecord, AuditRecord, LockRecord, NoteRecord, RunOwner, StartState, ValidationFailureRecord } from './repositories.ts'

export type Row = Record<string, unknown>

export function toAction (row: Row): ActionRecord {
  return {
    id: String(row.id),
    name: String(row.name),
    parameters: JSON.parse(String(row.parameters)) as Record<string, unknown>,
    dag_id: String(row.dag_id),
    dag_execution_date: row.dag_execution_date === null ? null : String(row.dag_execution_date),
    user: String(row.user),
    user_id: row.user_id === null || row.user_id === undefined ? null : String(row.user_id),
    project_id: row.project_id === null || row.project_id === undefined ? null : String(row.project_id),
    datetime: String(row.datetime),
    context_marker: String(row.context_marker),
    committed_rev_id: row.committed_rev_id === null ? null : Number(row.committed_rev_id),
    allow_intermediate_commits: Number(row.allow_intermediate_commits) === 1,
    validation_failed: Number(row.validation_failed) === 1,
    tags_done: Number(row.tags_done) === 1,
    start_state: String(row.start_state) as StartState,
    start_reason: row.start_reason === null ? null : String(row.start_reason),
    trigger_at: row.trigger_at === null ? null : String(row.trigger_at)
  }
}

export function toNote (row: Row): NoteRecord {
  return {
    note_id: String(row.note_id),
    assoc_id: String(row.assoc_id),
    subject: String(row.subject),
    sub_type: String(row.sub_type),
    note_val: String(row.note_val),
    verbosity: Number(row.verbosity),
    link_url: row.link_url === null ? null : String(row.link_url),
    is_auth_link: Number(row.is_auth_link) === 1,
    note_timestamp: String(row.note_timestamp)
  }
}

export function toLock (row: Row): LockRecord {
  return {
    id: String(row.id),
    lock_type: String(row.lock_type),
    user: String(row.user),
    reference_id: String(row.reference_id),
    acquired_at: String(row.acquired_at),
    expires_at: String(row.expires_at),
    released: Number(row.released) === 1
  }
}

export function toValidationFailure (row: Row): ValidationFailureRecord {
  return {
    id: String(row.id),
    action_id: String(row.action_id),
    validation_name: String(row.validation_name),
    details: String(row.details)
  }
}

export function toAudit (row: Row): AuditRecord {
  return {
    id: String(row.id),
    action_id: String(row.action_id),
    command: String(row.command),
    user: String(row.user),
    datetime: String(row.datetime)
  }
}

/** Each action's workflow and start state, by id, from rows of `id`, `dag_id` and `start_state`. */
export function toRunOwners (rows: Row[]): Map<string, RunOwner> {
  return new Map(rows.map((r) => [String(r.id), { dag_id: String(r.dag_id), start_state: String(r.start_state) as StartState }]))
}
