// GET /metrics of the bootstrap service as its server wires it: requests by route and status, and the design fetches
// and Kubernetes calls by outcome, in Prometheus text without a token; METRICS_ENABLED=false serves none.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it, onTestFinished } from 'vitest'
import { AUTH, TEST_TOKENS } from '@slipway/common/testing'
import { loadConfig } from '../../src/config.ts'
import { createDeps } from '../../src/deps.ts'
import { buildApp } from '../../src/app.ts'

async function bootstrap (env: Record<string, string> = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'bootstrap-metrics-'))
  const tokens = join(dir, 'tokens.yaml')
  writeFileSync(tokens, `tokens:\n  ${TEST_TOKENS.admin}: {user: admin, roles: [admin]}\n`)
  // the store and Kubernetes on a closed port: each call fails at once as unreachable
  const deps = createDeps(loadConfig({ AUTH_TOKENS_FILE: tokens, STORE_URL: 'http://127.0.0.1:1/api/v1.0', KUBE_API_URL: 'http://127.0.0.1:1', LOG_LEVEL: 'silent', ...env }))
  const app = await buildApp({ ...deps, logger: false })
  onTestFinished(async () => { await app.close(); rmSync(dir, { recursive: true, force: true }) })
  return app
}

describe('GET /metrics', () => {
  it('answers Prometheus text without a token: requests by route, failed design fetches and Kubernetes calls', async () => {
    const app = await bootstrap()
    const body = JSON.stringify({ rel: 'design', href: 'deckhand+http://127.0.0.1:1/api/v1.0/revisions/1/rendered-documents', type: 'application/x-yaml' })
    await app.inject({ method: 'POST', url: '/api/v1.0/validatedesign', headers: { ...AUTH, 'content-type': 'application/json' }, payload: body })
    await app.inject({ method: 'PUT', url: '/api/v1.0/node-labels/n1', headers: { ...AUTH, 'content-type': 'application/json' }, payload: '{"a": "b"}' })
    const scraped = await app.inject({ url: '/metrics' })
    expect(scraped.statusCode).toBe(200)
    const text = scraped.body
    expect(text).toMatch(/slipway_http_request_duration_seconds_count\{[^}]*route="\/api\/v1\.0\/validatedesign"[^}]*\} 1/)
    expect(text).toMatch(/slipway_outbound_request_duration_seconds_count\{[^}]*component="store"[^}]*outcome="unreachable"[^}]*\} 1/)
    expect(text).toMatch(/slipway_outbound_errors_total\{[^}]*component="kubernetes"[^}]*\} [1-9]/)
    expect(text).toContain('service="bootstrap"')
  })

  it('is not served with METRICS_ENABLED=false', async () => {
    const app = await bootstrap({ METRICS_ENABLED: 'false' })
    expect((await app.inject({ url: '/metrics' })).statusCode).toBe(404)
  })
})
