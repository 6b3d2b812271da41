// Whether this machine can run the real Airflow, decided once when a test file is collected: the install from its
// lock (seconds when done already). A machine that cannot (no CPython 3.11, no package index) makes every suite
// report itself skipped with the reason in its name; any other install failure fails the run. Each suite's name
// says the database Airflow runs on (airflow-database.ts).
import { describe } from 'vitest'
import { AirflowUnavailableError, DEFAULT_VERSION, installAirflow } from '@slipway/airflow'
import { AIRFLOW_DATABASE_NAME } from './airflow-database.ts'

export const AIRFLOW_VERSION = process.env.AIRFLOW_VERSION ?? DEFAULT_VERSION

async function unavailableReason (): Promise<string | undefined> {
  try {
    await installAirflow(AIRFLOW_VERSION)
    return undefined
  } catch (error) {
    if (error instanceof AirflowUnavailableError) return error.message
    throw error
  }
}

/** Why the real Airflow cannot run here, or undefined when it can. */
export const UNAVAILABLE = await unavailableReason()
// said once per file as well: a run's summary lists skipped suites without their names
if (UNAVAILABLE !== undefined) console.warn(`real Airflow ${AIRFLOW_VERSION} tests skipped: ${UNAVAILABLE}`)
else console.warn(`real Airflow ${AIRFLOW_VERSION} on ${AIRFLOW_DATABASE_NAME}${AIRFLOW_DATABASE_NAME === 'SQLite' ? ' (AIRFLOW_TEST_DATABASE=postgres and TEST_DATABASE_URL for PostgreSQL)' : ', a fresh database for each Airflow started'}`)

/** A describe that runs on the real Airflow, or is skipped visibly, the reason in its name. */
export function onRealAirflow (title: string, body: () => void): void {
  const named = `${title} (real Airflow ${AIRFLOW_VERSION} on ${AIRFLOW_DATABASE_NAME})`
  if (UNAVAILABLE === undefined) describe(named, body)
  else describe.skip(`${named} — skipped: ${UNAVAILABLE}`, body)
}
