// The staging journal: one row for each configdocs staging whose store writes have begun and not yet ended, so
// that a staging cut short (the store failing, the orchestrator killed) can be undone later. A row holds no
// document text: it names each collection written and a revision that holds what the collection held before (none:
// it held no documents); undoing writes each collection back as that revision holds it (a revision never changes).
import type { DatabaseSync } from 'node:sqlite'

/** A collection a staging writes, and the revision holding what it held before (null: no documents). */
export interface UndoSource { collection: string, revision: number | null }

export interface StagingJournalEntry {
  id: string
  /** The collections the staging writes, in the order of their first write. */
  sources: UndoSource[]
  user: string
  context_marker: string
  /** ISO timestamp of the first write's start. */
  started_at: string
}

export interface StagingJournal {
  /** Records a staging about to write; must succeed before its first write. */
  begin: (entry: StagingJournalEntry) => Promise<void>
  /** Forgets a staging that ended: completed, or every write undone. Answers whether its row was still there. */
  finish: (id: string) => Promise<boolean>
  /** The stagings not ended, newest first. */
  pending: () => Promise<StagingJournalEntry[]>
}

const TABLE = (ts: string): string => `
CREATE TABLE staging_journal (
  id VARCHAR(26) PRIMARY KEY,
  sources TEXT NOT NULL,
  "user" TEXT NOT NULL,
  context_marker VARCHAR(36) NOT NULL,
  started_at ${ts} NOT NULL
);
`

/** The journal's table, as one migration's text for each database. */
export const STAGING_JOURNAL_TABLE = { sqlite: TABLE('TEXT'), postgres: TABLE('TEXT') }

function toEntry (row: Record<string, unknown>): StagingJournalEntry {
  return {
    id: String(row.id),
    sources: JSON.parse(String(row.sources)) as UndoSource[],
    user: String(row.user),
    context_marker: String(row.context_marker),
    started_at: String(row.started_at)
  }
}

export function sqliteStagingJournal (db: DatabaseSync): StagingJournal {
  const insert = db.prepare('INSERT INTO staging_journal (id, sources, "user", context_marker, started_at) VALUES (?, ?, ?, ?, ?)')
  const remove = db.prepare('DELETE FROM staging_journal WHERE id = ?')
  const list = db.prepare('SELECT * FROM staging_journal ORDER BY started_at DESC, id DESC')
  return {
    async begin (e) { insert.run(e.id, JSON.stringify(e.sources), e.user, e.context_marker, e.started_at) },
    finish: async (id) => Number(remove.run(id).changes) > 0,
    pending: async () => list.all().map((row) => toEntry(row as Record<string, unknown>))
  }
}

export function postgresStagingJournal (q: (text: string, values?: unknown[]) => Promise<Array<Record<string, unknown>>>): StagingJournal {
  return {
    async begin (e) {
      await q('INSERT INTO staging_journal (id, sources, "user", context_marker, started_at) VALUES ($1, $2, $3, $4, $5)',
        [e.id, JSON.stringify(e.sources), e.user, e.context_marker, e.started_at])
    },
    finish: async (id) => (await q('DELETE FROM staging_journal WHERE id = $1 RETURNING id', [id])).length > 0,
    pending: async () => (await q('SELECT * FROM staging_journal ORDER BY started_at DESC, id DESC')).map(toEntry)
  }
}
