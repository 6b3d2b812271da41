// The engine client against stub-engine, every exchange checked against Airflow's OpenAPI document, and against a
// scripted Airflow for what the stub does not vary: token caching and renewal, paging, and error mapping.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Fastify from 'fastify'
import { describe, expect, it, onTestFinished } from 'vitest'
import { DownstreamError, NotFoundError } from '@slipway/common'
import { startPassThrough } from '../helpers/pass-through.ts'
import { startTestEngine } from '@slipway/stub-engine/testing'
import { CONTRACTS_PRESENT, contractChecker } from '@slipway/airflow-contract/testing'
import { createEngineClient } from '../../src/clients/engine.ts'

async function listen (app: ReturnType<typeof Fastify>): Promise<string> {
  await app.listen({ host: '127.0.0.1', port: 0 })
  onTestFinished(async () => { await app.close() })
  const address = app.server.address()
  return `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}`
}

describe.skipIf(!CONTRACTS_PRESENT)('the engine client against stub-engine and the OpenAPI document', () => {
  it('sends contract-valid requests and reads contract-valid answers for every call it makes', async () => {
    const engine = await startTestEngine({ ENGINE_TASK_MS: '5', ENGINE_DAGS_PAUSED_AT_CREATION: 'true' })
    const proxy = await startPassThrough(engine.url)
    const client = createEngineClient({ baseUrl: proxy.url, username: 'admin', password: 'admin', timeoutMs: 5000 })

    expect((await client.dag('deploy_site')).is_paused).toBe(true)
    await client.setPaused('deploy_site', false)
    expect((await client.dag('deploy_site')).is_paused).toBe(false)
    const run = await client.trigger('deploy_site', 'A1', { action: { id: 'A1', name: 'deploy_site' } })
    expect(run).toMatchObject({ dag_run_id: 'A1', dag_id: 'deploy_site' })
    await engine.waitRun('deploy_site', 'A1')
    expect(await client.run('deploy_site', 'A1')).toMatchObject({ dag_run_id: 'A1', state: 'success' })
    expect(await client.run('deploy_site', 'nope')).toBeUndefined()
    const tasks = await client.tasks('deploy_site', 'A1')
    expect(tasks.map((t) => t.task_id)).toContain('action_xcom')
    const batch = await client.tasksOfRuns({ dagIds: ['deploy_site'], runIds: ['A1'] })
    expect(batch.map((t) => t.task_id)).toEqual(tasks.map((t) => t.task_id))
    expect(await client.log('deploy_site', 'A1', 'action_xcom', 1)).toMatch(/^\[.+\] [A-Z]+ - /m)
    await client.trigger('test_site', 'T1', {})
    await client.setRunState('test_site', 'T1', 'failed')
    expect((await client.run('test_site', 'T1'))?.state).toBe('failed')
    expect((await client.runs({ dagIds: ['deploy_site', 'test_site'] })).map((r) => r.dag_run_id).sort()).toEqual(['A1', 'T1'])
    // a run id triggered already is that run (Airflow's 409 read as "already triggered")
    expect(await client.trigger('deploy_site', 'A1', {})).toMatchObject({ dag_run_id: 'A1', state: 'success' })
    await expect(client.dag('no_such_dag')).rejects.toBeInstanceOf(NotFoundError)
    expect((await client.dags()).map((d) => d.dag_id)).toContain('deploy_site')
    const changed = await client.changedSince(new Date(Date.now() - 60_000).toISOString())
    expect(changed.runs.map((r) => r.dag_run_id).sort()).toEqual(['A1', 'T1'])
    expect(changed.tasks.some((t) => t.dag_run_id === 'A1' && t.task_id === 'drydock_build.prepare_site')).toBe(true)
    expect(await client.changedSince(new Date(Date.now() + 60_000).toISOString())).toEqual({ runs: [], tasks: [] })

    const contract = contractChecker()
    for (const exchange of proxy.exchanges) {
      contract.request(exchange.method, exchange.path, exchange.body)
      contract.response(exchange.method, exchange.path, {
        status: exchange.status,
        body: exchange.response,
        headers: new Headers(),
        text: exchange.text
      })
    }
    const operations = new Set(proxy.exchanges.map((e) => `${e.method} ${e.path.split('?')[0]?.replace(/\/(A1|T1|nope|no_such_dag|deploy_site|test_site|action_xcom)(?=\/|$)/g, '/{}') ?? ''}`))
    expect([...operations].sort()).toEqual([
      'GET /api/v2/dags',
      'GET /api/v2/dags/{}',
      'GET /api/v2/dags/{}/dagRuns/{}',
      'GET /api/v2/dags/{}/dagRuns/{}/taskInstances',
      'GET /api/v2/dags/{}/dagRuns/{}/taskInstances/{}/logs/1',
      'GET /api/v2/dags/~/dagRuns',
      'GET /api/v2/dags/~/dagRuns/~/taskInstances',
      'PATCH /api/v2/dags/{}',
      'PATCH /api/v2/dags/{}/dagRuns/{}',
      'POST /api/v2/dags/{}/dagRuns',
      'POST /api/v2/dags/~/dagRuns/list',
      'POST /api/v2/dags/~/dagRuns/~/taskInstances/list',
      'POST /auth/token'
    ])
  })
})

/** A scripted Airflow: tokens with a chosen lifetime, 250 runs paged, and error answers on demand. */
async function scriptedAirflow () {
  const state = { tokens: 0, listCalls: 0, rejectNext: false, refuse: 0, refusal: { status: 403, detail: 'Invalid JWT token' }, tokenLifeS: 3600, clock: Date.now() }
  const app = Fastify()
  const jwt = (exp: number) => `h.${Buffer.from(JSON.stringify({ exp })).toString('base64url')}.s`
  app.post('/auth/token', async (_request, reply) => {
    state.tokens++
    return await reply.code(201).send({ access_token: jwt(Math.floor(state.clock / 1000) + state.tokenLifeS) })
  })
  app.addHook('onRequest', async (incoming, reply) => {
    if (!incoming.url.startsWith('/api/v2')) return
    if (state.rejectNext) { state.rejectNext = false; return await reply.code(401).send({ detail: 'Not authenticated' }) }
    if (state.refuse > 0) { state.refuse--; return await reply.code(state.refusal.status).send({ detail: state.refusal.detail }) }
  })
  app.post('/api/v2/dags/~/dagRuns/list', async (incoming) => {
    state.listCalls++
    const body = incoming.body as { page_offset: number, page_limit: number }
    const all = Array.from({ length: 250 }, (_, i) => ({ dag_run_id: `r${i}`, dag_id: 'deploy_site', state: 'success' }))
    // a server that caps page_limit at 100 without saying so
    return { dag_runs: all.slice(body.page_offset, body.page_offset + Math.min(body.page_limit, 100)), total_entries: all.length }
  })
  // what changed: the order in which the two lists were asked for and answered
  const order: string[] = []
  app.get('/api/v2/dags/~/dagRuns', async () => {
    order.push('runs asked')
    // answered slowly on purpose: a task list asked for meanwhile would be older than this answer
    await new Promise((resolve) => setTimeout(resolve, 300))
    order.push('runs answered')
    return { dag_runs: [{ dag_run_id: 'r1', dag_id: 'deploy_site', state: 'success' }], total_entries: 1 }
  })
  app.get('/api/v2/dags/~/dagRuns/~/taskInstances', async () => {
    order.push('tasks asked')
    return { task_instances: [], total_entries: 0 }
  })
  app.get('/api/v2/dags/:dag_id', async (incoming, reply) => {
    const dagId = (incoming.params as { dag_id: string }).dag_id
    if (dagId === 'gone') return await reply.code(404).send({ detail: 'The Dag with ID: `gone` was not found' })
    if (dagId === 'invalid') return await reply.code(422).send({ detail: [{ type: 'missing', loc: ['body', 'x'], msg: 'Field required' }] })
    if (dagId === 'broken') return await reply.code(500).send('Internal Server Error')
    return { dag_id: dagId, is_paused: false }
  })
  return { url: await listen(app), state, order }
}

describe('the engine client against stub-engine', () => {
  it('gives two runs triggered in the same millisecond distinct logical dates, also from two processes', async () => {
    const engine = await startTestEngine({ ENGINE_DAGS_PAUSED_AT_CREATION: 'true' })
    const frozen = () => Date.parse('2026-01-01T00:00:00Z')
    const one = createEngineClient({ baseUrl: engine.url, username: 'admin', password: 'admin', timeoutMs: 5000, now: frozen })
    const other = createEngineClient({ baseUrl: engine.url, username: 'admin', password: 'admin', timeoutMs: 5000, now: frozen })
    const runs = [await one.trigger('test_site', 'R1', {}), await one.trigger('test_site', 'R2', {}), await other.trigger('test_site', 'R3', {})]
    expect(runs.map((r) => r.dag_run_id)).toEqual(['R1', 'R2', 'R3'])
    expect(new Set(runs.map((r) => r.logical_date)).size).toBe(3)
  })

  it('recovers when the engine\'s signing secret changes: the refused token (403 Invalid JWT token) is replaced once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'orchestrator-rotate-'))
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }))
    const first = await startTestEngine({ ENGINE_DATA_DIR: dir, ENGINE_JWT_SECRET: 'before-rotation' })
    const client = createEngineClient({ baseUrl: first.url, username: 'admin', password: 'admin', timeoutMs: 5000 })
    await client.trigger('test_site', 'R1', {})
    await first.close()
    // let the clients' connection pools see the old server's sockets closed
    await new Promise((resolve) => setTimeout(resolve, 100))
    // the same engine (state and port) restarted with a new secret: the client's cached token is now foreign
    const port = new URL(first.url).port
    const second = await startTestEngine({ ENGINE_DATA_DIR: dir, ENGINE_JWT_SECRET: 'after-rotation', PORT: port })
    expect(second.url).toBe(first.url)
    const stale = await fetch(`${second.url}/api/v2/dags`, { headers: { authorization: `Bearer ${first.token}` } })
    expect(stale.status).toBe(403)
    expect(await client.run('test_site', 'R1')).toMatchObject({ dag_run_id: 'R1' })
  })
})

describe('the engine client against a scripted Airflow', () => {
  it('keeps its token until shortly before exp, renews it then, and renews once on a 401', async () => {
    const airflow = await scriptedAirflow()
    // one clock for both sides: the tokens' exp and the client's idea of now
    const client = createEngineClient({ baseUrl: airflow.url, username: 'admin', password: 'admin', timeoutMs: 10_000, now: () => airflow.state.clock })
    await Promise.all([client.dag('a'), client.dag('b'), client.dag('c')])
    expect(airflow.state.tokens).toBe(1)
    airflow.state.clock += 3000_000 // 50 minutes on: still more than 30 s before exp
    await client.dag('a')
    expect(airflow.state.tokens).toBe(1)
    airflow.state.clock += 600_000 // 60 minutes: within the renewal margin
    await client.dag('a')
    expect(airflow.state.tokens).toBe(2)
    airflow.state.rejectNext = true
    expect(await client.dag('a')).toMatchObject({ dag_id: 'a' })
    expect(airflow.state.tokens).toBe(3)
  })

  it('fetches a new token once on a 403 for a cached token (Airflow 3.1\'s invalid JWT); a second refusal is a 5xx naming the engine', async () => {
    const airflow = await scriptedAirflow()
    const client = createEngineClient({ baseUrl: airflow.url, username: 'admin', password: 'admin', timeoutMs: 10_000 })
    await client.dag('a')
    expect(airflow.state.tokens).toBe(1)
    airflow.state.refuse = 1
    expect(await client.dag('a')).toMatchObject({ dag_id: 'a' })
    expect(airflow.state.tokens).toBe(2)
    airflow.state.refuse = 2
    const refused = await client.dag('a').catch((error: unknown) => error)
    expect(refused).toBeInstanceOf(DownstreamError)
    expect(refused).toMatchObject({ statusCode: 502, component: 'engine', upstreamStatus: 403 })
    expect(airflow.state.tokens).toBe(3)
    // a 403 for a token fetched for this very call is a permission the user lacks: no second token
    airflow.state.refusal = { status: 403, detail: 'Forbidden' }
    const fresh = createEngineClient({ baseUrl: airflow.url, username: 'viewer', password: 'viewer', timeoutMs: 10_000 })
    airflow.state.refuse = 1
    await expect(fresh.dag('a')).rejects.toMatchObject({ upstreamStatus: 403 })
    expect(airflow.state.tokens).toBe(4)
  })

  it('pages runs by total_entries, one call per page, also when the server caps the page size it was asked for', async () => {
    const airflow = await scriptedAirflow()
    const client = createEngineClient({ baseUrl: airflow.url, username: 'admin', password: 'admin', timeoutMs: 10_000 })
    const runs = await client.runs({ dagIds: ['deploy_site'] })
    expect(runs).toHaveLength(250)
    expect(new Set(runs.map((r) => r.dag_run_id)).size).toBe(250)
    expect(airflow.state.listCalls).toBe(3)
  })

  it('reads what changed as runs first, then task instances: a run read as ended never has a step older than it', async () => {
    const airflow = await scriptedAirflow()
    const client = createEngineClient({ baseUrl: airflow.url, username: 'admin', password: 'admin', timeoutMs: 10_000 })
    const changed = await client.changedSince(new Date(0).toISOString())
    expect(changed.runs.map((r) => r.dag_run_id)).toEqual(['r1'])
    // the engine ends a run's task instances before the run: a task list read after the run list is at least as new
    expect(airflow.order).toEqual(['runs asked', 'runs answered', 'tasks asked'])
  })

  it('maps Airflow\'s 404 to NotFoundError and 422/5xx to a 502 naming the engine, with the detail (409: see the stub-engine test)', async () => {
    const airflow = await scriptedAirflow()
    const client = createEngineClient({ baseUrl: airflow.url, username: 'admin', password: 'admin', timeoutMs: 10_000 })
    await expect(client.dag('gone')).rejects.toMatchObject({ statusCode: 404, reason: 'The Dag with ID: `gone` was not found' })
    const invalid = await client.dag('invalid').catch((error: unknown) => error)
    expect(invalid).toBeInstanceOf(DownstreamError)
    expect(invalid).toMatchObject({ statusCode: 502, component: 'engine', upstreamStatus: 422 })
    expect((invalid as DownstreamError).reason).toContain('Field required')
    await expect(client.dag('broken')).rejects.toMatchObject({ statusCode: 502, component: 'engine', upstreamStatus: 500 })
  })
})
