// The compact final summaries of engine runs that ended for good: what the engine watch would otherwise keep in
// memory for every run a site ever made. One row a run: its DAG and run id, its logical date (the workflow list's
// filter), and two JSON texts the watch writes and reads back as it wrote them (the run's few fields the
// orchestrator reads; each step's task id, map index and state). A run that changes again in the engine is held by
// the watch again, and its row is written anew when it ends.
import type { DatabaseSync } from 'node:sqlite'

export interface RunSummaryRecord {
  dag_id: string
  run_id: string
  logical_date: string | null
  /** JSON text, as the watch wrote it. */
  run: string
  /** JSON text, as the watch wrote it. */
  steps: string
}

export interface RunSummaryStore {
  /** Writes these summaries, each replacing the run's earlier one; all or none. */
  put: (records: RunSummaryRecord[]) => Promise<void>
  /** The summaries of these runs (dag id and run id) that are kept, in no particular order. */
  get: (keys: Array<{ dag_id: string, run_id: string }>) => Promise<RunSummaryRecord[]>
  /** Every summary of these DAGs (all DAGs: undefined), oldest run id first. */
  all: (dagIds?: string[]) => Promise<RunSummaryRecord[]>
  /** The DAG and run id of every summary kept. */
  keys: () => Promise<Array<{ dag_id: string, run_id: string }>>
}

const TABLE = `
CREATE TABLE run_summaries (
  dag_id TEXT NOT NULL,
  run_id TEXT NOT NULL,
  logical_date TEXT,
  run TEXT NOT NULL,
  steps TEXT NOT NULL,
  PRIMARY KEY (dag_id, run_id)
);
`

/** The summaries' table, as one migration's text for each database. */
export const RUN_SUMMARIES_TABLE = { sqlite: TABLE, postgres: TABLE }

/** Keys and DAG ids go to the database as one JSON parameter: one statement text whatever their number. */
const toRecord = (row: Record<string, unknown>): RunSummaryRecord => ({
  dag_id: String(row.dag_id),
  run_id: String(row.run_id),
  logical_date: row.logical_date == null ? null : String(row.logical_date),
  run: String(row.run),
  steps: String(row.steps)
})

const UPSERT = `INSERT INTO run_summaries (dag_id, run_id, logical_date, run, steps) VALUES (?, ?, ?, ?, ?)
  ON CONFLICT (dag_id, run_id) DO UPDATE SET logical_date = excluded.logical_date, run = excluded.run, steps = excluded.steps`

export function sqliteRunSummaries (db: DatabaseSync): RunSummaryStore {
  const upsert = db.prepare(UPSERT)
  const byKeys = db.prepare(`SELECT s.* FROM json_each(?) AS k JOIN run_summaries AS s
    ON s.dag_id = json_extract(k.value, '$[0]') AND s.run_id = json_extract(k.value, '$[1]')`)
  const all = db.prepare('SELECT * FROM run_summaries ORDER BY run_id, dag_id')
  const ofDags = db.prepare('SELECT * FROM run_summaries WHERE dag_id IN (SELECT value FROM json_each(?)) ORDER BY run_id, dag_id')
  const keys = db.prepare('SELECT dag_id, run_id FROM run_summaries')
  return {
    async put (records) {
      if (records.length === 0) return
      db.exec('BEGIN IMMEDIATE')
      try {
        for (const r of records) upsert.run(r.dag_id, r.run_id, r.logical_date, r.run, r.steps)
        db.exec('COMMIT')
      } catch (error) {
        db.exec('ROLLBACK')
        throw error
      }
    },
    async get (wanted) {
      if (wanted.length === 0) return []
      return byKeys.all(JSON.stringify(wanted.map((k) => [k.dag_id, k.run_id]))).map((row) => toRecord(row as Record<string, unknown>))
    },
    all: async (dagIds) => (dagIds === undefined ? all.all() : ofDags.all(JSON.stringify(dagIds)))
      .map((row) => toRecord(row as Record<string, unknown>)),
    keys: async () => keys.all().map((row) => ({ dag_id: String(row.dag_id), run_id: String(row.run_id) }))
  }
}

type Query = (text: string, values?: unknown[]) => Promise<Array<Record<string, unknown>>>

export function postgresRunSummaries (q: Query, transaction: <T>(work: (q: Query) => Promise<T>) => Promise<T>): RunSummaryStore {
  let n = 0
  const upsert = UPSERT.replace(/\?/g, () => `$${++n}`)
  return {
    async put (records) {
      if (records.length === 0) return
      await transaction(async (tq) => {
        for (const r of records) await tq(upsert, [r.dag_id, r.run_id, r.logical_date, r.run, r.steps])
      })
    },
    async get (wanted) {
      if (wanted.length === 0) return []
      const rows = await q(`SELECT s.* FROM run_summaries AS s
        JOIN unnest($1::text[], $2::text[]) AS k(dag_id, run_id) ON s.dag_id = k.dag_id AND s.run_id = k.run_id`,
      [wanted.map((k) => k.dag_id), wanted.map((k) => k.run_id)])
      return rows.map(toRecord)
    },
    all: async (dagIds) => (dagIds === undefined
      ? await q('SELECT * FROM run_summaries ORDER BY run_id COLLATE "C", dag_id COLLATE "C"')
      : await q('SELECT * FROM run_summaries WHERE dag_id = ANY($1::text[]) ORDER BY run_id COLLATE "C", dag_id COLLATE "C"', [dagIds])
    ).map(toRecord),
    keys: async () => (await q('SELECT dag_id, run_id FROM run_summaries'))
      .map((row) => ({ dag_id: String(row.dag_id), run_id: String(row.run_id) }))
  }
}
