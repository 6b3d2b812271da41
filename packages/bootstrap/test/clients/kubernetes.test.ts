// Finding the cluster (KUBE_API_URL, kubeconfig with token or client certificate, in-cluster service account)
// against a fake Kubernetes API over real TLS with certificates made by openssl for the test.
import { execFileSync, spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { TLSSocket } from 'node:tls'
import Fastify from 'fastify'
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest'
import { createKubernetesClient, fromKubeconfig, KubernetesApiError, KubernetesConfigError, resolveConnection, type KubernetesConnection } from '../../src/clients/kubernetes.ts'
import { tempDir } from '../helpers/script.ts'

const HAS_OPENSSL = spawnSync('openssl', ['version']).status === 0
let pki = ''
const pem = (name: string): string => readFileSync(join(pki, name), 'utf8')
const b64 = (name: string): string => Buffer.from(pem(name)).toString('base64')

/** A CA, a server certificate for 127.0.0.1 and a client certificate, all signed by the CA. */
function makePki (dir: string): void {
  const openssl = (...args: string[]): void => { execFileSync('openssl', args, { cwd: dir, stdio: 'ignore' }) }
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes']
  openssl('req', '-x509', ...ec, '-keyout', 'ca.key', '-out', 'ca.crt', '-subj', '/CN=test-cluster-ca', '-days', '2')
  writeFileSync(join(dir, 'server.ext'), 'subjectAltName=IP:127.0.0.1\n')
  for (const [name, subject] of [['server', '/CN=127.0.0.1'], ['client', '/O=system:masters/CN=bootstrap']] as const) {
    openssl('req', ...ec, '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', subject)
    openssl('x509', '-req', '-in', `${name}.csr`, '-CA', 'ca.crt', '-CAkey', 'ca.key', '-CAcreateserial', '-out', `${name}.crt`, '-days', '2',
      ...(name === 'server' ? ['-extfile', 'server.ext'] : []))
  }
}

beforeAll(() => {
  if (!HAS_OPENSSL) return
  pki = mkdtempSync(join(tmpdir(), 'bootstrap-pki-'))
  makePki(pki)
})
afterAll(() => { if (pki !== '') rmSync(pki, { recursive: true, force: true }) })

/** A node API over TLS that reports who called: the bearer token and the client certificate's CN. */
async function startTlsKube (): Promise<string> {
  const app = Fastify({ https: { key: pem('server.key'), cert: pem('server.crt'), ca: pem('ca.crt'), requestCert: true, rejectUnauthorized: false } })
  app.get('/api/v1/nodes/:name', async (request) => {
    const socket = request.raw.socket as TLSSocket
    const subject = socket.authorized ? socket.getPeerCertificate().subject : undefined
    return {
      metadata: {
        name: (request.params as { name: string }).name,
        labels: { token: request.headers.authorization?.replace('Bearer ', '') ?? 'none', cn: subject?.CN ?? 'none' }
      }
    }
  })
  await app.listen({ host: '127.0.0.1', port: 0 })
  onTestFinished(async () => { await app.close() })
  const address = app.server.address()
  return `https://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}`
}

async function callerSeen (connection: KubernetesConnection): Promise<Record<string, string> | undefined> {
  const client = createKubernetesClient({ connect: () => connection, timeoutMs: 10_000 })
  onTestFinished(client.close)
  return (await client.getNode('n1')).metadata?.labels
}

function kubeconfig (dir: string, cluster: Record<string, unknown>, user: Record<string, unknown>): string {
  const path = join(dir, 'config')
  writeFileSync(path, JSON.stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'other', cluster: { server: 'https://192.0.2.1:6443' } }, { name: 'site', cluster }],
    users: [{ name: 'bootstrap', user }],
    contexts: [{ name: 'other', context: { cluster: 'other', user: 'bootstrap' } }, { name: 'bootstrap@site', context: { cluster: 'site', user: 'bootstrap' } }],
    'current-context': 'bootstrap@site'
  }))
  return path
}

describe.skipIf(!HAS_OPENSSL)('kubeconfig over TLS', () => {
  it('uses the current context: CA and client certificate given inline', async () => {
    const server = await startTlsKube()
    const path = kubeconfig(tempDir(), { server, 'certificate-authority-data': b64('ca.crt') }, { 'client-certificate-data': b64('client.crt'), 'client-key-data': b64('client.key') })
    expect(await callerSeen(fromKubeconfig(path))).toEqual({ token: 'none', cn: 'bootstrap' })
  })

  it('reads CA, certificate and key files relative to the kubeconfig, and a token', async () => {
    const server = await startTlsKube()
    const dir = tempDir()
    for (const name of ['ca.crt', 'client.crt', 'client.key']) writeFileSync(join(dir, name), pem(name))
    const path = kubeconfig(dir, { server, 'certificate-authority': 'ca.crt' }, { token: 'sa-token', 'client-certificate': 'client.crt', 'client-key': join(dir, 'client.key') })
    expect(await callerSeen(fromKubeconfig(path))).toEqual({ token: 'sa-token', cn: 'bootstrap' })
  })

  it('reads the token from tokenFile on every call', async () => {
    const server = await startTlsKube()
    const dir = tempDir()
    writeFileSync(join(dir, 'token'), 'first\n')
    const path = kubeconfig(dir, { server, 'certificate-authority-data': b64('ca.crt') }, { tokenFile: 'token' })
    const connection = fromKubeconfig(path)
    expect(await callerSeen(connection)).toEqual({ token: 'first', cn: 'none' })
    writeFileSync(join(dir, 'token'), 'rotated\n')
    expect(connection.token()).toBe('rotated')
  })

  it('refuses a server its CA does not vouch for (503), unless insecure-skip-tls-verify is set', async () => {
    const server = await startTlsKube()
    const strict = kubeconfig(tempDir(), { server }, { token: 't' })
    await expect(callerSeen(fromKubeconfig(strict))).rejects.toBeInstanceOf(KubernetesApiError)
    const insecure = kubeconfig(tempDir(), { server, 'insecure-skip-tls-verify': true }, { token: 't' })
    expect(await callerSeen(fromKubeconfig(insecure))).toEqual({ token: 't', cn: 'none' })
  })

  it('uses the in-cluster service account: token and CA from its folder, server from the service host', async () => {
    const server = new URL(await startTlsKube())
    const dir = tempDir()
    writeFileSync(join(dir, 'token'), 'pod-token\n')
    writeFileSync(join(dir, 'ca.crt'), pem('ca.crt'))
    const connection = resolveConnection({ apiUrl: '', token: '', kubeconfig: '', inCluster: { host: server.hostname, port: server.port, serviceAccountDir: dir } })
    expect(connection.server).toBe(server.origin)
    expect(await callerSeen(connection)).toEqual({ token: 'pod-token', cn: 'none' })
  })
})

describe('resolving the cluster configuration', () => {
  it('prefers KUBE_API_URL with its token over a kubeconfig', () => {
    const connection = resolveConnection({ apiUrl: 'http://127.0.0.1:9300', token: 'kt', kubeconfig: '/nonexistent' })
    expect(connection.server).toBe('http://127.0.0.1:9300')
    expect(connection.token()).toBe('kt')
    expect(resolveConnection({ apiUrl: 'http://127.0.0.1:9300', token: '', kubeconfig: '' }).token()).toBeUndefined()
  })

  it('answers 502 KubernetesConfigException when nothing is configured or the service account is absent', () => {
    const dir = tempDir()
    for (const settings of [
      { apiUrl: '', token: '', kubeconfig: '' },
      { apiUrl: '', token: '', kubeconfig: '', inCluster: { host: '10.96.0.1', port: '443', serviceAccountDir: dir } },
      { apiUrl: '', token: '', kubeconfig: '', inCluster: { host: '', port: '443', serviceAccountDir: dir } }
    ]) {
      const error = catchError(() => resolveConnection(settings))
      expect(error).toBeInstanceOf(KubernetesConfigError)
      expect(error).toMatchObject({ statusCode: 502, message: 'Kubernetes Config Error' })
    }
  })

  it.each([
    ['a missing file', null, 'cannot be read'],
    ['YAML that does not parse', 'clusters: [unclosed', 'not valid YAML'],
    ['no contexts', 'apiVersion: v1\nclusters: []\n', 'has no context'],
    ['a context without a server', 'contexts: [{name: c, context: {cluster: x, user: u}}]\nclusters: [{name: x, cluster: {}}]\ncurrent-context: c\n', 'names no server'],
    ['a credential plugin', 'contexts: [{name: c, context: {cluster: x, user: u}}]\nclusters: [{name: x, cluster: {server: "https://h"}}]\nusers: [{name: u, user: {exec: {command: aws}}}]\ncurrent-context: c\n', 'credential plugins'],
    ['a certificate without its key', 'contexts: [{name: c, context: {cluster: x, user: u}}]\nclusters: [{name: x, cluster: {server: "https://h"}}]\nusers: [{name: u, user: {client-certificate-data: YQ==}}]\ncurrent-context: c\n', 'needs its key'],
    ['a CA file that is missing', 'contexts: [{name: c, context: {cluster: x, user: u}}]\nclusters: [{name: x, cluster: {server: "https://h", certificate-authority: nope.crt}}]\ncurrent-context: c\n', 'cannot be read']
  ])('answers 502 for a kubeconfig with %s', (_what, text, reason) => {
    const path = join(tempDir(), 'config')
    if (text !== null) writeFileSync(path, text)
    const error = catchError(() => fromKubeconfig(path))
    expect(error).toBeInstanceOf(KubernetesConfigError)
    expect((error as KubernetesConfigError).reason).toContain(reason)
  })
})

describe('the API-server node list', () => {
  it('keeps only dotted IPv4 InternalIP addresses, and answers 503 when none is left', async () => {
    const app = Fastify()
    let items: unknown[] = []
    app.get('/api/v1/nodes', async () => ({ items }))
    await app.listen({ host: '127.0.0.1', port: 0 })
    onTestFinished(async () => { await app.close() })
    const address = app.server.address()
    const client = createKubernetesClient({ connect: () => ({ server: `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}`, token: () => undefined }), timeoutMs: 10_000 })
    items = [
      { status: { addresses: [{ type: 'InternalIP', address: '10.0.0.1' }, { type: 'Hostname', address: 'n0' }] } },
      { status: { addresses: [{ type: 'InternalIP', address: '10.0.0.2\n  server evil 6.6.6.6:80' }, { type: 'InternalIP', address: null }] } },
      { status: {} },
      { metadata: { name: 'no-status' } }
    ]
    expect(await client.apiServerIps()).toEqual(['10.0.0.1'])
    items = [{ status: { addresses: [{ type: 'InternalIP', address: 'fd00::1' }] } }]
    await expect(client.apiServerIps()).rejects.toMatchObject({ statusCode: 503, reason: 'no nodes labelled kubernetes-apiserver=enabled' })
  })
})

function catchError (fn: () => unknown): unknown {
  try {
    fn()
  } catch (error) {
    return error
  }
  return undefined
}
