// The orchestrator as an operator runs it with TLS: HTTPS only with TLS_CERT_FILE and TLS_KEY_FILE (a plain HTTP
// request on its port answered 400), a store and an engine served over HTTPS reached when TLS_CA_FILE names their CA,
// answered 502 naming the store and the certificate error when not, and unusable TLS settings refused at start-up.
import { join, resolve } from 'node:path'
import { describe, expect, it, onTestFinished } from 'vitest'
import { AUTH, PLAIN_HTTP_REFUSAL, TEST_TOKENS, askHttpsAndPlain, runServiceProcess, startHttpsPeer, useTlsFixture } from '@slipway/common/testing'

const SERVER = resolve(import.meta.dirname, '../src/server.ts')
const tls = useTlsFixture(TEST_TOKENS.admin)

async function orchestrator (env: Record<string, string>) {
  const run = await runServiceProcess(SERVER, {
    ORCHESTRATOR_DATA_DIR: ':memory:', AUTH_TOKENS_FILE: tls.tokensFile, ENGINE_WATCH_INTERVAL_MS: '0', LOG_LEVEL: 'info', ...env
  })
  onTestFinished(run.stop)
  return run
}

/** A store with no revision yet (its list, and the diff of nothing), served over HTTPS with a certificate of the test CA. */
async function httpsStore (): Promise<string> {
  const store = await startHttpsPeer(tls.pki, (req, res) => {
    res.setHeader('content-type', 'application/x-yaml')
    if (req.url === '/api/v1.0/revisions') { res.end('---\ncount: 0\nresults: []\n'); return }
    // what changed between no revision and no revision: nothing
    if (req.url === '/api/v1.0/revisions/0/diff/0') { res.end('--- {}\n'); return }
    res.statusCode = 404
    res.end()
  })
  onTestFinished(store.close)
  return `${store.origin}/api/v1.0`
}

/** An Airflow-like engine with no run, served over HTTPS with a certificate of the test CA; the paths it was asked. */
async function httpsEngine (): Promise<{ url: string, asked: Set<string> }> {
  const asked = new Set<string>()
  const engine = await startHttpsPeer(tls.pki, (req, res) => {
    asked.add(req.url ?? '')
    res.setHeader('content-type', 'application/json')
    if (req.url === '/auth/token') { res.end('{"access_token":"engine-token"}'); return }
    if (req.url === '/api/v2/dags/~/dagRuns/list') { res.end('{"dag_runs":[],"total_entries":0}'); return }
    if (req.url === '/api/v2/dags/~/dagRuns/~/taskInstances/list') { res.end('{"task_instances":[],"total_entries":0}'); return }
    res.statusCode = 404
    res.end('{}')
  })
  onTestFinished(engine.close)
  return { url: engine.origin, asked }
}

describe('orchestrator over TLS', () => {
  it('answers over HTTPS only with TLS_CERT_FILE and TLS_KEY_FILE, and a plain HTTP request on its port with 400', async () => {
    const run = await orchestrator({ TLS_CERT_FILE: tls.pki.certFile, TLS_KEY_FILE: tls.pki.keyFile })
    expect(run.origin, run.output()).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/)
    const answers = await askHttpsAndPlain(run.origin ?? '', '/api/v1.0/health', tls.pki)
    expect(answers.httpsStatus).toBe(204)
    expect(answers.plain.status).toBe(400)
    expect(answers.plain.body).toMatchObject({ status: 'Failure', details: { messageList: [{ message: PLAIN_HTTP_REFUSAL }] } })
  })

  it('reads a store and an engine served over HTTPS when TLS_CA_FILE names their CA', async () => {
    const engine = await httpsEngine()
    const run = await orchestrator({ STORE_URL: await httpsStore(), ENGINE_URL: engine.url, TLS_CA_FILE: tls.pki.caFile })
    const configdocs = await fetch(`${run.origin ?? ''}/api/v1.0/configdocs`, { headers: AUTH })
    expect(configdocs.status, await configdocs.clone().text()).toBe(200)
    expect(await configdocs.json()).toEqual([])
    const workflows = await fetch(`${run.origin ?? ''}/api/v1.0/workflows`, { headers: AUTH })
    expect(workflows.status, await workflows.clone().text()).toBe(200)
    expect(await workflows.json()).toEqual([])
    expect(engine.asked).toContain('/api/v2/dags/~/dagRuns/list')
  })

  it('answers 502 naming the store and the certificate error when TLS_CA_FILE is not set', async () => {
    const run = await orchestrator({ STORE_URL: await httpsStore() })
    const res = await fetch(`${run.origin ?? ''}/api/v1.0/configdocs`, { headers: AUTH })
    expect(res.status).toBe(502)
    expect(await res.json()).toMatchObject({
      message: 'Downstream failure: store',
      details: {
        messageList: [{
          message: 'The certificate of the store is not trusted (UNABLE_TO_VERIFY_LEAF_SIGNATURE: unable to verify the first certificate); TLS_CA_FILE names the CAs trusted beyond the default ones'
        }]
      }
    })
  })

  it('refuses a start with one of the certificate and key, naming both, and exits 2', async () => {
    const run = await orchestrator({ TLS_KEY_FILE: tls.pki.keyFile })
    expect(run.exitCode).toBe(2)
    expect(run.output()).toBe(
      'orchestrator: TLS_CERT_FILE, TLS_KEY_FILE: HTTPS needs both; TLS_KEY_FILE is set but TLS_CERT_FILE is not (set both, or neither for plain HTTP)\n'
    )
  })

  it('refuses a start with a CA file that does not exist, naming the setting and the path, and exits 2', async () => {
    const missing = join(tls.pki.dir, 'no-such-ca.pem')
    const run = await orchestrator({ TLS_CA_FILE: missing })
    expect(run.exitCode).toBe(2)
    expect(run.output()).toBe(`orchestrator: TLS_CA_FILE: ${missing} does not exist\n`)
  })
})
