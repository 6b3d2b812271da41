// The bootstrap service as an operator runs it with TLS: HTTPS only with TLS_CERT_FILE and TLS_KEY_FILE (a plain HTTP
// request on its port answered 400), a Kubernetes API served over HTTPS reached when TLS_CA_FILE names its CA and a
// 503 naming the cluster and the certificate error when not, and unusable TLS settings refused at start-up.
import { resolve } from 'node:path'
import { describe, expect, it, onTestFinished } from 'vitest'
import { AUTH, PLAIN_HTTP_REFUSAL, TEST_TOKENS, askHttpsAndPlain, runServiceProcess, startHttpsPeer, useTlsFixture } from '@slipway/common/testing'

const SERVER = resolve(import.meta.dirname, '../src/server.ts')
const tls = useTlsFixture(TEST_TOKENS.admin)

async function bootstrap (env: Record<string, string>) {
  const run = await runServiceProcess(SERVER, { AUTH_TOKENS_FILE: tls.tokensFile, LOG_LEVEL: 'info', ...env })
  onTestFinished(run.stop)
  return run
}

/** A Kubernetes API over HTTPS (a certificate of the test CA) knowing node n1; the label patches it received. */
async function httpsCluster (): Promise<{ url: string, patches: string[] }> {
  const patches: string[] = []
  const cluster = await startHttpsPeer(tls.pki, (req, res) => {
    let body = ''
    req.on('data', (chunk: Buffer) => { body += chunk.toString() })
    req.on('end', () => {
      res.setHeader('content-type', 'application/json')
      if (req.url !== '/api/v1/nodes/n1') { res.statusCode = 404; res.end('{}'); return }
      if (req.method === 'PATCH') patches.push(body)
      res.end(JSON.stringify({ metadata: { name: 'n1', labels: {} } }))
    })
  })
  onTestFinished(cluster.close)
  return { url: cluster.origin, patches }
}

async function putLabels (origin: string): Promise<Response> {
  return await fetch(`${origin}/api/v1.0/node-labels/n1`, {
    method: 'PUT',
    headers: { ...AUTH, 'content-type': 'application/json' },
    body: JSON.stringify({ rack: 'r1' })
  })
}

describe('bootstrap over TLS', () => {
  it('answers over HTTPS only with TLS_CERT_FILE and TLS_KEY_FILE, and a plain HTTP request on its port with 400', async () => {
    const run = await bootstrap({ TLS_CERT_FILE: tls.pki.certFile, TLS_KEY_FILE: tls.pki.keyFile })
    expect(run.origin, run.output()).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/)
    const answers = await askHttpsAndPlain(run.origin ?? '', '/api/v1.0/health', tls.pki)
    expect(answers.httpsStatus).toBe(204)
    expect(answers.plain.status).toBe(400)
    // the interface's request-id headers on this answer too
    expect(answers.plain.headers.get('x-deckhand-req')).toMatch(/^[0-9a-f-]{36}$/)
    expect(answers.plain.body).toMatchObject({ status: 'Failure', details: { messageList: [{ message: PLAIN_HTTP_REFUSAL }] } })
  })

  it('labels a node through a Kubernetes API served over HTTPS when TLS_CA_FILE names its CA', async () => {
    const cluster = await httpsCluster()
    const run = await bootstrap({ KUBE_API_URL: cluster.url, KUBE_TOKEN: 'kube', TLS_CA_FILE: tls.pki.caFile })
    const res = await putLabels(run.origin ?? '')
    expect(res.status, await res.clone().text()).toBe(200)
    expect(cluster.patches.map((patch) => JSON.parse(patch))).toEqual([{ metadata: { labels: { rack: 'r1' } } }])
  })

  it('answers 503 naming the cluster and the certificate error when TLS_CA_FILE is not set', async () => {
    const cluster = await httpsCluster()
    const run = await bootstrap({ KUBE_API_URL: cluster.url, KUBE_TOKEN: 'kube' })
    const res = await putLabels(run.origin ?? '')
    // the cluster's failures are the interface's 503 Kubernetes API Error, whatever they are
    expect(res.status).toBe(503)
    expect(await res.json()).toMatchObject({
      message: 'Kubernetes API Error',
      details: {
        messageList: [{
          message: 'The certificate of the kubernetes is not trusted (UNABLE_TO_VERIFY_LEAF_SIGNATURE: unable to verify the first certificate); TLS_CA_FILE names the CAs trusted beyond the default ones'
        }]
      }
    })
    expect(cluster.patches).toEqual([])
  })

  it('refuses a start with a certificate file that holds no certificate, naming the setting and the path, and exits 2', async () => {
    const run = await bootstrap({ TLS_CERT_FILE: tls.tokensFile, TLS_KEY_FILE: tls.pki.keyFile })
    expect(run.exitCode).toBe(2)
    expect(run.output()).toBe(`bootstrap: TLS_CERT_FILE: ${tls.tokensFile} holds no PEM certificate (-----BEGIN CERTIFICATE-----)\n`)
  })
})
