// A step's times as the orchestrator answers them (UTC, `YYYY-MM-DD HH:MM:SS.ffffff`), and the duration the real
// engine reports for them. Airflow 3.1 on SQLite computes a task's duration in SQL as the difference of the whole
// epoch seconds plus the difference of the seconds-of-the-minute fields (strftime %s and %f), so the whole seconds
// are counted twice and a try that crosses a minute boundary can even get a negative duration; Airflow 3.3 takes
// the difference of the Julian days (right), as does either on PostgreSQL. The orchestrator passes the engine's
// duration through.
import { AIRFLOW_DATABASE, type AirflowDatabaseKind } from './airflow-database.ts'
import { AIRFLOW_VERSION } from './airflow-install.ts'

export interface Timed { start_date: string | null, end_date: string | null }

/** Milliseconds since the epoch of one of the orchestrator's plain UTC timestamps. */
export function at (timestamp: string | null): number {
  if (timestamp === null) throw new Error('no timestamp')
  return Date.parse(`${timestamp.replace(' ', 'T')}Z`)
}

/** How long the step's last try lasted, in milliseconds, from its start and end. */
export const lasted = (step: Timed): number => at(step.end_date) - at(step.start_date)

/** The duration in seconds the engine (Airflow AIRFLOW_VERSION on its database) reports for these times. */
export function engineDuration (step: Timed, version = AIRFLOW_VERSION, database: AirflowDatabaseKind = AIRFLOW_DATABASE): number {
  if (!version.startsWith('3.1.') || database === 'postgres') return lasted(step) / 1000
  const [start, end] = [at(step.start_date), at(step.end_date)]
  const wholeSeconds = Math.floor(end / 1000) - Math.floor(start / 1000)
  const secondsField = (ms: number): number => (ms % 60_000) / 1000
  return wholeSeconds + Math.round((secondsField(end) - secondsField(start)) * 1000) / 1000
}
