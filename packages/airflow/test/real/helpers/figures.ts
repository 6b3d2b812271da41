// Figures the real-Airflow suites observe, printed as one summary line per test file when it ends.
import { AIRFLOW_DATABASE_NAME } from './airflow-database.ts'
import { AIRFLOW_VERSION } from './airflow-install.ts'
import { resentTriggers } from './api.ts'

const figures = new Map<string, string>()

export function recordFigure (name: string, value: string): void {
  figures.set(name, value)
}

export const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`

/** One line: the file, the Airflow version and its database, every figure recorded. */
export function printFigures (file: string): void {
  if (resentTriggers.length > 0) {
    recordFigure('triggers sent again after a 503 trigger_pending', `${resentTriggers.length} (first: ${resentTriggers[0]})`)
  }
  if (figures.size === 0) return
  const parts = [...figures.entries()].map(([name, value]) => `${name} ${value}`)
  console.log(`[real-airflow ${AIRFLOW_VERSION} on ${AIRFLOW_DATABASE_NAME} ${file}] ${parts.join('; ')}`)
}
