// The orchestrator's tables (actions, validations, audit, notes, locks) behind one asynchronous interface, so that
// the embedded SQLite and PostgreSQL implementations are interchangeable.
import type { RunSummaryStore } from './run-summaries.ts'
import type { StagingJournal } from './staging-journal.ts'

export interface ActionRecord {
  id: string
  name: string
  parameters: Record<string, unknown>
  dag_id: string
  dag_execution_date: string | null
  user: string
  /** The caller's user id and project as its token named them (null: not named, or saved before they were kept). */
  user_id: string | null
  project_id: string | null
  /** ISO timestamp of the invocation. */
  datetime: string
  context_marker: string
  committed_rev_id: number | null
  allow_intermediate_commits: boolean
  /** True when a pre-run validation stopped the action before its workflow started. */
  validation_failed: boolean
  /** True once the action's final state was turned into site-action tags (or needs none). */
  tags_done: boolean
  /** Whether the engine has the action's run (run id = action id); see StartState. */
  start_state: StartState
  /** Why the start is pending or failed; null once started. */
  start_reason: string | null
  /** ISO timestamp of the last trigger sent for it; null when none was. */
  trigger_at: string | null
}

/**
 * `pending`: saved, its trigger sent or about to be, the run not confirmed by the engine; `started`: the engine has
 * the run; `failed`: the engine has no run and its trigger failed; `refused`: a pre-run validation stopped it.
 */
export type StartState = 'pending' | 'started' | 'failed' | 'refused'

/** The action whose id a run has: its workflow and start state. */
export interface RunOwner { dag_id: string, start_state: StartState }

export interface AuditRecord { id: string, action_id: string, command: string, user: string, datetime: string }

export interface ValidationFailureRecord { id: string, action_id: string, validation_name: string, details: string }

export interface NoteRecord {
  note_id: string
  assoc_id: string
  subject: string
  sub_type: string
  note_val: string
  verbosity: number
  link_url: string | null
  is_auth_link: boolean
  note_timestamp: string
}

/**
 * What GET /actions/{id} reads of one action, in one read: the action, its failed validations and command audit (as
 * validationFailures.listFor and audit.listFor answer them), and its notes and its steps' notes (as notes.find).
 */
export interface ActionDetailRecord {
  action: ActionRecord
  validations: ValidationFailureRecord[]
  audit: AuditRecord[]
  /** `action/<id>` notes with verbosity ≤ the action bound, oldest first. */
  actionNotes: NoteRecord[]
  /** `step/<id>/…` notes with verbosity ≤ the steps' bound, oldest first. */
  stepNotes: NoteRecord[]
}

export interface LockRecord {
  id: string
  lock_type: string
  user: string
  reference_id: string
  acquired_at: string
  expires_at: string
  released: boolean
}

/** A window of the action list: the actions whose id is greater than `since`, at most the `limit` newest of them. */
export interface ListWindow {
  since?: string
  limit?: number
}

export interface Repositories {
  actions: {
    /** Saves the action with what belongs to it from the start (its invoke audit, a failed validation): all or none. */
    insert: (action: ActionRecord, also?: { audit?: AuditRecord, failure?: ValidationFailureRecord }) => Promise<void>
    get: (id: string) => Promise<ActionRecord | undefined>
    /** All actions, oldest first; or a window of them: those after `since` (an action id), the `limit` newest. */
    list: (window?: ListWindow) => Promise<ActionRecord[]>
    /** Up to `limit` actions after `afterId` (an action id; '' for the first), oldest first: the whole list in pages. */
    page: (afterId: string, limit: number) => Promise<ActionRecord[]>
    /**
     * A token that changes whenever anything a list of actions shows from the database does: an action added, a start
     * settled or noted, an action's note added. Cheap (index reads); compared, never parsed.
     */
    listVersion: () => Promise<string>
    /** Actions whose workflow started and whose tags are not settled yet. */
    listTagsPending: () => Promise<ActionRecord[]>
    markTagsDone: (id: string) => Promise<void>
    /** Actions whose start is pending, oldest first. */
    listStartPending: () => Promise<ActionRecord[]>
    /** The engine has the run: a pending (or failed) start becomes started. Answers whether it changed. */
    markStarted: (id: string, dagExecutionDate: string | null) => Promise<boolean>
    /** A pending start failed, for `reason`. Answers whether it changed. */
    markStartFailed: (id: string, reason: string) => Promise<boolean>
    /** A trigger was sent (again) for a pending start, at `at`; `reason` says why it is still pending (null: unknown). */
    notePending: (id: string, at: string, reason: string | null) => Promise<void>
    /**
     * Started or pending actions of `name` with this context marker asked for by this caller — the same user id in the
     * same project (none: no project) — saved at or after `since`, newest first.
     */
    findRetries: (
      query: { contextMarker: string, userId: string, projectId: string | null, name: string, since: string }
    ) => Promise<ActionRecord[]>
    /**
     * Those of `ids` that are actions, each with its workflow and start state: whose a run of that id may be (an
     * action's run has the action's id and its workflow, and a refused action has none).
     */
    runOwners: (ids: string[]) => Promise<Map<string, RunOwner>>
    /**
     * The action and what belongs to it in one read (undefined: no such action); absent: read them one by one. It may
     * answer the same object again while nothing was written (SQLite keeps its answers): callers must not change it.
     */
    detail?: (id: string, maxVerbosity: { action: number, steps: number }) => Promise<ActionDetailRecord | undefined>
  }
  audit: {
    insert: (record: AuditRecord) => Promise<void>
    listFor: (actionId: string) => Promise<AuditRecord[]>
  }
  validationFailures: {
    insert: (record: ValidationFailureRecord) => Promise<void>
    listFor: (actionId: string) => Promise<ValidationFailureRecord[]>
  }
  notes: {
    insert: (note: NoteRecord) => Promise<void>
    get: (noteId: string) => Promise<NoteRecord | undefined>
    /** Notes whose assoc_id equals one of `exact` or starts with `prefix`, with verbosity ≤ max, oldest first. */
    find: (query: { exact?: string[], prefix?: string, maxVerbosity: number }) => Promise<NoteRecord[]>
  }
  locks: {
    /**
     * Takes the lock of `lockType` unless a live (unreleased, unexpired) one exists; one atomic step.
     * Answers the lock taken, or undefined when another holder has it.
     */
    acquire: (
      lock: { id: string, lock_type: string, user: string, reference_id: string, leaseS: number, now: Date }
    ) => Promise<LockRecord | undefined>
    /**
     * Extends the lock's lease to `leaseS` from `now` if it is still its holder's: not released, its lease not run
     * out, and no lock of its type taken after it (a holder whose clock runs behind the others' cannot keep a lock
     * another process has taken over). One atomic step, serialised with `acquire`. Answers whether it was extended.
     */
    renew: (lock: { id: string, leaseS: number, now: Date }) => Promise<boolean>
    release: (id: string) => Promise<void>
    get: (id: string) => Promise<LockRecord | undefined>
  }
  stagingJournal: StagingJournal
  /** The compact summaries of runs that ended for good (the engine watch's); absent: the watch keeps them itself. */
  runSummaries?: RunSummaryStore
  close: () => Promise<void>
}
