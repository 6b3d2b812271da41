import { describe, expect, it } from 'vitest'
import { EXAMPLE_NODES_FILE, buildTestApp } from '../helpers/site.ts'

const MERGE = 'application/merge-patch+json'
const STRATEGIC = 'application/strategic-merge-patch+json'

async function appWithNodes () {
  return await buildTestApp({ SITE_NODES_FILE: EXAMPLE_NODES_FILE })
}

function labelPatch (labels: unknown, metadata: Record<string, unknown> = {}) {
  return JSON.stringify({ metadata: { ...metadata, labels } })
}

function names (list: { items: Array<{ metadata: { name: string } }> }): string[] {
  return list.items.map((n) => n.metadata.name)
}

const SYSTEM_LABELS = {
  'kubernetes.io/hostname': 'rack1-n01',
  'kubernetes.io/os': 'linux',
  'kubernetes.io/arch': 'amd64',
  'beta.kubernetes.io/os': 'linux',
  'beta.kubernetes.io/arch': 'amd64'
}

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
    expect(res.json()).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason: 'BadRequest', code: 400 })
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
    expect(res.json()).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'nodes "ghost" not found',
      reason: 'NotFound',
      details: { name: 'ghost', kind: 'nodes' },
      code: 404
    })
  })
})

describe('PATCH /api/v1/nodes/{name}', () => {
  for (const type of [MERGE, STRATEGIC]) {
    describe(type, () => {
      it('adds and overrides labels, keeps the others, and bumps the resource version', async () => {
        const app = await appWithNodes()
        const res = await app.inject({
          method: 'PATCH',
          url: '/api/v1/nodes/rack1-n01',
          headers: { 'content-type': type },
          payload: labelPatch({ 'ucp-control-plane': 'disabled', 'ceph-osd': 'enabled' })
        })
        expect(res.statusCode).toBe(200)
        expect(res.json().metadata).toMatchObject({
          resourceVersion: '5',
          labels: { ...SYSTEM_LABELS, 'ucp-control-plane': 'disabled', 'openstack-control-plane': 'enabled', 'ceph-osd': 'enabled' }
        })
        const again = await app.inject({ url: '/api/v1/nodes/rack1-n01' })
        expect(again.json().metadata.labels['ceph-osd']).toBe('enabled')
      })

      it('deletes a label given null, system labels included', async () => {
        const app = await appWithNodes()
        const res = await app.inject({
          method: 'PATCH',
          url: '/api/v1/nodes/rack1-n01',
          headers: { 'content-type': `${type}; charset=utf-8` },
          payload: labelPatch({ 'ucp-control-plane': null, 'kubernetes.io/os': null, 'never-there': null })
        })
        expect(res.statusCode).toBe(200)
        const labels = res.json().metadata.labels
        expect(labels).not.toHaveProperty('ucp-control-plane')
        expect(labels).not.toHaveProperty('kubernetes.io/os')
        expect(labels).toHaveProperty('openstack-control-plane', 'enabled')
      })

      it('changes nothing, resource version included, for a patch without changes', async () => {
        const app = await appWithNodes()
        const res = await app.inject({ method: 'PATCH', url: '/api/v1/nodes/rack1-n01', headers: { 'content-type': type }, payload: labelPatch({ 'ucp-control-plane': 'enabled' }) })
        expect(res.statusCode).toBe(200)
        expect(res.json().metadata.resourceVersion).toBe('1')
      })

      it('answers 422 Invalid with causes for a label Kubernetes refuses, and changes nothing', async () => {
        const app = await appWithNodes()
        const res = await app.inject({ method: 'PATCH', url: '/api/v1/nodes/rack1-n01', headers: { 'content-type': type }, payload: labelPatch({ ok: 'yes', 'bad key': 'x' }) })
        expect(res.statusCode).toBe(422)
        expect(res.json()).toMatchObject({
          kind: 'Status',
          apiVersion: 'v1',
          status: 'Failure',
          reason: 'Invalid',
          code: 422,
          message: expect.stringMatching(/^Node "rack1-n01" is invalid: metadata.labels: Invalid value: "bad key"/),
          details: { name: 'rack1-n01', kind: 'Node', causes: [{ reason: 'FieldValueInvalid', field: 'metadata.labels' }] }
        })
        const node = (await app.inject({ url: '/api/v1/nodes/rack1-n01' })).json()
        expect(node.metadata.labels).not.toHaveProperty('ok')
      })

      it('answers 422 Invalid on the field patch, no name or kind, for labels or a label value of the wrong type', async () => {
        const app = await appWithNodes()
        for (const [labels, why] of [[{ a: 1 }, 'metadata.labels.a must be a string or null, got number'], ['x', 'metadata.labels must be an object of strings, or null']] as const) {
          const res = await app.inject({ method: 'PATCH', url: '/api/v1/nodes/rack1-n01', headers: { 'content-type': type }, payload: labelPatch(labels) })
          expect(res.statusCode).toBe(422)
          const cause = `Invalid value: ${JSON.stringify(labelPatch(labels))}: ${why}`
          expect(res.json()).toEqual({
            kind: 'Status',
            apiVersion: 'v1',
            metadata: {},
            status: 'Failure',
            message: ` "" is invalid: patch: ${cause}`,
            reason: 'Invalid',
            details: { causes: [{ reason: 'FieldValueInvalid', message: cause, field: 'patch' }] },
            code: 422
          })
        }
      })

      it('lists two or more invalid labels in brackets, each on the field metadata.labels', async () => {
        const app = await appWithNodes()
        const res = await app.inject({ method: 'PATCH', url: '/api/v1/nodes/rack1-n01', headers: { 'content-type': type }, payload: labelPatch({ 'b c': 'x', d: '-' }) })
        expect(res.statusCode).toBe(422)
        expect(res.json().message).toMatch(/^Node "rack1-n01" is invalid: \[metadata\.labels: Invalid value: "b c": .*, metadata\.labels: Invalid value: "-": .*\]$/)
        expect(res.json().details.causes.map((c: { field: string }) => c.field)).toEqual(['metadata.labels', 'metadata.labels'])
      })

      it('answers 400 BadRequest for a body that is not JSON', async () => {
        const app = await appWithNodes()
        const res = await app.inject({ method: 'PATCH', url: '/api/v1/nodes/rack1-n01', headers: { 'content-type': type }, payload: '{"metadata":' })
        expect(res.statusCode).toBe(400)
        expect(res.json()).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'invalid JSON patch', reason: 'BadRequest', code: 400 })
      })

      it('answers 409 Conflict for a metadata.resourceVersion that is not the node\'s, and changes nothing', async () => {
        const app = await appWithNodes()
        const read = (await app.inject({ url: '/api/v1/nodes/rack1-n01' })).json().metadata.resourceVersion
        // a state change bumps the node's resource version, so the version read above is stale
        await app.inject({ method: 'PUT', url: '/_stub/nodes/rack1-n01/state', payload: { power_state: 'off' } })
        const res = await app.inject({ method: 'PATCH', url: '/api/v1/nodes/rack1-n01', headers: { 'content-type': type }, payload: labelPatch({ 'ceph-osd': 'enabled' }, { resourceVersion: read }) })
        expect(res.statusCode).toBe(409)
        expect(res.json()).toEqual({
          kind: 'Status',
          apiVersion: 'v1',
          metadata: {},
          status: 'Failure',
          message: 'Operation cannot be fulfilled on nodes "rack1-n01": the object has been modified; please apply your changes to the latest version and try again',
          reason: 'Conflict',
          details: { name: 'rack1-n01', kind: 'nodes' },
          code: 409
        })
        const node = (await app.inject({ url: '/api/v1/nodes/rack1-n01' })).json()
        expect(node.metadata.resourceVersion).toBe('5')
        expect(node.metadata.labels).not.toHaveProperty('ceph-osd')
      })

      it('applies a patch whose metadata.resourceVersion is the node\'s, or empty, and bumps it', async () => {
        const app = await appWithNodes()
        const res = await app.inject({ method: 'PATCH', url: '/api/v1/nodes/rack1-n01', headers: { 'content-type': type }, payload: labelPatch({ 'ceph-osd': 'enabled' }, { resourceVersion: '1', name: 'rack1-n01' }) })
        expect(res.statusCode).toBe(200)
        expect(res.json().metadata).toMatchObject({ resourceVersion: '5', labels: { 'ceph-osd': 'enabled' } })
        const unconditional = await app.inject({ method: 'PATCH', url: '/api/v1/nodes/rack1-n01', headers: { 'content-type': type }, payload: labelPatch({ 'ceph-osd': null }, { resourceVersion: '' }) })
        expect(unconditional.statusCode).toBe(200)
        expect(unconditional.json().metadata.resourceVersion).toBe('6')
      })

      it('answers 400 BadRequest for a metadata.name that is not the one on the URL, and changes nothing', async () => {
        const app = await appWithNodes()
        const res = await app.inject({ method: 'PATCH', url: '/api/v1/nodes/rack1-n01', headers: { 'content-type': type }, payload: labelPatch({ 'ceph-osd': 'enabled' }, { name: 'rack1-n02' }) })
        expect(res.statusCode).toBe(400)
        expect(res.json()).toEqual({
          kind: 'Status',
          apiVersion: 'v1',
          metadata: {},
          status: 'Failure',
          message: 'the name of the object (rack1-n02) does not match the name on the URL (rack1-n01)',
          reason: 'BadRequest',
          code: 400
        })
        const node = (await app.inject({ url: '/api/v1/nodes/rack1-n01' })).json()
        expect(node.metadata).toMatchObject({ resourceVersion: '1' })
        expect(node.metadata.labels).not.toHaveProperty('ceph-osd')
      })

      it('answers 422 Invalid on the field patch for a metadata.resourceVersion or name that is not a string', async () => {
        const app = await appWithNodes()
        for (const field of ['resourceVersion', 'name']) {
          const res = await app.inject({ method: 'PATCH', url: '/api/v1/nodes/rack1-n01', headers: { 'content-type': type }, payload: labelPatch({ a: 'b' }, { [field]: 1 }) })
          expect(res.statusCode).toBe(422)
          expect(res.json()).toMatchObject({ kind: 'Status', reason: 'Invalid', code: 422, details: { causes: [{ field: 'patch' }] } })
          expect(res.json().message).toMatch(new RegExp(`^ "" is invalid: patch: Invalid value: .*: metadata\\.${field} must be a string, got number$`))
        }
      })

      it('answers 404 NotFound for an unknown node', async () => {
        const app = await appWithNodes()
        const res = await app.inject({ method: 'PATCH', url: '/api/v1/nodes/ghost', headers: { 'content-type': type }, payload: labelPatch({ a: 'b' }) })
        expect(res.statusCode).toBe(404)
        expect(res.json()).toMatchObject({ kind: 'Status', reason: 'NotFound', code: 404, message: 'nodes "ghost" not found' })
      })
    })
  }

  it('strategic merge patch: $patch replace replaces the label map', async () => {
    const app = await appWithNodes()
    const res = await app.inject({ method: 'PATCH', url: '/api/v1/nodes/rack1-n01', headers: { 'content-type': STRATEGIC }, payload: labelPatch({ $patch: 'replace', only: 'this' }) })
    expect(res.statusCode).toBe(200)
    expect(res.json().metadata.labels).toEqual({ only: 'this' })
  })

  it('merge patch: $patch is a label key, which Kubernetes refuses with 422', async () => {
    const app = await appWithNodes()
    const res = await app.inject({ method: 'PATCH', url: '/api/v1/nodes/rack1-n01', headers: { 'content-type': MERGE }, payload: labelPatch({ $patch: 'replace', only: 'this' }) })
    expect(res.statusCode).toBe(422)
    expect(res.json()).toMatchObject({ reason: 'Invalid', message: expect.stringContaining('Invalid value: "$patch"') })
  })

  it('labels: null removes every label', async () => {
    const app = await appWithNodes()
    const res = await app.inject({ method: 'PATCH', url: '/api/v1/nodes/rack1-n02', headers: { 'content-type': MERGE }, payload: labelPatch(null) })
    expect(res.statusCode).toBe(200)
    expect(res.json().metadata.labels).toEqual({})
  })

  it.each([
    ['application/json', '{}'],
    ['application/json-patch+json', '[]'],
    ['application/apply-patch+yaml', 'metadata: {}'],
    ['text/plain', 'x']
  ])('answers 415 UnsupportedMediaType for %s', async (type, payload) => {
    const app = await appWithNodes()
    const res = await app.inject({ method: 'PATCH', url: '/api/v1/nodes/rack1-n01', headers: { 'content-type': type }, payload })
    expect(res.statusCode).toBe(415)
    expect(res.json()).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: '415: Unsupported Media Type',
      reason: 'UnsupportedMediaType',
      details: {},
      code: 415
    })
  })

  it('answers 415 for a patch without a content type', async () => {
    const app = await appWithNodes()
    const res = await app.inject({ method: 'PATCH', url: '/api/v1/nodes/rack1-n01' })
    expect(res.statusCode).toBe(415)
    expect(res.json()).toMatchObject({ kind: 'Status', reason: 'UnsupportedMediaType', code: 415 })
  })
})

describe('other requests under /api/v1', () => {
  it('answers 405 MethodNotAllowed with Allow for a wrong method on a node', async () => {
    const app = await appWithNodes()
    const res = await app.inject({ method: 'DELETE', url: '/api/v1/nodes/rack1-n01' })
    expect(res.statusCode).toBe(405)
    expect(res.headers.allow).toBe('GET, PATCH')
    expect(res.json()).toMatchObject({ kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'MethodNotAllowed', code: 405 })
    const list = await app.inject({ method: 'POST', url: '/api/v1/nodes', headers: { 'content-type': 'application/json' }, payload: '{}' })
    expect(list.statusCode).toBe(405)
    expect(list.headers.allow).toBe('GET')
  })

  it.each(['/api/v1/namespaces/ucp/configmaps', '/api/v1/nodes/', '/api/v1/nodes/rack1-n01/status'])('answers 404 NotFound as a Kubernetes Status for %s', async (url) => {
    const app = await appWithNodes()
    const res = await app.inject({ url })
    expect(res.statusCode).toBe(404)
    expect(res.json()).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'the server could not find the requested resource', reason: 'NotFound', code: 404 })
  })

  it('takes node names of 253 characters, and answers 400 BadRequest as a Kubernetes Status for longer ones', async () => {
    const app = await appWithNodes()
    const longest = 'n'.repeat(253)
    const missing = await app.inject({ url: `/api/v1/nodes/${longest}` })
    expect(missing.statusCode).toBe(404)
    expect(missing.json()).toMatchObject({ kind: 'Status', reason: 'NotFound', message: `nodes "${longest}" not found` })
    const res = await app.inject({ url: `/api/v1/nodes/${'n'.repeat(254)}` })
    expect(res.statusCode).toBe(400)
    expect(res.json()).toMatchObject({ kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'BadRequest', code: 400 })
  })
})
