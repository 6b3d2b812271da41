// Schema versions of the orchestrator's database, applied in order at start-up (SQLite and PostgreSQL text).
import { STAGING_JOURNAL_TABLE } from './staging-journal.ts'
import { RUN_SUMMARIES_TABLE } from './run-summaries.ts'
export interface Migration { version: number, sqlite: string, postgres: string }

const TABLES = (json: string, bool: string, ts: string): string => `
CREATE TABLE actions (
  id VARCHAR(26) PRIMARY KEY,
  name VARCHAR(50) NOT NULL,
  parameters ${json} NOT NULL,
  dag_id TEXT NOT NULL,
  dag_execution_date TEXT,
  "user" TEXT NOT NULL,
  datetime ${ts} NOT NULL,
  context_marker VARCHAR(36) NOT NULL,
  committed_rev_id INTEGER,
  allow_intermediate_commits ${bool} NOT NULL,
  validation_failed ${bool} NOT NULL,
  tags_done ${bool} NOT NULL
);
CREATE INDEX actions_tags_pending ON actions (tags_done, validation_failed);
CREATE TABLE action_command_audit (
  id VARCHAR(26) PRIMARY KEY,
  action_id VARCHAR(26) NOT NULL,
  command TEXT NOT NULL,
  "user" TEXT NOT NULL,
  datetime ${ts} NOT NULL
);
CREATE INDEX audit_action ON action_command_audit (action_id);
CREATE TABLE preflight_validation_failures (
  id VARCHAR(26) PRIMARY KEY,
  action_id VARCHAR(26) NOT NULL,
  validation_name TEXT,
  details TEXT
);
CREATE INDEX failures_action ON preflight_validation_failures (action_id);
CREATE TABLE api_locks (
  id VARCHAR(26) PRIMARY KEY,
  lock_type VARCHAR(20) NOT NULL,
  "user" VARCHAR(64) NOT NULL,
  reference_id VARCHAR(36) NOT NULL,
  acquired_at ${ts} NOT NULL,
  expires_at ${ts} NOT NULL,
  released ${bool} NOT NULL
);
CREATE INDEX locks_live ON api_locks (lock_type, released, expires_at);
CREATE TABLE notes (
  note_id VARCHAR(26) PRIMARY KEY,
  assoc_id VARCHAR(128) NOT NULL,
  subject VARCHAR(128) NOT NULL,
  sub_type VARCHAR(128) NOT NULL,
  note_val TEXT NOT NULL,
  verbosity INTEGER NOT NULL CHECK (verbosity BETWEEN 1 AND 5),
  link_url TEXT,
  is_auth_link ${bool} NOT NULL,
  note_timestamp ${ts} NOT NULL
);
CREATE INDEX notes_assoc ON notes (assoc_id);
`

// An action is saved before its workflow is triggered, so that no run is ever without its action: `start_state` says
// whether the engine has the run (`started`), has not confirmed it yet (`pending`), has none after its trigger failed
// (`failed`), or was never asked (`refused`: a pre-run validation stopped it); `start_reason` says why it is pending
// or failed, `trigger_at` when its trigger was last sent. Actions saved before this had started or were refused.
const ACTION_STARTS = (ts: string): string => `
ALTER TABLE actions ADD COLUMN start_state VARCHAR(16) NOT NULL DEFAULT 'started';
ALTER TABLE actions ADD COLUMN start_reason TEXT;
ALTER TABLE actions ADD COLUMN trigger_at ${ts};
UPDATE actions SET start_state = 'refused' WHERE validation_failed = 1;
CREATE INDEX actions_start_state ON actions (start_state);
CREATE INDEX actions_context_marker ON actions (context_marker);
`

// Who asked for an action, as the token names the caller: the user id and the project, the key (with the context
// marker) of a request sent again. A user name alone is not: one name in two projects, or in two domains, is two
// callers. Actions saved before this have neither, and are never answered as a retry.
const ACTION_CALLERS = `
ALTER TABLE actions ADD COLUMN user_id TEXT;
ALTER TABLE actions ADD COLUMN project_id TEXT;
`

export const MIGRATIONS: Migration[] = [
  { version: 1, sqlite: TABLES('TEXT', 'INTEGER', 'TEXT'), postgres: TABLES('TEXT', 'INTEGER', 'TEXT') },
  { version: 2, ...STAGING_JOURNAL_TABLE },
  { version: 3, sqlite: ACTION_STARTS('TEXT'), postgres: ACTION_STARTS('TEXT') },
  { version: 4, sqlite: ACTION_CALLERS, postgres: ACTION_CALLERS },
  { version: 5, ...RUN_SUMMARIES_TABLE }
]
