// GET /metrics of the orchestrator as its server wires it: requests, outbound calls, lock waits and the engine
// watch's lag in Prometheus text, no token needed; METRICS_ENABLED=false serves none.
import { describe, expect, it, onTestFinished } from 'vitest'
import { AUTH, TEST_TOKENS } from '@slipway/common/testing'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { loadConfig } from '../../src/config.ts'
import { createDeps } from '../../src/deps.ts'
import { buildApp } from '../../src/app.ts'

async function orchestrator (env: Record<string, string> = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'orch-metrics-'))
  const tokens = join(dir, 'tokens.yaml')
  writeFileSync(tokens, `tokens:\n  ${TEST_TOKENS.admin}: {user: admin, roles: [admin]}\n`)
  // every component on a closed port: each call fails at once as unreachable
  const deps = await createDeps(loadConfig({
    ORCHESTRATOR_DATA_DIR: ':memory:', AUTH_TOKENS_FILE: tokens, STORE_URL: 'http://127.0.0.1:1/api/v1.0', ENGINE_URL: 'http://127.0.0.1:1', LOG_LEVEL: 'silent', ...env
  }))
  const app = await buildApp({ ...deps, logger: false })
  onTestFinished(async () => { await app.close(); await deps.repos.close(); rmSync(dir, { recursive: true, force: true }) })
  return app
}

describe('GET /metrics', () => {
  it('answers Prometheus text without a token: requests by route, failed outbound calls, lock waits, the watch', async () => {
    const app = await orchestrator()
    expect((await app.inject({ url: '/api/v1.0/workflows', headers: AUTH })).statusCode).toBeGreaterThanOrEqual(500)
    expect((await app.inject({ method: 'POST', url: '/api/v1.0/commitconfigdocs', headers: AUTH })).statusCode).toBeGreaterThanOrEqual(500)
    const scraped = await app.inject({ url: '/metrics' })
    expect(scraped.statusCode).toBe(200)
    const text = scraped.body
    expect(text).toMatch(/slipway_http_request_duration_seconds_count\{[^}]*route="\/api\/v1\.0\/workflows"[^}]*\} 1/)
    expect(text).toMatch(/slipway_outbound_errors_total\{[^}]*component="engine"[^}]*\} [1-9]/)
    expect(text).toMatch(/slipway_outbound_request_duration_seconds_count\{[^}]*component="store"[^}]*outcome="unreachable"[^}]*\} [1-9]/)
    expect(text).toMatch(/slipway_lock_wait_seconds_count\{[^}]*lock_type="configdocs_update"[^}]*outcome="acquired"[^}]*\} 1/)
    expect(text).toContain('# TYPE slipway_engine_watch_lag_seconds gauge')
    expect(text).toContain('# TYPE slipway_engine_watch_poll_errors_total counter')
    expect(text).toContain('service="orchestrator"')
  })

  it('is not served with METRICS_ENABLED=false', async () => {
    const app = await orchestrator({ METRICS_ENABLED: 'false' })
    expect((await app.inject({ url: '/metrics' })).statusCode).toBe(404)
  })
})
