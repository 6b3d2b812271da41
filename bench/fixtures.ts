// What the actions benchmarks share: a fake Airflow 3 that answers from memory and counts its /api/v2 calls (N
// deploy_site runs of 17 task instances each, the task-group shape), and an orchestrator app over it with N actions
// in an in-memory database, optionally reading through the engine watch.
import Fastify from 'fastify'
import { newUlid } from '@slipway/common'
import { testAuthenticator } from '@slipway/common/testing'
import { buildApp, createDeps, loadConfig, STEP_ORDER } from '@slipway/orchestrator'

const address = (server: { address: () => unknown }): string => {
  const a = server.address() as { port?: number } | null
  return `http://127.0.0.1:${a?.port ?? 0}`
}

/** `count` runs, the first `running` of them still running; each run changed a second after the one before. */
export async function startFakeAirflow (count: number, running = 0) {
  const now = Date.parse('2026-11-01T00:00:00Z')
  const ids = Array.from({ length: count }, () => newUlid())
  const index = new Map(ids.map((id, i) => [id, i]))
  const stamp = (i: number): string => new Date(now + i * 1000).toISOString()
  const run = (id: string) => {
    const i = index.get(id) ?? 0
    return {
      dag_run_id: id,
      dag_id: 'deploy_site',
      logical_date: stamp(i),
      run_after: stamp(i),
      start_date: stamp(i),
      end_date: i < running ? null : stamp(i),
      state: i < running ? 'running' : 'success',
      run_type: 'manual',
      conf: {},
      queued_at: stamp(i),
      updated_at: stamp(i)
    }
  }
  const makeTasks = (id: string) => STEP_ORDER.deploy_site!.map((task, t) => ({
    task_id: task,
    dag_id: 'deploy_site',
    dag_run_id: id,
    state: 'success',
    try_number: 1,
    max_tries: 0,
    operator: 'PythonOperator',
    map_index: -1,
    start_date: stamp(index.get(id) ?? 0),
    end_date: stamp(index.get(id) ?? 0),
    duration: 0.1 * (t + 1),
    hostname: 'worker',
    pool: 'default_pool',
    logical_date: stamp(index.get(id) ?? 0),
    updated_at: stamp(index.get(id) ?? 0)
  }))
  // made once: the fake's own cost stays out of the figures
  const taskLists = new Map(ids.map((id) => [id, makeTasks(id)]))
  const tasksOf = (id: string) => taskLists.get(id) ?? []
  const page = <T>(items: T[], offset: number, limit: number) => ({ items: items.slice(offset, offset + limit), total: items.length })
  let calls = 0
  const airflow = Fastify()
  airflow.addHook('onRequest', async (request) => { if (request.url.startsWith('/api/v2')) calls++ })
  airflow.post('/auth/token', async (_r, reply) => {
    const claims = Buffer.from(JSON.stringify({ exp: Math.floor(Date.now() / 1000) + 3600 })).toString('base64url')
    return await reply.code(201).send({ access_token: `x.${claims}.y` })
  })
  airflow.get('/api/v2/dags', async () => ({ dags: [{ dag_id: 'deploy_site', is_paused: false }], total_entries: 1 }))
  airflow.get('/api/v2/dags/:dag_id', async () => ({ dag_id: 'deploy_site', is_paused: false }))
  airflow.post('/api/v2/dags/~/dagRuns/list', async (request) => {
    const body = request.body as { page_offset?: number, page_limit?: number }
    const p = page(ids, body.page_offset ?? 0, body.page_limit ?? 100)
    return { dag_runs: p.items.map(run), total_entries: p.total }
  })
  // the ~ lists with updated_at_gte: what changed since then (the query's limit clamped to 100, as Airflow does)
  const since = (query: unknown): string => String((query as { updated_at_gte?: string }).updated_at_gte ?? '')
  const bounds = (query: unknown) => ({
    offset: Number((query as { offset?: string }).offset ?? 0),
    limit: Math.min(100, Number((query as { limit?: string }).limit ?? 50))
  })
  airflow.get('/api/v2/dags/~/dagRuns', async (request) => {
    const changed = ids.map(run).filter((r) => r.updated_at >= since(request.query))
    const { offset, limit } = bounds(request.query)
    return { dag_runs: changed.slice(offset, offset + limit), total_entries: changed.length }
  })
  airflow.get('/api/v2/dags/~/dagRuns/~/taskInstances', async (request) => {
    const changed = ids.filter((id) => run(id).updated_at >= since(request.query)).flatMap(tasksOf)
    const { offset, limit } = bounds(request.query)
    return { task_instances: changed.slice(offset, offset + limit), total_entries: changed.length }
  })
  airflow.get('/api/v2/dags/:dag_id/dagRuns/:run_id', async (request) => run((request.params as { run_id: string }).run_id))
  airflow.get('/api/v2/dags/:dag_id/dagRuns/:run_id/taskInstances', async (request) => {
    const all = tasksOf((request.params as { run_id: string }).run_id)
    return { task_instances: all, total_entries: all.length }
  })
  airflow.post('/api/v2/dags/~/dagRuns/~/taskInstances/list', async (request) => {
    const body = request.body as { dag_run_ids?: string[], page_offset?: number, page_limit?: number }
    const p = page((body.dag_run_ids ?? []).filter((id) => index.has(id)).flatMap(tasksOf), body.page_offset ?? 0, body.page_limit ?? 100)
    return { task_instances: p.items, total_entries: p.total }
  })
  await airflow.listen({ host: '127.0.0.1', port: 0 })
  return {
    url: address(airflow.server),
    ids,
    stepsPerRun: STEP_ORDER.deploy_site!.length,
    stamp,
    calls: () => calls,
    close: async () => { await airflow.close() }
  }
}

export type FakeAirflow = Awaited<ReturnType<typeof startFakeAirflow>>

/** The orchestrator's API over the fake Airflow, with one action per run; `watch` serves the reads from a watch. */
export async function startOrchestrator (airflow: FakeAirflow, watch?: { intervalMs: number, staleMs: number }) {
  // the store, provisioner and validators are never called: a closed port
  const deps = await createDeps(loadConfig({
    ORCHESTRATOR_DATA_DIR: ':memory:',
    LOG_LEVEL: 'silent',
    METRICS_ENABLED: 'false',
    ENGINE_URL: airflow.url,
    ENGINE_USERNAME: 'admin',
    ENGINE_PASSWORD: 'admin',
    STORE_URL: 'http://127.0.0.1:1/api/v1.0',
    PROVISIONER_URL: 'http://127.0.0.1:1/api/v1.0',
    VALIDATORS: '',
    ENGINE_WATCH_INTERVAL_MS: String(watch?.intervalMs ?? 0),
    ENGINE_WATCH_STALE_MS: String(watch?.staleMs ?? 5000)
  }), { authenticator: testAuthenticator() })
  const { repos } = deps
  for (const [i, id] of airflow.ids.entries()) {
    await repos.actions.insert({
      id,
      name: 'deploy_site',
      parameters: {},
      dag_id: 'deploy_site',
      dag_execution_date: airflow.stamp(i),
      user: 'admin',
      user_id: 'admin',
      project_id: 'service',
      datetime: airflow.stamp(i),
      context_marker: newUlid(),
      committed_rev_id: 1,
      allow_intermediate_commits: false,
      validation_failed: false,
      tags_done: true,
      start_state: 'started',
      start_reason: null,
      trigger_at: null
    })
    await repos.notes.insert({
      note_id: newUlid(),
      assoc_id: `action/${id}`,
      subject: id,
      sub_type: 'action metadata',
      note_val: 'Configdoc revision 1',
      verbosity: 1,
      link_url: null,
      is_auth_link: false,
      note_timestamp: airflow.stamp(i)
    })
  }
  const app = await buildApp({ ...deps, logger: false })
  await app.listen({ host: '127.0.0.1', port: 0 })
  const engineWatch = deps.watch
  if (engineWatch !== undefined) {
    engineWatch.start()
    while (!engineWatch.status().fresh) await new Promise((resolve) => setTimeout(resolve, 10))
  }
  return {
    url: address(app.server),
    watch: engineWatch,
    close: async () => { engineWatch?.stop(); await app.close(); await repos.close() }
  }
}

/** A bare Fastify route answering `body` as JSON: the reference an API read is compared with. */
export async function startBare (body: string) {
  const bare = Fastify()
  bare.get('/same', async (_r, reply) => await reply.type('application/json').send(body))
  await bare.listen({ host: '127.0.0.1', port: 0 })
  return { url: `${address(bare.server)}/same`, close: async () => { await bare.close() } }
}
