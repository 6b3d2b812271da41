// Differences between stub-engine and a real Airflow that stay, each with the reason it cannot (or need not) be
// removed; stub-engine's README lists the same. A difference matches an entry when every field the entry gives
// matches it. Anything the differential test finds that matches no entry fails it.
import type { Difference, DifferenceKind } from './shape.ts'

export interface KnownDifference {
  /** The scenario's call name. */
  call?: RegExp
  /** The place in the body (as in the summary, item keys kept). */
  path?: RegExp
  kind?: DifferenceKind
  /** Only on these Airflow versions (absent: every version). */
  versions?: string[]
  reason: string
}

const AS_315 = 'stub-engine answers as Airflow 3.1.5 (the version Airship sites run); the client reads both'

export const KNOWN_DIFFERENCES: KnownDifference[] = [
  {
    call: /^changed runs: a date without a zone$/,
    reason: 'Airflow fails (500) on a query date without a zone instead of refusing it; stub-engine answers the 422 ' +
      'timezone_aware a body gets; the client sends only zone-aware dates'
  },
  // what Airflow 3.3 changed or added (packages/airflow/README.md, "How 3.1.5 and 3.3.2 differ")
  { versions: ['3.3.2'], kind: 'only-in-airflow', path: /\.(timetable_partitioned|timetable_periodic|allowed_run_types|is_backfillable)$/, reason: `DAG fields added in 3.2/3.3; ${AS_315}` },
  { versions: ['3.3.2'], kind: 'only-in-airflow', path: /\.(partition_key|partition_date)$/, reason: `run fields added in 3.2/3.3; ${AS_315}` },
  { versions: ['3.3.2'], kind: 'only-in-airflow', path: /^\.(total_entries_limit|next_cursor|previous_cursor)$/, reason: `cursor paging of run and task-instance lists, added in 3.3 (null when paging by offset); ${AS_315}` },
  { versions: ['3.3.2'], call: /^trigger: unknown DAG$/, path: /^\.detail$/, reason: `3.3 writes "Dag with dag_id" where 3.1 writes "DAG with dag_id"; ${AS_315}` },
  { versions: ['3.3.2'], call: /^task instances: unknown run$/, path: /^\.detail$/, reason: `3.3 names the DAG too in this 404; ${AS_315}` },
  { versions: ['3.3.2'], call: /^token: unknown field$/, path: /^\.detail$/, reason: `the pydantic release in the link of the login 422 text (2.13, 3.1.5 ships 2.12); ${AS_315}` },
  { versions: ['3.3.2'], call: /^log: /, path: /^\.content_source_group/, reason: `3.3 writes the log's source path as a line of its own inside the source group; ${AS_315}` },
  { versions: ['3.3.2'], call: /^log: /, path: /^\.content_failure_line\.(ti_id|map_index|task_id|dag_id|try_number|run_id)$/, reason: `3.3 puts the task instance's identity on every log line; ${AS_315}` },
  { versions: ['3.3.2'], call: /^log: stopped task$/, path: /^\.content_failure_line$/, reason: `3.3's task runner logs the stopped try's end as "Task failed with exception", 3.1's does not; ${AS_315}` }
]

export function knownReason (difference: Difference, version: string): string | undefined {
  return KNOWN_DIFFERENCES.find((k) =>
    (k.call === undefined || k.call.test(difference.call)) &&
    (k.path === undefined || k.path.test(difference.path)) &&
    (k.kind === undefined || k.kind === difference.kind) &&
    (k.versions === undefined || k.versions.includes(version)))?.reason
}
