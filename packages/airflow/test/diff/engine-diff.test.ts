// The differential test: stub-engine held to a real Apache Airflow 3 (AIRFLOW_VERSION, default 3.1.5). The same
// scenario of engine calls (scenario.ts) runs against both, with no peers for the site steps (each engine's tasks
// say they skipped their site work: the engine's behaviour is what is compared); every answer is compared (status,
// keys, kinds of values, the values both must agree on, error bodies), and each
// DAG's structure is compared with stub-engine's workflows. A summary of every difference is printed, one line
// each; a difference not listed in known.ts fails the test. Skipped, saying why, where Airflow cannot be installed.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AirflowUnavailableError, DEFAULT_VERSION, installAirflow, SITE_DAGS, startAirflow, type Airflow } from '@slipway/airflow'
import { loadConfig as engineConfig, startEngine, type RunningEngine } from '@slipway/stub-engine'
import { AIRFLOW_DATABASE_NAME, airflowDatabase, type AirflowDatabase } from '../real/helpers/airflow-database.ts'
import { recorder, type Recorder, type Target } from './client.ts'
import { clientView, type ClientView } from './client-view.ts'
import { knownReason } from './known.ts'
import { runScenario } from './scenario.ts'
import { compareExchanges, genericPath, logView, type Difference, type Exchange } from './shape.ts'
import { airflowStructure, compareStructures, stubStructure } from './structure.ts'

const version = process.env.AIRFLOW_VERSION ?? DEFAULT_VERSION
let unavailable: string | undefined
try {
  await installAirflow(version)
} catch (error) {
  if (!(error instanceof AirflowUnavailableError)) throw error
  unavailable = error.message
}
const title = unavailable === undefined
  ? `stub-engine against Apache Airflow ${version} on ${AIRFLOW_DATABASE_NAME}`
  : `stub-engine against Apache Airflow ${version} — skipped: ${unavailable}`

const PASSWORD = 'diff-password-0123456789'
const JWT_SECRET = 'diff-jwt-secret-0123456789abcdef0123456789abcdef'

/** Calls answered with a task log: compared through logView. */
const LOG_CALL = /^log: /
const comparable = (e: Exchange): Exchange => LOG_CALL.test(e.call) && e.status === 200 ? { ...e, body: logView(e.body) } : e

describe.skipIf(unavailable !== undefined)(title, () => {
  const say = (line: string): void => { console.log(`[engine-diff ${version}] ${line}`) }
  let airflow: Airflow | undefined
  let engine: RunningEngine | undefined
  let home: string | undefined
  let database: AirflowDatabase | undefined
  const recorded: Record<'stub-engine' | 'airflow', Recorder | undefined> = { 'stub-engine': undefined, airflow: undefined }
  const structures = new Map<string, unknown>()
  const views: Record<'stub-engine' | 'airflow', ClientView | undefined> = { 'stub-engine': undefined, airflow: undefined }

  beforeAll(async () => {
    home = mkdtempSync(join(tmpdir(), 'slipway-engine-diff-'))
    database = await airflowDatabase()
    const started = Date.now()
    airflow = await startAirflow({ version, home, databaseUrl: database.url, password: PASSWORD, jwtSecret: JWT_SECRET, taskEnv: {} })
    say(`Airflow ${airflow.version} on ${AIRFLOW_DATABASE_NAME} ready at ${airflow.url} in ${Date.now() - started} ms`)
    engine = await startEngine(engineConfig({
      HOST: '127.0.0.1',
      PORT: '0',
      ENGINE_USERS: `slipway:${PASSWORD}`,
      ENGINE_JWT_SECRET: JWT_SECRET,
      ENGINE_DAGS_PAUSED_AT_CREATION: 'false'
    }), { logger: false })
    const targets: Target[] = [
      { name: 'airflow', url: airflow.url, username: airflow.username, password: PASSWORD, jwtSecret: JWT_SECRET },
      { name: 'stub-engine', url: engine.url, username: 'slipway', password: PASSWORD, jwtSecret: JWT_SECRET }
    ]
    const since = new Date(Date.now() - 1000).toISOString()
    await Promise.all(targets.map(async (target) => {
      const r = await recorder(target)
      await runScenario(r, { say })
      recorded[target.name] = r
      views[target.name] = await clientView(target, since)
    }))
    for (const dagId of SITE_DAGS) structures.set(dagId, (await recorded.airflow!.request('GET', `/api/v2/dags/${dagId}/tasks`)).body)
    const dir = process.env.DIFF_RECORD_DIR
    if (dir !== undefined && dir !== '') {
      mkdirSync(dir, { recursive: true })
      for (const [name, r] of Object.entries(recorded)) writeFileSync(join(dir, `${name}-${version}.json`), JSON.stringify(r?.exchanges, null, 2))
      writeFileSync(join(dir, `airflow-tasks-${version}.json`), JSON.stringify(Object.fromEntries(structures), null, 2))
    }
  })

  afterAll(async () => {
    await engine?.close()
    await airflow?.close()
    await database?.drop()
    if (home !== undefined) rmSync(home, { recursive: true, force: true })
  })

  /** Prints one line per difference (those every item of a list shares once) and answers the unknown ones. */
  function summarize (what: string, differences: Difference[]): string[] {
    const lines = new Map<string, { difference: Difference, calls: string[] }>()
    for (const d of differences) {
      // a difference every item of a list shares, or every answer of a kind, is one line; a value or a status is
      // one line per call
      const key = `${genericPath(d.path)}\u0000${d.kind}\u0000${d.kind === 'status' || d.kind === 'value' ? d.call : ''}`
      const entry = lines.get(key) ?? { difference: d, calls: [] }
      entry.calls.push(d.call)
      lines.set(key, entry)
    }
    const unknown: string[] = []
    const out: string[] = []
    for (const { difference: d, calls } of lines.values()) {
      const reason = knownReason(d, version)
      const where = `${d.call}${calls.length > 1 ? ` (+${calls.length - 1} more calls)` : ''} ${genericPath(d.path) || '(status)'}`
      const line = `${reason === undefined ? 'NEW  ' : 'known'} ${d.kind}: ${where} — stub-engine ${d.stub}, Airflow ${d.airflow}${reason === undefined ? '' : ` [${reason}]`}`
      out.push(line)
      if (reason === undefined) unknown.push(line)
    }
    console.log([`[engine-diff ${version}] ${what}: ${out.length} difference(s), ${unknown.length} not known`, ...out.map((l) => `  ${l}`)].join('\n'))
    return unknown
  }

  it('answers every engine call of the scenario as Airflow does: status, keys, kinds of values, error bodies', () => {
    const stub = recorded['stub-engine']!.exchanges
    const real = new Map(recorded.airflow!.exchanges.map((e) => [e.call, e]))
    expect(stub.map((e) => e.call)).toEqual([...real.keys()])
    // a log line's source position and a traceback's frames name each engine's own code
    const differences = stub.flatMap((s: Exchange) =>
      compareExchanges(comparable(s), comparable(real.get(s.call)!), LOG_CALL.test(s.call) ? { volatile: ['filename', 'lineno', 'name'] } : {}))
    expect(summarize('engine calls', differences)).toEqual([])
  })

  it('gives the orchestrator\'s engine client the same view of both engines: DAGs, runs, task instances, changes, a log, a re-trigger', () => {
    const head = (log: string): string => log.split('\n').slice(0, 4).map((l) => `    ${l.slice(0, 160)}`).join('\n')
    say(`a try's log as the orchestrator renders it, from Airflow:\n${head(views.airflow!.log)}\n  and from stub-engine:\n${head(views['stub-engine']!.log)}`)
    expect(views['stub-engine']!.view).toEqual(views.airflow!.view)
  })

  it('has each DAG\'s structure as stub-engine\'s workflows: task ids, downstream ids, trigger rules, retries, operators', () => {
    const differences = SITE_DAGS.flatMap((dagId) =>
      compareStructures(dagId, stubStructure(dagId), airflowStructure(structures.get(dagId))))
    expect(summarize('DAG structure', differences)).toEqual([])
    expect(SITE_DAGS.every((dagId) => airflowStructure(structures.get(dagId)).length > 0)).toBe(true)
  })
})
