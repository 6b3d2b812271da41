// Figures the real-Airflow suites observe, printed as one summary line per test file when it ends.
import { AIRFLOW_VERSION } from './airflow-install.ts'

const figures = new Map<string, string>()

export function recordFigure (name: string, value: string): void {
  figures.set(name, value)
}

export const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`

/** One line: the file, the Airflow version, every figure recorded. */
export function printFigures (file: string): void {
  if (figures.size === 0) return
  const parts = [...figures.entries()].map(([name, value]) => `${name} ${value}`)
  console.log(`[real-airflow ${AIRFLOW_VERSION} ${file}] ${parts.join('; ')}`)
}
