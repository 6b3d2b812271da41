// The stand-in's Kubernetes node API, writes: label patches and their refusals, and requests it does not serve.
import { describe, expect, it } from 'vitest'
import { MERGE, STRATEGIC, SYSTEM_LABELS, appWithNodes, failureStatus, labelPatch } from '../helpers/kube.ts'

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
          expect(res.json()).toEqual(failureStatus(422, 'Invalid',
            ` "" is invalid: patch: ${cause}`, { causes: [{ reason: 'FieldValueInvalid', message: cause, field: 'patch' }] }))
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
        expect(res.json()).toEqual(failureStatus(400, 'BadRequest', 'invalid JSON patch'))
      })

      it('answers 409 Conflict for a metadata.resourceVersion that is not the node\'s, and changes nothing', async () => {
        const app = await appWithNodes()
        const read = (await app.inject({ url: '/api/v1/nodes/rack1-n01' })).json().metadata.resourceVersion
        // a state change bumps the node's resource version, so the version read above is stale
        await app.inject({ method: 'PUT', url: '/_stub/nodes/rack1-n01/state', payload: { power_state: 'off' } })
        const res = await app.inject({ method: 'PATCH', url: '/api/v1/nodes/rack1-n01', headers: { 'content-type': type }, payload: labelPatch({ 'ceph-osd': 'enabled' }, { resourceVersion: read }) })
        expect(res.statusCode).toBe(409)
        expect(res.json()).toEqual(failureStatus(409, 'Conflict',
          'Operation cannot be fulfilled on nodes "rack1-n01": the object has been modified; please apply your changes to the latest version and try again', { name: 'rack1-n01', kind: 'nodes' }))
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
        expect(res.json()).toEqual(failureStatus(400, 'BadRequest', 'the name of the object (rack1-n02) does not match the name on the URL (rack1-n01)'))
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
    expect(res.json()).toEqual(failureStatus(415, 'UnsupportedMediaType', '415: Unsupported Media Type', {}))
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
    const res = await app.inject({ method: 'PUT', url: '/api/v1/nodes/rack1-n01', headers: { 'content-type': 'application/json' }, payload: '{}' })
    expect(res.statusCode).toBe(405)
    expect(res.headers.allow).toBe('GET, PATCH, DELETE')
    expect(res.json()).toMatchObject({ kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'MethodNotAllowed', code: 405 })
    const list = await app.inject({ method: 'POST', url: '/api/v1/nodes', headers: { 'content-type': 'application/json' }, payload: '{}' })
    expect(list.statusCode).toBe(405)
    expect(list.headers.allow).toBe('GET')
  })

  it.each(['/api/v1/namespaces/ucp/secrets', '/api/v1/nodes/', '/api/v1/nodes/rack1-n01/status'])('answers 404 NotFound as a Kubernetes Status for %s', async (url) => {
    const app = await appWithNodes()
    const res = await app.inject({ url })
    expect(res.statusCode).toBe(404)
    expect(res.json()).toEqual(failureStatus(404, 'NotFound', 'the server could not find the requested resource'))
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
