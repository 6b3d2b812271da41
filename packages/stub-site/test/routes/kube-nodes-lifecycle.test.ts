// The stand-in's Kubernetes node API for the node workflow steps: cordon and uncordon, a node's delete
// (decommission), and its Node coming back when the machine is deployed again.
import { describe, expect, it } from 'vitest'
import { MERGE, STRATEGIC, appWithNodes, names } from '../helpers/kube.ts'
import { EXAMPLE_NODES_FILE, buildTestApp, tempDir } from '../helpers/site.ts'

const cordon = (unschedulable: unknown) => JSON.stringify({ spec: { unschedulable } })

describe('PATCH /api/v1/nodes/{name} spec.unschedulable', () => {
  for (const type of [STRATEGIC, MERGE]) {
    it(`cordons with true and uncordons with false or null (${type}), with no taint, as the API server alone answers`, async () => {
      const app = await appWithNodes()
      const patch = async (value: unknown) => await app.inject({
        method: 'PATCH', url: '/api/v1/nodes/rack1-n01', headers: { 'content-type': type }, payload: cordon(value)
      })
      const cordoned = await patch(true)
      expect(cordoned.statusCode).toBe(200)
      expect(cordoned.json()).toMatchObject({ kind: 'Node', metadata: { name: 'rack1-n01', resourceVersion: '5' } })
      expect(cordoned.json().spec).toEqual({ unschedulable: true })
      // cordoning a cordoned node changes nothing, the resourceVersion included
      expect((await patch(true)).json().metadata.resourceVersion).toBe('5')
      const listed = await app.inject({ url: '/api/v1/nodes', query: { fieldSelector: 'spec.unschedulable=true' } })
      expect(names(listed.json())).toEqual(['rack1-n01'])
      const uncordoned = await patch(false)
      expect(uncordoned.json().spec).toEqual({})
      expect(uncordoned.json().metadata.resourceVersion).toBe('6')
      await patch(true)
      expect((await patch(null)).json().spec).toEqual({})
      const read = await app.inject({ url: '/api/v1/nodes/rack1-n01' })
      expect(read.json().spec).toEqual({})
    })
  }

  it('answers 422 Invalid on the field patch for an unschedulable that is not a boolean, changing nothing', async () => {
    const app = await appWithNodes()
    const res = await app.inject({ method: 'PATCH', url: '/api/v1/nodes/rack1-n01', headers: { 'content-type': STRATEGIC }, payload: cordon('yes') })
    expect(res.statusCode).toBe(422)
    expect(res.json()).toMatchObject({ kind: 'Status', status: 'Failure', reason: 'Invalid', code: 422, details: { causes: [{ field: 'patch' }] } })
    expect((await app.inject({ url: '/api/v1/nodes/rack1-n01' })).json().metadata.resourceVersion).toBe('1')
  })

  it('answers 404 with a Status for a node Kubernetes does not hold', async () => {
    const app = await appWithNodes()
    const res = await app.inject({ method: 'PATCH', url: '/api/v1/nodes/nope', headers: { 'content-type': STRATEGIC }, payload: cordon(true) })
    expect(res.statusCode).toBe(404)
    expect(res.json()).toMatchObject({ kind: 'Status', reason: 'NotFound', message: 'nodes "nope" not found', details: { name: 'nope', kind: 'nodes' } })
  })
})

describe('DELETE /api/v1/nodes/{name}', () => {
  it('answers 200 with a Success Status naming the node, and Kubernetes forgets it while Drydock keeps it', async () => {
    const app = await appWithNodes()
    const before = await app.inject({ url: '/api/v1/nodes/rack1-n01' })
    const res = await app.inject({ method: 'DELETE', url: '/api/v1/nodes/rack1-n01' })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', details: { name: 'rack1-n01', kind: 'nodes', uid: before.json().metadata.uid }
    })
    const gone = await app.inject({ url: '/api/v1/nodes/rack1-n01' })
    expect(gone.statusCode).toBe(404)
    expect(gone.json()).toMatchObject({ kind: 'Status', reason: 'NotFound', message: 'nodes "rack1-n01" not found' })
    expect(names((await app.inject({ url: '/api/v1/nodes' })).json())).toEqual(['rack1-n02', 'rack1-n03', 'rack2-n01'])
    const patched = await app.inject({ method: 'PATCH', url: '/api/v1/nodes/rack1-n01', headers: { 'content-type': MERGE }, payload: cordon(true) })
    expect(patched.statusCode).toBe(404)
    const drydock = await app.inject({ url: '/api/v1.0/nodes' })
    expect(drydock.json().map((n: { hostname: string }) => n.hostname)).toContain('rack1-n01')
    const again = await app.inject({ method: 'DELETE', url: '/api/v1/nodes/rack1-n01' })
    expect(again.statusCode).toBe(404)
    expect(again.json()).toMatchObject({ kind: 'Status', reason: 'NotFound', message: 'nodes "rack1-n01" not found' })
  })

  it('answers 404 with a Status for a node nobody knows', async () => {
    const app = await appWithNodes()
    const res = await app.inject({ method: 'DELETE', url: '/api/v1/nodes/nope' })
    expect(res.statusCode).toBe(404)
    expect(res.json()).toMatchObject({ kind: 'Status', code: 404, details: { name: 'nope', kind: 'nodes' } })
  })

  it('brings the Node back, new and uncordoned, once the machine is Deployed again', async () => {
    const app = await appWithNodes()
    const first = await app.inject({ method: 'PATCH', url: '/api/v1/nodes/rack1-n01', headers: { 'content-type': MERGE }, payload: cordon(true) })
    await app.inject({ method: 'DELETE', url: '/api/v1/nodes/rack1-n01' })
    const move = async (status: string) => await app.inject({ method: 'PUT', url: '/_stub/nodes/rack1-n01/state', payload: { status_name: status } })
    expect((await move('Deploying')).statusCode).toBe(200)
    expect((await app.inject({ url: '/api/v1/nodes/rack1-n01' })).statusCode).toBe(404)
    await move('Deployed')
    const back = await app.inject({ url: '/api/v1/nodes/rack1-n01' })
    expect(back.statusCode).toBe(200)
    expect(back.json().spec).toEqual({})
    expect(back.json().metadata.uid).not.toBe(first.json().metadata.uid)
    expect(back.json().metadata.labels).toMatchObject({ 'kubernetes.io/hostname': 'rack1-n01' })
  })
})

describe('cordon and delete in the state file', () => {
  it('are kept across a restart with SITE_DATA_DIR', async () => {
    const dir = tempDir()
    const app = await buildTestApp({ SITE_NODES_FILE: EXAMPLE_NODES_FILE, SITE_DATA_DIR: dir })
    await app.inject({ method: 'PATCH', url: '/api/v1/nodes/rack1-n01', headers: { 'content-type': MERGE }, payload: cordon(true) })
    await app.inject({ method: 'DELETE', url: '/api/v1/nodes/rack1-n02' })
    await app.close()
    const again = await buildTestApp({ SITE_NODES_FILE: EXAMPLE_NODES_FILE, SITE_DATA_DIR: dir })
    expect((await again.inject({ url: '/api/v1/nodes/rack1-n01' })).json().spec).toEqual({ unschedulable: true })
    expect((await again.inject({ url: '/api/v1/nodes/rack1-n02' })).statusCode).toBe(404)
  })
})
