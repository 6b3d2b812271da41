// Prometheus metrics of a service app: requests by route pattern and status, outbound calls by component and
// outcome, served at GET /metrics without a token; a registry per service.
import Fastify from 'fastify'
import { describe, expect, it, onTestFinished } from 'vitest'
import { createHttpClient, createMetrics, createServiceApp, createPolicy, healthRoutes } from '../src/index.ts'
import { AUTH, testAuthenticator } from '../src/testing/index.ts'

async function appWithMetrics () {
  const metrics = createMetrics('test-service')
  const app = createServiceApp({ service: 'test-service', logger: false, authenticator: testAuthenticator(), policy: createPolicy({ 'test:read': 'role:admin' }), metrics })
  await app.register(healthRoutes)
  app.get('/things/:id', { config: { policy: 'test:read' } }, async () => ({ ok: true }))
  onTestFinished(async () => { await app.close() })
  return { app, metrics }
}

const sample = (text: string, name: string, labels: string): number | undefined => {
  const line = text.split('\n').find((l) => l.startsWith(`${name}{`) && labels.split(',').every((pair) => l.includes(pair)))
  return line === undefined ? undefined : Number(line.split(' ').at(-1))
}

describe('service metrics', () => {
  it('counts requests by route pattern and status, and serves them at GET /metrics without a token', async () => {
    const { app } = await appWithMetrics()
    for (const id of ['a', 'b', 'c']) expect((await app.inject({ url: `/things/${id}`, headers: AUTH })).statusCode).toBe(200)
    expect((await app.inject({ url: '/things/x' })).statusCode).toBe(401)
    const scraped = await app.inject({ url: '/metrics' })
    expect(scraped.statusCode).toBe(200)
    expect(scraped.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/)
    const text = scraped.body
    expect(sample(text, 'slipway_http_request_duration_seconds_count', 'route="/things/:id",status="200",method="GET"')).toBe(3)
    expect(sample(text, 'slipway_http_request_duration_seconds_count', 'route="/things/:id",status="401"')).toBe(1)
    expect(text).not.toContain('/things/a')
    expect(text).toContain('service="test-service"')
    expect(text).toContain('process_resident_memory_bytes')
  })

  it('counts outbound calls by component and outcome, failures as errors', async () => {
    const metrics = createMetrics('caller')
    const target = Fastify()
    target.get('/ok', async () => ({ ok: true }))
    target.get('/broken', async (_r, reply) => await reply.code(503).send('down'))
    await target.listen({ host: '127.0.0.1', port: 0 })
    onTestFinished(async () => { await target.close() })
    const address = target.server.address()
    const port = typeof address === 'object' && address !== null ? address.port : 0
    const http = createHttpClient({ component: 'store', baseUrl: `http://127.0.0.1:${port}`, timeoutMs: 10_000, metrics })
    await http.request('GET', '/ok')
    await http.request('GET', '/ok')
    await expect(http.request('GET', '/broken')).rejects.toMatchObject({ component: 'store' })
    const gone = createHttpClient({ component: 'engine', baseUrl: 'http://127.0.0.1:1', timeoutMs: 10_000, metrics })
    await expect(gone.request('GET', '/x')).rejects.toMatchObject({ component: 'engine' })
    const text = await metrics.registry.metrics()
    expect(sample(text, 'slipway_outbound_request_duration_seconds_count', 'component="store",method="GET",outcome="2xx"')).toBe(2)
    expect(sample(text, 'slipway_outbound_request_duration_seconds_count', 'component="store",method="GET",outcome="5xx"')).toBe(1)
    expect(sample(text, 'slipway_outbound_request_duration_seconds_count', 'component="engine",method="GET",outcome="unreachable"')).toBe(1)
    expect(sample(text, 'slipway_outbound_errors_total', 'component="store"')).toBe(1)
    expect(sample(text, 'slipway_outbound_errors_total', 'component="engine"')).toBe(1)
  })

  it('keeps one registry per service and reads gauges at each scrape', async () => {
    const one = createMetrics('one')
    const two = createMetrics('two')
    let value = 1
    one.gauge('slipway_test_gauge', 'A test gauge', () => value)
    expect(sample(await one.registry.metrics(), 'slipway_test_gauge', 'service="one"')).toBe(1)
    value = 7
    expect(sample(await one.registry.metrics(), 'slipway_test_gauge', 'service="one"')).toBe(7)
    expect(await two.registry.metrics()).not.toContain('slipway_test_gauge')
    one.lockWait('configdocs_update', 'refused', 0.2)
    expect(sample(await one.registry.metrics(), 'slipway_lock_wait_seconds_count', 'lock_type="configdocs_update",outcome="refused"')).toBe(1)
  })
})
