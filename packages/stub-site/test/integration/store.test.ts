import { writeFileSync } from 'node:fs'
import { createServer, type AddressInfo, type Socket } from 'node:net'
import { join } from 'node:path'
import { request } from 'undici'
import { describe, expect, it, onTestFinished } from 'vitest'
import { baremetalNode, startFakeStore, startTestSite, tempDir } from '../helpers/site.ts'

async function getJson (url: string) {
  const res = await request(url)
  return { status: res.statusCode, body: await res.body.json() as any }
}

const design = [
  baremetalNode('cab23-r720-11', { oob: '10.23.104.11', pxe: '10.23.20.11', calico: '10.23.22.11', labels: { 'ucp-control-plane': 'enabled' } }),
  baremetalNode('cab23-r720-12', { oob: '10.23.104.12', pxe: '10.23.20.12' }),
  baremetalNode('host-profile-base', { abstract: true }),
  { schema: 'drydock/HostProfile/v1', metadata: { schema: 'metadata/Document/v1', name: 'cp' }, data: {} }
]

describe('nodes from the store\'s committed design', () => {
  it('loads the BaremetalNode documents of the newest committed revision, Ready and off, sending the service token', async () => {
    const store = await startFakeStore([
      { id: 1, tags: ['committed'], documents: [baremetalNode('old-node')] },
      { id: 2, tags: ['committed', 'site-action-success'], documents: design },
      { id: 3, tags: [], documents: [baremetalNode('buffer-only')] }
    ])
    const site = await startTestSite({ STORE_URL: store.url, SERVICE_TOKEN: 'svc-token' })
    const { status, body } = await getJson(`${site.url}/api/v1.0/nodes`)
    expect(status).toBe(200)
    expect(body).toEqual([
      { hostname: 'cab23-r720-11', memory: 131072, cpu_count: 48, status_name: 'Ready', boot_mac: expect.stringMatching(/^52:54:00/), power_state: 'off', power_address: '10.23.104.11', boot_ip: '10.23.20.11' },
      { hostname: 'cab23-r720-12', memory: 131072, cpu_count: 48, status_name: 'Ready', boot_mac: expect.stringMatching(/^52:54:00/), power_state: 'off', power_address: '10.23.104.12', boot_ip: '10.23.20.12' }
    ])
    expect(store.queries).toEqual([{ schema: 'drydock/BaremetalNode/v1' }])
    expect(store.tokens.every((t) => t === 'svc-token')).toBe(true)
    const node = await getJson(`${site.url}/api/v1/nodes/cab23-r720-11`)
    expect(node.body.metadata.labels).toMatchObject({ 'ucp-control-plane': 'enabled', 'kubernetes.io/hostname': 'cab23-r720-11' })
    expect(node.body.status.addresses[0]).toEqual({ type: 'InternalIP', address: '10.23.22.11' })
  })

  it('takes a rollback_commit revision as committed too', async () => {
    const store = await startFakeStore([
      { id: 1, tags: ['committed'], documents: [baremetalNode('old-node')] },
      { id: 2, tags: ['rollback_commit'], documents: [baremetalNode('rolled-back')] }
    ])
    const site = await startTestSite({ STORE_URL: store.url })
    expect((await getJson(`${site.url}/api/v1.0/nodes`)).body.map((n: { hostname: string }) => n.hostname)).toEqual(['rolled-back'])
  })

  it('serves no nodes while nothing is committed', async () => {
    const store = await startFakeStore([{ id: 1, tags: [], documents: design }])
    const site = await startTestSite({ STORE_URL: store.url })
    expect(await getJson(`${site.url}/api/v1.0/nodes`)).toEqual({ status: 200, body: [] })
  })

  it('refreshes on each list: new nodes appear, known nodes keep their state', async () => {
    const store = await startFakeStore([{ id: 1, tags: ['committed'], documents: [design[0]] }])
    const site = await startTestSite({ STORE_URL: store.url })
    expect((await getJson(`${site.url}/api/v1.0/nodes`)).body).toHaveLength(1)
    const moved = await request(`${site.url}/_stub/nodes/cab23-r720-11/state`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ status_name: 'Deployed', power_state: 'on' }) })
    expect(moved.statusCode).toBe(200)
    await moved.body.dump()
    store.revisions.push({ id: 2, tags: ['committed'], documents: design })
    const { body } = await getJson(`${site.url}/api/v1.0/nodes`)
    expect(body.map((n: any) => [n.hostname, n.status_name, n.power_state])).toEqual([
      ['cab23-r720-11', 'Deployed', 'on'],
      ['cab23-r720-12', 'Ready', 'off']
    ])
  })

  it('finds a node named on the Kubernetes or control routes before any list', async () => {
    const store = await startFakeStore([{ id: 1, tags: ['committed'], documents: design }])
    const site = await startTestSite({ STORE_URL: store.url })
    expect((await getJson(`${site.url}/api/v1/nodes/cab23-r720-12`)).status).toBe(200)
    const site2 = await startTestSite({ STORE_URL: store.url })
    const res = await request(`${site2.url}/_stub/nodes/cab23-r720-11/state`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: '{"status_name":"Deploying"}' })
    expect(res.statusCode).toBe(200)
    expect(await res.body.json()).toMatchObject({ hostname: 'cab23-r720-11', status_name: 'Deploying' })
  })

  it('keeps serving the known nodes when the store goes down', async () => {
    const store = await startFakeStore([{ id: 1, tags: ['committed'], documents: design }])
    // the first read must reach the healthy store: its timeout is long enough for a busy machine
    const timeoutMs = 5000
    const site = await startTestSite({ STORE_URL: store.url, STORE_TIMEOUT_MS: String(timeoutMs) })
    expect((await getJson(`${site.url}/api/v1.0/nodes`)).body).toHaveLength(2)
    await store.close()
    const started = Date.now()
    const after = await getJson(`${site.url}/api/v1.0/nodes`)
    expect(after.status).toBe(200)
    expect(after.body.map((n: { hostname: string }) => n.hostname)).toEqual(['cab23-r720-11', 'cab23-r720-12'])
    // at most one STORE_TIMEOUT_MS, with room for a busy machine
    expect(Date.now() - started).toBeLessThan(timeoutMs + 4000)
  })

  it('answers an empty list when the store was never reachable', async () => {
    const store = await startFakeStore([])
    await store.close()
    const site = await startTestSite({ STORE_URL: store.url, STORE_TIMEOUT_MS: '500' })
    expect(await getJson(`${site.url}/api/v1.0/nodes`)).toEqual({ status: 200, body: [] })
  })

  it('adds the nodes file\'s nodes to the design\'s', async () => {
    const dir = tempDir()
    const file = join(dir, 'nodes.yaml')
    writeFileSync(file, 'nodes:\n  - hostname: extra-node\n    status_name: Deployed\n')
    const store = await startFakeStore([{ id: 1, tags: ['committed'], documents: design }])
    const site = await startTestSite({ STORE_URL: store.url, SITE_NODES_FILE: file })
    expect((await getJson(`${site.url}/api/v1.0/nodes`)).body.map((n: { hostname: string }) => n.hostname)).toEqual(['cab23-r720-11', 'cab23-r720-12', 'extra-node'])
  })
})

describe('a store that does not answer', () => {
  it('costs one STORE_TIMEOUT_MS, then the known nodes are served', async () => {
    const sockets = new Set<Socket>()
    const silent = createServer((socket) => { sockets.add(socket) })
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve))
    onTestFinished(async () => {
      for (const socket of sockets) socket.destroy()
      await new Promise((resolve) => silent.close(resolve))
    })
    const port = (silent.address() as AddressInfo).port
    const dir = tempDir()
    const file = join(dir, 'nodes.yaml')
    writeFileSync(file, '- hostname: known-node\n')
    const site = await startTestSite({ STORE_URL: `http://127.0.0.1:${port}/api/v1.0`, STORE_TIMEOUT_MS: '300', SITE_NODES_FILE: file })
    const started = Date.now()
    const { status, body } = await getJson(`${site.url}/api/v1.0/nodes`)
    const elapsed = Date.now() - started
    expect(status).toBe(200)
    expect(body.map((n: { hostname: string }) => n.hostname)).toEqual(['known-node'])
    expect(elapsed).toBeGreaterThanOrEqual(250)
    // one timeout, not several (with room for a busy machine)
    expect(elapsed).toBeLessThan(5000)
  })
})
