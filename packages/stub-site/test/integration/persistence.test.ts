import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { request } from 'undici'
import { describe, expect, it } from 'vitest'
import { EXAMPLE_NODES_FILE, startTestSite, tempDir } from '../helpers/site.ts'

describe('SITE_DATA_DIR', () => {
  it('keeps states and labels across a restart; the nodes file does not reset them', async () => {
    const dir = tempDir()
    const env = { SITE_NODES_FILE: EXAMPLE_NODES_FILE, SITE_DATA_DIR: dir }
    const first = await startTestSite(env)
    const moved = await request(`${first.url}/_stub/nodes/rack1-n03/state`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: '{"status_name":"Deployed","power_state":"on"}' })
    expect(moved.statusCode).toBe(200)
    await moved.body.dump()
    const patched = await request(`${first.url}/api/v1/nodes/rack1-n01`, { method: 'PATCH', headers: { 'content-type': 'application/strategic-merge-patch+json' }, body: '{"metadata":{"labels":{"ceph-osd":"enabled","ucp-control-plane":null}}}' })
    expect(patched.statusCode).toBe(200)
    const before = await patched.body.json() as { metadata: { uid: string, resourceVersion: string } }
    await first.close()
    expect(existsSync(join(dir, 'site-state.json'))).toBe(true)
    expect(existsSync(join(dir, 'site-state.json.tmp'))).toBe(false)

    const second = await startTestSite(env)
    const nodes = await (await request(`${second.url}/api/v1.0/nodes`)).body.json() as Array<{ hostname: string, status_name: string, power_state: string }>
    expect(nodes.find((n) => n.hostname === 'rack1-n03')).toMatchObject({ status_name: 'Deployed', power_state: 'on' })
    const node = await (await request(`${second.url}/api/v1/nodes/rack1-n01`)).body.json() as { metadata: { uid: string, resourceVersion: string, labels: Record<string, string> } }
    expect(node.metadata.uid).toBe(before.metadata.uid)
    expect(node.metadata.resourceVersion).toBe(before.metadata.resourceVersion)
    expect(node.metadata.labels).toHaveProperty('ceph-osd', 'enabled')
    expect(node.metadata.labels).not.toHaveProperty('ucp-control-plane')
    const list = await (await request(`${second.url}/api/v1/nodes`)).body.json() as { metadata: { resourceVersion: string } }
    expect(list.metadata.resourceVersion).toBe('6')
  })

  it('keeps nothing on disk without SITE_DATA_DIR', async () => {
    const first = await startTestSite({ SITE_NODES_FILE: EXAMPLE_NODES_FILE })
    const moved = await request(`${first.url}/_stub/nodes/rack1-n03/state`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: '{"status_name":"Deployed"}' })
    await moved.body.dump()
    await first.close()
    const second = await startTestSite({ SITE_NODES_FILE: EXAMPLE_NODES_FILE })
    const nodes = await (await request(`${second.url}/api/v1.0/nodes`)).body.json() as Array<{ hostname: string, status_name: string }>
    expect(nodes.find((n) => n.hostname === 'rack1-n03')?.status_name).toBe('Ready')
  })

  it('writes valid JSON of the whole state', async () => {
    const dir = tempDir()
    const site = await startTestSite({ SITE_NODES_FILE: EXAMPLE_NODES_FILE, SITE_DATA_DIR: dir })
    const state = JSON.parse(readFileSync(join(dir, 'site-state.json'), 'utf8'))
    expect(state).toMatchObject({ version: 1, resource_version: 4 })
    expect(state.nodes).toHaveLength(4)
    await site.close()
  })
})
