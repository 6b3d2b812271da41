import { MockAgent } from 'undici'
import { describe, expect, it, onTestFinished } from 'vitest'
import { createHttpClient } from '../src/http-client.ts'
import { DownstreamError, errorBody } from '../src/errors.ts'
import type { ServiceTokenSource } from '../src/auth/identity.ts'

const ORIGIN = 'http://store.test:9100'

function mock () {
  const agent = new MockAgent()
  agent.disableNetConnect()
  onTestFinished(async () => { await agent.close() })
  return { agent, pool: agent.get(ORIGIN) }
}

describe('createHttpClient', () => {
  it('forwards the context marker, end user and service token, and parses JSON', async () => {
    const { agent, pool } = mock()
    pool.intercept({
      path: '/api/v1.0/revisions?tag=committed',
      method: 'GET',
      headers: { 'x-context-marker': 'm-1', 'x-end-user': 'operator', 'x-auth-token': 'svc' }
    }).reply(200, { results: [1] })
    const http = createHttpClient({ component: 'store', baseUrl: `${ORIGIN}/api/v1.0`, timeoutMs: 1000, dispatcher: agent, serviceAuth: { token: async () => 'svc', invalidate: () => {} } })
    expect(await http.getJson('/revisions', { query: { tag: 'committed' }, ctx: { contextMarker: 'm-1', user: 'operator' } })).toEqual({ results: [1] })
  })

  it('sends YAML bodies with their content type and parses YAML answers', async () => {
    const { agent, pool } = mock()
    pool.intercept({ path: '/docs', method: 'PUT', headers: { 'content-type': 'application/x-yaml' }, body: 'a: 1\n' }).reply(200, 'b: [1, 2]\n')
    const http = createHttpClient({ component: 'store', baseUrl: ORIGIN, timeoutMs: 1000, dispatcher: agent })
    const response = await http.request('PUT', '/docs', { yaml: { a: 1 } })
    expect(http.parseYaml(response, 'PUT /docs')).toEqual({ b: [1, 2] })
  })

  it('turns a refused connection into a 503 naming the component', async () => {
    const { agent, pool } = mock()
    pool.intercept({ path: '/x', method: 'GET' }).replyWithError(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }))
    const http = createHttpClient({ component: 'store', baseUrl: ORIGIN, timeoutMs: 1000, dispatcher: agent })
    const error = await http.request('GET', '/x').catch((e: unknown) => e)
    expect(error).toBeInstanceOf(DownstreamError)
    expect(error).toMatchObject({ statusCode: 503, component: 'store', failure: 'unreachable' })
  })

  it('turns a slow answer into a 504 within the timeout', async () => {
    const { agent, pool } = mock()
    pool.intercept({ path: '/slow', method: 'GET' }).reply(200, 'late').delay(10_000)
    const http = createHttpClient({ component: 'engine', baseUrl: ORIGIN, timeoutMs: 50, dispatcher: agent })
    const started = Date.now()
    const error = await http.request('GET', '/slow').catch((e: unknown) => e)
    // at the timeout, not the 10 s answer (with room for a busy machine's event-loop lag)
    expect(Date.now() - started).toBeLessThan(5000)
    expect(error).toMatchObject({ statusCode: 504, component: 'engine', failure: 'timeout' })
  })

  it('turns a 5xx answer into a 502 carrying the upstream status; answers 4xx to the caller', async () => {
    const { agent, pool } = mock()
    pool.intercept({ path: '/boom', method: 'GET' }).reply(500, 'kaput')
    pool.intercept({ path: '/missing', method: 'GET' }).reply(404, 'no')
    const http = createHttpClient({ component: 'provisioner', baseUrl: ORIGIN, timeoutMs: 1000, dispatcher: agent })
    await expect(http.request('GET', '/boom')).rejects.toMatchObject({ statusCode: 502, upstreamStatus: 500, component: 'provisioner' })
    expect((await http.request('GET', '/missing')).statusCode).toBe(404)
  })

  it('keeps what a failing component said (a traceback, its addresses) out of the error body, for the caller only', async () => {
    const { agent, pool } = mock()
    const traceback = 'Traceback (most recent call last):\n  File "/opt/drydock/api.py", line 12\nKeyError: db-password=hunter2'
    pool.intercept({ path: '/boom', method: 'GET' }).reply(500, traceback)
    pool.intercept({ path: '/x', method: 'GET' }).replyWithError(Object.assign(new Error('connect ECONNREFUSED 10.1.2.3:9000'), { code: 'ECONNREFUSED' }))
    const http = createHttpClient({ component: 'provisioner', baseUrl: ORIGIN, timeoutMs: 1000, dispatcher: agent })
    const failed = await http.request('GET', '/boom').catch((e: unknown) => e) as DownstreamError
    expect(failed.upstreamText).toBe(traceback)
    expect(JSON.stringify(errorBody(failed))).not.toContain('hunter2')
    expect(JSON.stringify(errorBody(failed))).not.toContain('Traceback')
    const refused = await http.request('GET', '/x').catch((e: unknown) => e) as DownstreamError
    expect(refused.reason).toBe('The provisioner could not be reached (ECONNREFUSED)')
    expect(JSON.stringify(errorBody(refused))).not.toContain('10.1.2.3')
  })

  it('makes expectOk and getJson throw for non-2xx, and garbage JSON a 502', async () => {
    const { agent, pool } = mock()
    pool.intercept({ path: '/missing', method: 'GET' }).reply(404, 'no')
    pool.intercept({ path: '/garbage', method: 'GET' }).reply(200, '{nope')
    const http = createHttpClient({ component: 'store', baseUrl: ORIGIN, timeoutMs: 1000, dispatcher: agent })
    await expect(http.getJson('/missing')).rejects.toMatchObject({ upstreamStatus: 404 })
    await expect(http.getJson('/garbage')).rejects.toMatchObject({ statusCode: 502, component: 'store' })
  })

  it('renews the service token once when the downstream answers 401', async () => {
    const { agent, pool } = mock()
    let current = 'old'
    const source: ServiceTokenSource = { token: async () => current, invalidate: () => { current = 'new' } }
    pool.intercept({ path: '/x', method: 'GET', headers: { 'x-auth-token': 'old' } }).reply(401, 'expired')
    pool.intercept({ path: '/x', method: 'GET', headers: { 'x-auth-token': 'new' } }).reply(200, '{"ok":true}')
    const http = createHttpClient({ component: 'engine', baseUrl: ORIGIN, timeoutMs: 1000, dispatcher: agent, serviceAuth: source })
    expect(await http.getJson('/x')).toEqual({ ok: true })
  })

  it('refuses answers larger than the cap', async () => {
    const { agent, pool } = mock()
    pool.intercept({ path: '/big', method: 'GET' }).reply(200, 'x'.repeat(5000))
    const http = createHttpClient({ component: 'notes', baseUrl: ORIGIN, timeoutMs: 1000, dispatcher: agent, maxResponseBytes: 1000 })
    await expect(http.request('GET', '/big')).rejects.toMatchObject({ statusCode: 502, component: 'notes' })
  })
})
