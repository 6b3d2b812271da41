// `npm run airflow -w @slipway/airflow` (or node packages/airflow/src/cli.ts): installs and starts a real Airflow with
// Slipway's DAGs, prints where it answers and its credentials, and stops it on Ctrl-C.
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startAirflow } from './airflow.ts'

const home = process.env.AIRFLOW_HOME_DIR ?? mkdtempSync(join(tmpdir(), 'slipway-airflow-'))
const taskEnv: Record<string, string> = {}
for (const key of ['SLIPWAY_STEPS_URL', 'SLIPWAY_STEPS_TOKEN']) if (process.env[key] !== undefined) taskEnv[key] = process.env[key]
const airflow = await startAirflow({
  home,
  port: Number(process.env.AIRFLOW_PORT ?? 0),
  databaseUrl: process.env.AIRFLOW_DATABASE_URL,
  taskEnv,
  output: (name, line) => {
    if (process.env.AIRFLOW_VERBOSE === 'true' || name === 'install') process.stdout.write(`${name.padEnd(13)} | ${line}\n`)
  }
})
const memory = airflow.memory()
const processes = memory.map((m) => `${m.process} ${m.rssMiB.toFixed(0)} MiB (${m.processes} processes)`).join(', ')
process.stdout.write([
  `Airflow ${airflow.version} at ${airflow.url} (user ${airflow.username}, password ${airflow.password}), home ${home}`,
  `migrated in ${airflow.migrateMs} ms, ready in ${airflow.startMs} ms; RSS ${processes}`,
  'Ctrl-C stops it.'
].join('\n') + '\n')
let stopping = false
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) return
    stopping = true
    airflow.close().then(() => process.exit(0), () => process.exit(1))
  })
}
