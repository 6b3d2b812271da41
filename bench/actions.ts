// Benchmark of the actions API: 1,000 actions in the database, a fake Airflow that counts its calls.
// Prints GET /actions latency (median, p95) with the engine calls per request, and GET /actions/{id}
// requests per second against a bare Fastify route returning the same JSON, as a ratio.
// Run: node bench/actions.ts
import Fastify from 'fastify'
import autocannon from 'autocannon'
import { createPolicy, newUlid } from '@slipway/common'
import { AUTH, testAuthenticator } from '@slipway/common/testing'
import { buildApp } from '../packages/orchestrator/src/app.ts'
import { openSqlite } from '../packages/orchestrator/src/db/sqlite.ts'
import { createStoreClient } from '../packages/orchestrator/src/clients/store.ts'
import { createValidatorClient } from '../packages/orchestrator/src/clients/validators.ts'
import { createEngineClient } from '../packages/orchestrator/src/clients/engine.ts'
import { createProvisionerClient } from '../packages/orchestrator/src/clients/provisioner.ts'
import { createApiLock } from '../packages/orchestrator/src/domain/api-lock.ts'
import { createConfigdocs } from '../packages/orchestrator/src/domain/configdocs.ts'
import { createActions } from '../packages/orchestrator/src/domain/actions.ts'
import { createNotes } from '../packages/orchestrator/src/domain/notes.ts'
import { createWorkflows } from '../packages/orchestrator/src/domain/workflows.ts'
import { createSiteStatuses } from '../packages/orchestrator/src/domain/site-statuses.ts'
import { POLICY_DEFAULTS } from '../packages/orchestrator/src/policy.ts'
import { STEP_ORDER } from '../packages/orchestrator/src/domain/catalog.ts'

const ACTIONS = 1000
const now = new Date('2026-11-01T00:00:00Z')
const ids = Array.from({ length: ACTIONS }, () => newUlid())
const known = new Set(ids)
const run = (id: string, i: number) => ({
  dag_run_id: id,
  dag_id: 'deploy_site',
  logical_date: new Date(now.getTime() + i * 1000).toISOString(),
  run_after: now.toISOString(),
  start_date: now.toISOString(),
  end_date: now.toISOString(),
  state: 'success',
  run_type: 'manual',
  conf: {},
  queued_at: now.toISOString()
})
// every run has deploy_site's 17 task instances, grouped tasks named <group>.<task> as Airflow 3 names them
const tasks = STEP_ORDER.deploy_site!.map((task, i) => ({
  task_id: task,
  dag_id: 'deploy_site',
  dag_run_id: ids[0],
  state: 'success',
  try_number: 1,
  max_tries: 0,
  operator: 'PythonOperator',
  map_index: -1,
  start_date: now.toISOString(),
  end_date: now.toISOString(),
  duration: 0.1 * (i + 1),
  hostname: 'worker',
  pool: 'default_pool',
  logical_date: now.toISOString()
}))

// a fake Airflow that answers from memory and counts every /api/v2 call
let engineCalls = 0
const airflow = Fastify()
airflow.addHook('onRequest', async (request) => { if (request.url.startsWith('/api/v2')) engineCalls++ })
airflow.post('/auth/token', async (_r, reply) => await reply.code(201).send({ access_token: `x.${Buffer.from(JSON.stringify({ exp: Math.floor(Date.now() / 1000) + 3600 })).toString('base64url')}.y` }))
airflow.get('/api/v2/dags/:dag_id', async () => ({ dag_id: 'deploy_site', is_paused: false }))
airflow.post('/api/v2/dags/~/dagRuns/list', async (request) => {
  const body = request.body as { page_offset?: number, page_limit?: number }
  const offset = body.page_offset ?? 0
  const limit = body.page_limit ?? 100
  return { dag_runs: ids.slice(offset, offset + limit).map((id, i) => run(id, offset + i)), total_entries: ids.length }
})
airflow.get('/api/v2/dags/:dag_id/dagRuns/:run_id', async (request) => run((request.params as { run_id: string }).run_id, 0))
airflow.get('/api/v2/dags/:dag_id/dagRuns/:run_id/taskInstances', async () => ({ task_instances: tasks, total_entries: tasks.length }))
airflow.post('/api/v2/dags/~/dagRuns/~/taskInstances/list', async (request) => {
  const body = request.body as { dag_run_ids?: string[], page_offset?: number, page_limit?: number }
  const all = (body.dag_run_ids ?? []).filter((runId) => known.has(runId)).flatMap((runId) => tasks.map((t) => ({ ...t, dag_run_id: runId })))
  const offset = body.page_offset ?? 0
  return { task_instances: all.slice(offset, offset + (body.page_limit ?? 100)), total_entries: all.length }
})
await airflow.listen({ host: '127.0.0.1', port: 0 })
const airflowAddress = airflow.server.address()
const engineUrl = `http://127.0.0.1:${typeof airflowAddress === 'object' && airflowAddress !== null ? airflowAddress.port : 0}`

const repos = openSqlite(':memory:')
for (const [i, id] of ids.entries()) {
  await repos.actions.insert({ id, name: 'deploy_site', parameters: {}, dag_id: 'deploy_site', dag_execution_date: run(id, i).logical_date, user: 'admin', datetime: now.toISOString(), context_marker: newUlid(), committed_rev_id: 1, allow_intermediate_commits: false, validation_failed: false, tags_done: true })
  await repos.notes.insert({ note_id: newUlid(), assoc_id: `action/${id}`, subject: id, sub_type: 'action metadata', note_val: 'Configdoc revision 1', verbosity: 1, link_url: null, is_auth_link: false, note_timestamp: now.toISOString() })
}
const store = createStoreClient({ baseUrl: 'http://127.0.0.1:1/api/v1.0', timeoutMs: 1000 })
const engine = createEngineClient({ baseUrl: engineUrl, username: 'admin', password: 'admin', timeoutMs: 5000 })
const configdocs = createConfigdocs({ store, validators: createValidatorClient({ targets: [], timeoutMs: 1000 }), lock: createApiLock({ repos, leaseS: 60 }) })
const notes = createNotes({ repos, timeoutMs: 1000, maxBytes: 1000 })
const app = await buildApp({
  authenticator: testAuthenticator(),
  policy: createPolicy(POLICY_DEFAULTS),
  configdocs,
  actions: createActions({ repos, engine, store, notes, designRef: configdocs.designRef }),
  notes,
  workflows: createWorkflows({ engine }),
  siteStatuses: createSiteStatuses({ provisioner: createProvisionerClient({ baseUrl: 'http://127.0.0.1:1', timeoutMs: 1000 }), legacyKeys: false }),
  logger: false
})
await app.listen({ host: '127.0.0.1', port: 0 })
const appAddress = app.server.address()
const base = `http://127.0.0.1:${typeof appAddress === 'object' && appAddress !== null ? appAddress.port : 0}`

// GET /actions: sequential requests, latency and engine calls per request
await fetch(`${base}/api/v1.0/actions`, { headers: AUTH }) // warm-up (token, JIT)
const latencies: number[] = []
const callsBefore = engineCalls
const REQUESTS = 30
for (let i = 0; i < REQUESTS; i++) {
  const started = performance.now()
  const response = await fetch(`${base}/api/v1.0/actions`, { headers: AUTH })
  const body = await response.json() as unknown[]
  latencies.push(performance.now() - started)
  if (body.length !== ACTIONS) throw new Error(`expected ${ACTIONS} actions, got ${body.length}`)
}
latencies.sort((a, b) => a - b)
const pct = (p: number): number => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] ?? 0
console.log(`GET /actions with ${ACTIONS} actions: median ${pct(0.5).toFixed(1)} ms, p95 ${pct(0.95).toFixed(1)} ms, ${((engineCalls - callsBefore) / REQUESTS).toFixed(1)} engine calls per request (runs and task instances from the batch lists, 1,000 a page, ${tasks.length} engine task instances per run, deploy_site's steps)`)

// GET /actions/{id} against a bare route returning the same JSON
const one = await (await fetch(`${base}/api/v1.0/actions/${ids[0] ?? ''}`, { headers: AUTH })).text()
const bare = Fastify()
bare.get('/same', async (_r, reply) => await reply.type('application/json').send(one))
await bare.listen({ host: '127.0.0.1', port: 0 })
const bareAddress = bare.server.address()
const bareUrl = `http://127.0.0.1:${typeof bareAddress === 'object' && bareAddress !== null ? bareAddress.port : 0}/same`
const cannon = async (url: string, headers: Record<string, string>) => await autocannon({ url, headers, connections: 10, duration: 4 })
const ours = await cannon(`${base}/api/v1.0/actions/${ids[0] ?? ''}`, AUTH)
const reference = await cannon(bareUrl, {})
console.log(`GET /actions/{id}: ${ours.requests.average.toFixed(0)} req/s (p99 ${ours.latency.p99} ms); bare Fastify, same JSON: ${reference.requests.average.toFixed(0)} req/s; ratio ${(ours.requests.average / reference.requests.average).toFixed(3)}`)
console.log(`errors: ${ours.errors + ours.non2xx}, ${reference.errors + reference.non2xx}`)
await app.close()
await bare.close()
await airflow.close()
await repos.close()
