// The bootstrap service against the real stand-ins: the example site staged in stub-store as two collections
// (read back through a deckhand+ design_ref, secrets included), and stub-site's Kubernetes nodes for the join
// IPs and node labels: the script's files for n1, and its labels patched by difference.
import { readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { describe, expect, it, onTestFinished } from 'vitest'
import { AUTH } from '@slipway/common/testing'
import { startStore, loadConfig as loadStoreConfig } from '@slipway/stub-store'
import { testStoreEnv } from '@slipway/stub-store/testing'
import { startSite, loadConfig as loadSiteConfig } from '@slipway/stub-site'
import { buildTestApp, SERVICE_TOKEN } from '../helpers/servers.ts'
import { bashSyntax, payloadOf, tempDir } from '../helpers/script.ts'

const SITE_DIR = resolve(import.meta.dirname, '../../../../examples/site')

/** stub-store holding the example site as the collections `global` then `site` (revision 2). */
async function storeWithExampleSite () {
  const store = await startStore(loadStoreConfig({ PORT: '0', STORE_AUTH_TOKENS: SERVICE_TOKEN, LOG_LEVEL: 'silent', ...testStoreEnv() }))
  onTestFinished(store.close)
  for (const collection of ['global', 'site']) {
    const res = await fetch(`${store.url}/buckets/${collection}/documents`, {
      method: 'PUT',
      headers: { 'x-auth-token': SERVICE_TOKEN, 'content-type': 'application/x-yaml' },
      body: readFileSync(join(SITE_DIR, `${collection}.yaml`), 'utf8')
    })
    expect(res.status, await res.text()).toBe(200)
  }
  return { url: store.url, designRef: `deckhand+${store.url}/revisions/2/rendered-documents` }
}

/** stub-site with a small cluster: n0 (API server) and n1 (labels a, b, system labels). */
async function siteWithNodes () {
  const file = join(tempDir(), 'nodes.yaml')
  writeFileSync(file, [
    'nodes:',
    '  - {hostname: n0, internal_ip: 192.168.77.10, labels: {kubernetes-apiserver: enabled, kubernetes.io/hostname: n0}}',
    '  - {hostname: n1, internal_ip: 192.168.77.11, labels: {a: "1", b: "2", kubernetes.io/hostname: n1, node-role.kubernetes.io/worker: ""}}',
    ''
  ].join('\n'))
  const site = await startSite(loadSiteConfig({ PORT: '0', LOG_LEVEL: 'silent', SITE_NODES_FILE: file }), { logger: false })
  let closed = false
  const close = async (): Promise<void> => { if (!closed) { closed = true; await site.close() } }
  onTestFinished(close)
  return { url: site.url, close }
}

describe('bootstrap with stub-store and stub-site', () => {
  it('joins n1 from the staged example site, with the store\'s secrets in the payload', async () => {
    const store = await storeWithExampleSite()
    const site = await siteWithNodes()
    const app = await buildTestApp({ kubeUrl: site.url, designHosts: [store.url] })
    const query = new URLSearchParams([
      ['design_ref', store.designRef], ['hostname', 'n1'], ['ip', '192.168.77.11'], ['domain', 'example.local'],
      ['labels.dynamic', 'ucp-control-plane=enabled'], ['labels.dynamic', 'kubernetes-apiserver=enabled'],
      ['labels.static', 'node-role.kubernetes.io/worker=']
    ])
    const res = await app.inject({ url: `/api/v1.0/join-scripts?${query.toString()}`, headers: AUTH })
    expect(res.statusCode, res.body).toBe(200)
    expect(bashSyntax(res.body)).toBe(0)
    const file = payloadOf(res.body)
    // the store's encrypted CertificateKey arrives in cleartext, not as its redaction hash
    expect(file('etc/kubernetes/pki/kubelet-key.pem')).toContain('-----BEGIN PRIVATE KEY-----')
    expect(file('etc/kubernetes/admin/pki/admin-key.pem')).toContain('-----BEGIN PRIVATE KEY-----')
    expect(file('etc/promenade/haproxy/haproxy.cfg')).toContain('server s192.168.77.10 192.168.77.10:6443 check port 6443')
    expect(file('etc/resolv.conf')).toContain('nameserver 10.0.0.53')
  })

  it('validates the staged example site (200), and answers 400 for a revision the store does not have', async () => {
    const store = await storeWithExampleSite()
    const app = await buildTestApp({ designHosts: [store.url] })
    const post = async (href: string) => await app.inject({ method: 'POST', url: '/api/v1.0/validatedesign', headers: { ...AUTH, 'content-type': 'application/json' }, payload: { rel: 'design', href, type: 'application/x-yaml' } })
    const ok = await post(store.designRef)
    expect(ok.statusCode, ok.body).toBe(200)
    expect(ok.json()).toMatchObject({ status: 'Success', message: 'Promenade validations succeeded', details: { errorCount: 0 } })
    const missing = await post(`deckhand+${store.url}/revisions/99/rendered-documents`)
    expect(missing.statusCode).toBe(400)
    expect(missing.json()).toMatchObject({ status: 'Failure', message: 'Promenade validations failed', details: { errorCount: 1 } })
    expect(missing.json().details.messageList[0].message).toContain('404')
  })

  it('applies a label set to n1 on stub-site, 404 for an unknown node, 503 once the site is down', async () => {
    const site = await siteWithNodes()
    const app = await buildTestApp({ kubeUrl: site.url })
    const put = async (node: string, labels: unknown) => await app.inject({ method: 'PUT', url: `/api/v1.0/node-labels/${node}`, headers: { ...AUTH, 'content-type': 'application/json' }, payload: labels as Record<string, string> })
    const res = await put('n1', { a: '1', c: '3' })
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json()).toMatchObject({ status: 'Success', reason: 'Update node labels', code: '200 OK' })
    const node = await (await fetch(`${site.url}/api/v1/nodes/n1`)).json() as { metadata: { labels: Record<string, string> } }
    // b removed, c added; every label whose key contains kubernetes.io (the site adds arch and os ones) stays
    const { a, b, c, ...system } = node.metadata.labels
    expect({ a, b, c }).toEqual({ a: '1', b: undefined, c: '3' })
    expect(system).toMatchObject({ 'kubernetes.io/hostname': 'n1', 'node-role.kubernetes.io/worker': '' })
    expect(Object.keys(system).every((key) => key.includes('kubernetes.io'))).toBe(true)
    const unknown = await put('nX', {})
    expect(unknown.statusCode).toBe(404)
    expect(unknown.json()).toMatchObject({ message: 'Node not found', details: { errorType: 'NodeNotFoundException' } })
    await site.close()
    const down = await put('n1', { a: '2' })
    expect(down.statusCode).toBe(503)
    expect(down.json()).toMatchObject({ message: 'Kubernetes API Error', details: { errorType: 'KubernetesApiError' } })
  })
})
