// What one deploy_site asks of the peers on the stand-in stack: every request the store (Deckhand), the site
// (Drydock, Armada, Kubernetes) and the bootstrap service (Promenade) logged while the action ran, counted by method
// and route (ids folded), and the action's wall time. Health checks answered 204 are not logged, so not counted.
// Run: node bench/site-calls.ts
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { startStack } from '@slipway/stack'

const SITE = resolve(import.meta.dirname, '../examples/site')
const dataDir = mkdtempSync(join(tmpdir(), 'slipway-bench-calls-'))
const ports = { orchestrator: 0, bootstrap: 0, store: 0, engine: 0, site: 0 }
const PEERS: Record<string, string> = { store: 'Deckhand', site: 'Drydock, Armada, Kubernetes', bootstrap: 'Promenade' }
let counting = false
const calls = new Map<string, number>()

/** A route with its ids folded: revision numbers, task uuids, node and release names. */
function route (url: string): string {
  return url
    .replace(/\/revisions\/\d+/, '/revisions/{n}')
    .replace(/\/tasks\/[0-9a-f-]{36}/, '/tasks/{id}')
    .replace(/\/(nodes|node-labels|test)\/[^/]+$/, '/$1/{name}')
    .replace(/\/tags\/[^/]+$/, '/tags/{tag}')
    .replace(/\/pods\/[^/]+\/eviction$/, '/pods/{pod}/eviction')
    .replace(/\/configmaps\/[^/]+$/, '/configmaps/{name}')
}

function collect (name: string, line: string): void {
  if (!counting || PEERS[name] === undefined) return
  try {
    const entry = JSON.parse(line) as { msg?: string, method?: string, url?: string }
    if (entry.msg !== 'request done' || entry.url === undefined) return
    const key = `${name.padEnd(9)} ${String(entry.method).padEnd(6)} ${route(entry.url)}`
    calls.set(key, (calls.get(key) ?? 0) + 1)
  } catch { /* a line that is not a log entry */ }
}

const env = { LOG_LEVEL: 'debug' }
const stack = await startStack({ dataDir, ports, output: collect, env: { store: env, site: env, bootstrap: env } })
try {
  const api = `${stack.urls.orchestrator}/api/v1.0`
  const headers = { 'x-auth-token': stack.adminToken }
  const post = async (path: string, body: string, type: string) =>
    await fetch(`${api}${path}`, { method: 'POST', headers: { ...headers, 'content-type': type }, body })
  await post('/configdocs/global', readFileSync(join(SITE, 'global.yaml'), 'utf8'), 'application/x-yaml')
  await post('/configdocs/site?buffermode=append', readFileSync(join(SITE, 'site.yaml'), 'utf8'), 'application/x-yaml')
  const commit = await fetch(`${api}/commitconfigdocs`, { method: 'POST', headers })
  if (commit.status !== 200) throw new Error(`commit answered ${commit.status}: ${await commit.text()}`)
  counting = true
  const started = performance.now()
  const created = await post('/actions', JSON.stringify({ name: 'deploy_site' }), 'application/json')
  const id = String((await created.json() as { id: string }).id)
  let lifecycle = ''
  while (!['Complete', 'Failed'].includes(lifecycle)) {
    await new Promise((resolve) => setTimeout(resolve, 200))
    lifecycle = String((await (await fetch(`${api}/actions/${id}`, { headers })).json() as { action_lifecycle: string }).action_lifecycle)
  }
  const wallMs = performance.now() - started
  await new Promise((resolve) => setTimeout(resolve, 500))
  counting = false
  console.log(`deploy_site ${lifecycle} in ${(wallMs / 1000).toFixed(1)} s on stub-engine (the example site, 4 nodes, 2 groups)`)
  const total = [...calls.values()].reduce((a, b) => a + b, 0)
  console.log(`peer requests logged: ${total}`)
  for (const [key, count] of [...calls].sort()) console.log(`  ${String(count).padStart(4)}  ${key}`)
} finally {
  await stack.close()
  rmSync(dataDir, { recursive: true, force: true })
}
