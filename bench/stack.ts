// Benchmark of the whole stack as `npm start` runs it: time from start to every process healthy (fresh data
// folder, then a second start on the same data), each process's resident memory when idle, and the wall time
// of deploy_site on the example site, staged and committed through the orchestrator.
// Run: node bench/stack.ts
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { PROCESS_NAMES, startStack, type Stack } from '@slipway/stack'

const SITE = resolve(import.meta.dirname, '../examples/site')
const dataDir = mkdtempSync(join(tmpdir(), 'slipway-bench-'))
const ports = { orchestrator: 0, bootstrap: 0, store: 0, engine: 0, site: 0 }
const quiet = (): void => {}

function rssMiB (pid: number | undefined): number {
  if (pid === undefined) return Number.NaN
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('VmRSS:'))
  return Number(/(\d+)/.exec(line ?? '')?.[1] ?? Number.NaN) / 1024
}

async function timedStart (): Promise<{ stack: Stack, ms: number }> {
  const started = performance.now()
  const stack = await startStack({ dataDir, ports, output: quiet, env: { engine: { ENGINE_TASK_MS: '50' } } })
  return { stack, ms: performance.now() - started }
}

try {
  const first = await timedStart()
  console.log(`start to all healthy, fresh data folder: ${first.ms.toFixed(0)} ms`)
  await new Promise((resolve) => setTimeout(resolve, 3000))
  console.log(`idle RSS after 3 s: ${PROCESS_NAMES.map((name) => `${name} ${rssMiB(first.stack.pid(name)).toFixed(1)} MiB`).join(', ')}`)

  const api = `${first.stack.urls.orchestrator}/api/v1.0`
  const headers = { 'x-auth-token': first.stack.adminToken }
  const post = async (path: string, body: string, type: string) =>
    await fetch(`${api}${path}`, { method: 'POST', headers: { ...headers, 'content-type': type }, body })
  const flowStarted = performance.now()
  await post('/configdocs/global', readFileSync(join(SITE, 'global.yaml'), 'utf8'), 'application/x-yaml')
  await post('/configdocs/site?buffermode=append', readFileSync(join(SITE, 'site.yaml'), 'utf8'), 'application/x-yaml')
  const commit = await fetch(`${api}/commitconfigdocs`, { method: 'POST', headers })
  const committedMs = performance.now() - flowStarted
  if (commit.status !== 200) throw new Error(`commit answered ${commit.status}`)
  const created = await (await post('/actions', '{"name": "deploy_site"}', 'application/json')).json() as { id: string }
  const deployStarted = performance.now()
  for (;;) {
    const action = await (await fetch(`${api}/actions/${created.id}`, { headers })).json() as { action_lifecycle: string }
    if (action.action_lifecycle === 'Complete' || action.action_lifecycle === 'Failed') {
      console.log(`stage two collections and commit: ${committedMs.toFixed(0)} ms; deploy_site ${action.action_lifecycle} after ${(performance.now() - deployStarted).toFixed(0)} ms (50 ms per simulated task)`)
      break
    }
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  console.log(`RSS after the flow: ${PROCESS_NAMES.map((name) => `${name} ${rssMiB(first.stack.pid(name)).toFixed(1)} MiB`).join(', ')}`)
  await first.stack.close()

  const second = await timedStart()
  console.log(`start to all healthy, second start on the same data: ${second.ms.toFixed(0)} ms`)
  await second.stack.close()
} finally {
  rmSync(dataDir, { recursive: true, force: true })
}
