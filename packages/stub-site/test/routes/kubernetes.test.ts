// The stand-in's Kubernetes node API, reads: lists, selectors, paging and one node, as the real API server answers.
import { describe, expect, it } from 'vitest'
import { MERGE, SYSTEM_LABELS, appWithNodes, failureStatus, labelPatch, names } from '../helpers/kube.ts'

describe('GET /api/v1/nodes', () => {
  it('answers a NodeList of every node', async () => {
    const app = await appWithNodes()
    const res = await app.inject({ url: '/api/v1/nodes' })
    expect(res.statusCode).toBe(200)
    const list = res.json()
    expect(list).toMatchObject({ kind: 'NodeList', apiVersion: 'v1', metadata: { resourceVersion: '4' } })
    expect(list.items.map((n: { metadata: { name: string } }) => n.metadata.name)).toEqual(['rack1-n01', 'rack1-n02', 'rack1-n03', 'rack2-n01'])
    // as the real API server sends them: the items name neither kind nor apiVersion
    expect(list.items[0]).not.toHaveProperty('kind')
    expect(list.items[0]).not.toHaveProperty('apiVersion')
    expect(list.items[0]).toMatchObject({ metadata: { name: 'rack1-n01' }, spec: {}, status: { addresses: [{ type: 'InternalIP' }, { type: 'Hostname' }] } })
  })
})

describe('GET /api/v1/nodes?labelSelector=', () => {
  it('answers only the nodes the selector matches', async () => {
    const app = await appWithNodes()
    const one = await app.inject({ url: '/api/v1/nodes?labelSelector=' + encodeURIComponent('kubernetes.io/hostname=rack1-n02') })
    expect(one.statusCode).toBe(200)
    expect(one.json().items.map((n: { metadata: { name: string } }) => n.metadata.name)).toEqual(['rack1-n02'])
    const none = await app.inject({ url: '/api/v1/nodes?labelSelector=no-such-label%3Dx' })
    expect(none.json().items).toEqual([])
  })
  it('answers 400 with a Status for a selector it cannot parse', async () => {
    const app = await appWithNodes()
    const res = await app.inject({ url: '/api/v1/nodes?labelSelector=a%3Db%3Dc' })
    expect(res.statusCode).toBe(400)
    expect(res.json()).toMatchObject({ kind: 'Status', status: 'Failure', reason: 'BadRequest', code: 400 })
  })
})

describe('GET /api/v1/nodes?labelSelector= (set-based)', () => {
  it.each([
    ['ucp-control-plane in (enabled,disabled)', ['rack1-n01', 'rack1-n02']],
    ['ucp-control-plane notin (enabled)', ['rack1-n03', 'rack2-n01']],
    ['openstack-control-plane', ['rack1-n01']],
    ['!openstack-control-plane,ucp-control-plane', ['rack1-n02']]
  ])('answers the nodes %j matches', async (selector, expected) => {
    const app = await appWithNodes()
    const res = await app.inject({ url: '/api/v1/nodes', query: { labelSelector: selector } })
    expect(res.statusCode).toBe(200)
    expect(names(res.json())).toEqual(expected)
  })
})

describe('GET /api/v1/nodes?fieldSelector=', () => {
  it('answers the node metadata.name= names, and the others for metadata.name!=', async () => {
    const app = await appWithNodes()
    const one = await app.inject({ url: '/api/v1/nodes', query: { fieldSelector: 'metadata.name=rack1-n02' } })
    expect(one.statusCode).toBe(200)
    expect(one.json()).toMatchObject({ kind: 'NodeList', metadata: { resourceVersion: '4' } })
    expect(names(one.json())).toEqual(['rack1-n02'])
    const others = await app.inject({ url: '/api/v1/nodes', query: { fieldSelector: 'metadata.name!=rack1-n02', labelSelector: 'kubernetes.io/os=linux' } })
    expect(names(others.json())).toEqual(['rack1-n01', 'rack1-n03', 'rack2-n01'])
  })

  it.each([
    [{ fieldSelector: 'status.phase=Running' }, 'field label not supported: status.phase'],
    [{ fieldSelector: 'metadata.name' }, "invalid selector: 'metadata.name'; can't understand 'metadata.name'"],
    [{ labelSelector: 'role in (a' }, "unable to parse requirement: found 'end of string', expected: ',' or ')'"],
    [{ labelSelector: 'bad key=x' }, "unable to parse requirement: found 'key', expected: '=', '==', '!=', '>', '<', 'in', 'notin', ',' or 'end of string'"],
    [{ continue: 'not-a-token' }, 'invalid continue token: continue key is not valid']
  ])('answers 400 BadRequest as a Status for %j, which it cannot apply', async (query, message) => {
    const app = await appWithNodes()
    const res = await app.inject({ url: '/api/v1/nodes', query })
    expect(res.statusCode).toBe(400)
    expect(res.json()).toEqual(failureStatus(400, 'BadRequest', message))
  })
})

describe('GET /api/v1/nodes?limit=&continue=', () => {
  it('answers pages of limit nodes chained by metadata.continue, all at the first page\'s resource version', async () => {
    const app = await appWithNodes()
    const first = await app.inject({ url: '/api/v1/nodes?limit=3' })
    expect(first.statusCode).toBe(200)
    expect(first.json().metadata).toEqual({ resourceVersion: '4', continue: expect.any(String), remainingItemCount: 1 })
    expect(names(first.json())).toEqual(['rack1-n01', 'rack1-n02', 'rack1-n03'])
    // a change between pages does not show: the list stays consistent, as Kubernetes' does
    await app.inject({ method: 'PATCH', url: '/api/v1/nodes/rack2-n01', headers: { 'content-type': MERGE }, payload: labelPatch({ late: 'yes' }) })
    const second = await app.inject({ url: '/api/v1/nodes', query: { limit: '3', continue: first.json().metadata.continue } })
    expect(second.statusCode).toBe(200)
    expect(second.json().metadata).toEqual({ resourceVersion: '4' })
    expect(names(second.json())).toEqual(['rack2-n01'])
    expect(second.json().items[0].metadata.labels).not.toHaveProperty('late')
  })

  it('answers every node for limit=0 and a limit larger than the list', async () => {
    const app = await appWithNodes()
    for (const limit of ['0', '10']) {
      const res = await app.inject({ url: '/api/v1/nodes', query: { limit } })
      expect(res.json().metadata).toEqual({ resourceVersion: '4' })
      expect(names(res.json())).toHaveLength(4)
    }
  })

  it('answers 400 BadRequest for a limit that is not a whole number >= 0', async () => {
    const app = await appWithNodes()
    for (const limit of ['-1', 'x']) {
      const res = await app.inject({ url: '/api/v1/nodes', query: { limit } })
      expect(res.statusCode).toBe(400)
      expect(res.json()).toMatchObject({ kind: 'Status', reason: 'BadRequest', code: 400 })
    }
  })
})

describe('GET /api/v1/nodes/{name}', () => {
  it('answers the Node with system and design labels, addresses and a Ready condition', async () => {
    const app = await appWithNodes()
    const res = await app.inject({ url: '/api/v1/nodes/rack1-n01' })
    expect(res.statusCode).toBe(200)
    const node = res.json()
    expect(node).toMatchObject({
      kind: 'Node',
      apiVersion: 'v1',
      metadata: {
        name: 'rack1-n01',
        resourceVersion: '1',
        uid: expect.stringMatching(/^[0-9a-f-]{36}$/),
        creationTimestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
        labels: { ...SYSTEM_LABELS, 'ucp-control-plane': 'enabled', 'openstack-control-plane': 'enabled' }
      },
      status: {
        addresses: [{ type: 'InternalIP', address: '10.23.2.11' }, { type: 'Hostname', address: 'rack1-n01' }],
        conditions: [{ type: 'Ready', status: 'True' }]
      }
    })
  })

  it('has the fields of a registered Node as the real API server sends them: no empty annotations, every nodeInfo field', async () => {
    const app = await appWithNodes()
    const node = (await app.inject({ url: '/api/v1/nodes/rack1-n01' })).json()
    expect(Object.keys(node.metadata).sort()).toEqual(['creationTimestamp', 'labels', 'name', 'resourceVersion', 'uid'])
    expect(node.status.daemonEndpoints).toEqual({ kubeletEndpoint: { Port: 10250 } })
    expect(Object.keys(node.status.nodeInfo)).toEqual(['machineID', 'systemUUID', 'bootID', 'kernelVersion', 'osImage',
      'containerRuntimeVersion', 'kubeletVersion', 'kubeProxyVersion', 'operatingSystem', 'architecture'])
    expect(node.status.nodeInfo).toMatchObject({ operatingSystem: 'linux', architecture: 'amd64', bootID: '' })
  })

  it('reports Ready Unknown for a machine that is not deployed and running', async () => {
    const app = await appWithNodes()
    const node = (await app.inject({ url: '/api/v1/nodes/rack1-n03' })).json()
    expect(node.status.conditions[0]).toMatchObject({ type: 'Ready', status: 'Unknown', message: 'machine is Ready, power off' })
  })

  it('answers 404 with a Kubernetes Status for an unknown node', async () => {
    const app = await appWithNodes()
    const res = await app.inject({ url: '/api/v1/nodes/ghost' })
    expect(res.statusCode).toBe(404)
    expect(res.headers['content-type']).toMatch(/^application\/json/)
    expect(res.json()).toEqual(failureStatus(404, 'NotFound', 'nodes "ghost" not found', { name: 'ghost', kind: 'nodes' }))
  })
})
