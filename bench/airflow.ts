// Benchmark of Slipway on a real Apache Airflow (AIRFLOW_VERSION, default 3.1.5) beside stub-engine: Airflow's
// install step when installed, its database migration and start, the resident memory of each of its processes
// (with their children: the API server's workers, the scheduler's executor workers), and deploy_site's wall time
// from POST /actions to Complete on the example site, on the real Airflow and on the stand-in at its defaults.
// Run: node bench/airflow.ts
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { installAirflow } from '@slipway/airflow'
import { startStack, type Stack } from '@slipway/stack'

const SITE = resolve(import.meta.dirname, '../examples/site')
const version = process.env.AIRFLOW_VERSION ?? '3.1.5'
const ports = { orchestrator: 0, bootstrap: 0, store: 0, engine: 0, site: 0 }

async function deploy (stack: Stack): Promise<{ lifecycle: string, ms: number }> {
  const api = `${stack.urls.orchestrator}/api/v1.0`
  const headers = { 'x-auth-token': stack.adminToken }
  const post = async (path: string, body: string, type: string): Promise<Response> =>
    await fetch(`${api}${path}`, { method: 'POST', headers: { ...headers, 'content-type': type }, body })
  await post('/configdocs/global', readFileSync(join(SITE, 'global.yaml'), 'utf8'), 'application/x-yaml')
  await post('/configdocs/site?buffermode=append', readFileSync(join(SITE, 'site.yaml'), 'utf8'), 'application/x-yaml')
  const commit = await fetch(`${api}/commitconfigdocs`, { method: 'POST', headers })
  if (commit.status !== 200) throw new Error(`commit answered ${commit.status}: ${await commit.text()}`)
  const started = performance.now()
  const created = await post('/actions', '{"name": "deploy_site"}', 'application/json')
  if (created.status !== 201) throw new Error(`POST /actions answered ${created.status}: ${await created.text()}`)
  const { id } = await created.json() as { id: string }
  for (;;) {
    const action = await (await fetch(`${api}/actions/${id}`, { headers })).json() as { action_lifecycle: string }
    if (['Complete', 'Failed'].includes(action.action_lifecycle)) {
      return { lifecycle: action.action_lifecycle, ms: performance.now() - started }
    }
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
}

async function run (engine: 'stub' | 'airflow'): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), `slipway-bench-${engine}-`))
  try {
    const started = performance.now()
    const stack = await startStack({ dataDir, ports, engine, airflowVersion: version, output: () => {} })
    const startMs = performance.now() - started
    try {
      if (stack.airflow !== undefined) {
        console.log(`airflow ${version}: db migrate ${stack.airflow.migrateMs} ms, processes to ready ${stack.airflow.startMs} ms; ` +
          `whole stack up in ${startMs.toFixed(0)} ms`)
        await new Promise((resolve) => setTimeout(resolve, 5000))
        const memory = stack.airflow.memory()
        const total = memory.reduce((sum, m) => sum + m.rssMiB, 0)
        const processes = memory.map((m) => `${m.process} ${m.rssMiB.toFixed(0)} MiB (${m.processes} processes)`).join(', ')
        console.log(`airflow ${version} idle RSS: ${processes}; ` +
          `total ${total.toFixed(0)} MiB`)
      } else {
        console.log(`stub-engine stack up in ${startMs.toFixed(0)} ms`)
      }
      const result = await deploy(stack)
      const which = engine === 'airflow' ? `airflow ${version}` : 'stub-engine (defaults)'
      console.log(`${which}: deploy_site ${result.lifecycle} after ${(result.ms / 1000).toFixed(1)} s`)
    } finally {
      await stack.close()
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true })
  }
}

const installStarted = performance.now()
await installAirflow(version)
console.log(`airflow ${version}: install step (already installed) ${(performance.now() - installStarted).toFixed(0)} ms`)
await run('airflow')
await run('stub')
