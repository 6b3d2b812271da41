// The stand-in's Kubernetes ConfigMaps (the deployment-status map the workflow steps write): create, read, list,
// replace, patch and delete, each refusal answered as the real API server answers it, and kept in the state file.
import { describe, expect, it } from 'vitest'
import { MERGE, STRATEGIC, failureStatus } from '../helpers/kube.ts'
import { buildTestApp, tempDir } from '../helpers/site.ts'

const MAPS = '/api/v1/namespaces/ucp/configmaps'
const body = (data: Record<string, unknown>, metadata: Record<string, unknown> = {}) =>
  ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'deployment-status', ...metadata }, data })

async function withMap (env: Record<string, string> = {}) {
  const app = await buildTestApp(env)
  const created = await app.inject({ method: 'POST', url: MAPS, payload: body({ release: 'r1' }, { labels: { a: '1' } }) })
  return { app, created: created.json() }
}

describe('POST /api/v1/namespaces/{ns}/configmaps', () => {
  it('answers 201 with the ConfigMap as stored', async () => {
    const app = await buildTestApp()
    const res = await app.inject({ method: 'POST', url: MAPS, payload: body({ release: 'r1', empty: '' }, { labels: { a: '1' }, annotations: {} }) })
    expect(res.statusCode).toBe(201)
    expect(res.json()).toEqual({
      kind: 'ConfigMap',
      apiVersion: 'v1',
      metadata: {
        name: 'deployment-status', namespace: 'ucp', uid: expect.any(String), resourceVersion: expect.any(String), creationTimestamp: expect.any(String), labels: { a: '1' }
      },
      data: { release: 'r1', empty: '' }
    })
  })

  it('makes a name from generateName', async () => {
    const app = await buildTestApp()
    const res = await app.inject({ method: 'POST', url: MAPS, payload: { metadata: { generateName: 'status-' } } })
    expect(res.statusCode).toBe(201)
    expect(res.json().metadata.name).toMatch(/^status-[a-z0-9]{5}$/)
  })

  it('answers 409 AlreadyExists for a name taken', async () => {
    const { app } = await withMap()
    const res = await app.inject({ method: 'POST', url: MAPS, payload: body({}) })
    expect(res.statusCode).toBe(409)
    expect(res.json()).toEqual(failureStatus(409, 'AlreadyExists', 'configmaps "deployment-status" already exists', { name: 'deployment-status', kind: 'configmaps' }))
  })

  it('answers 404 naming the namespace when it does not exist', async () => {
    const app = await buildTestApp()
    const res = await app.inject({ method: 'POST', url: '/api/v1/namespaces/nope/configmaps', payload: body({}) })
    expect(res.statusCode).toBe(404)
    expect(res.json()).toMatchObject({ kind: 'Status', reason: 'NotFound', message: 'namespaces "nope" not found', details: { name: 'nope', kind: 'namespaces' } })
  })

  it.each([
    ['an invalid name', { name: 'Bad_Name' }, { a: '1' }, 'Bad_Name', 'metadata.name'],
    ['an invalid key', { name: 'bad-key' }, { 'bad key': '1' }, 'bad-key', 'data[bad key]'],
    ['an invalid label', { name: 'bad-label', labels: { 'bad key': 'x' } }, {}, 'bad-label', 'metadata.labels']
  ])('answers 422 Invalid for %s, naming the field', async (_what, metadata, data, name, field) => {
    const app = await buildTestApp()
    const res = await app.inject({ method: 'POST', url: MAPS, payload: body(data, metadata) })
    expect(res.statusCode).toBe(422)
    expect(res.json()).toMatchObject({
      kind: 'Status',
      reason: 'Invalid',
      code: 422,
      message: expect.stringContaining(`ConfigMap "${name}" is invalid: ${field}: Invalid value`),
      details: { name, kind: 'ConfigMap', causes: [{ reason: 'FieldValueInvalid', field }] }
    })
  })

  it('answers 422 with no name in the details for a map with no name, and 400 for a body of another namespace or type', async () => {
    const app = await buildTestApp()
    const unnamed = await app.inject({ method: 'POST', url: MAPS, payload: { metadata: {} } })
    expect(unnamed.statusCode).toBe(422)
    expect(unnamed.json().details).toEqual({
      kind: 'ConfigMap', causes: [{ reason: 'FieldValueRequired', message: 'Required value: name or generateName is required', field: 'metadata.name' }]
    })
    const elsewhere = await app.inject({ method: 'POST', url: MAPS, payload: body({}, { namespace: 'default' }) })
    expect(elsewhere.statusCode).toBe(400)
    expect(elsewhere.json()).toMatchObject({ kind: 'Status', reason: 'BadRequest', message: 'the namespace of the provided object does not match the namespace sent on the request' })
    const wrong = await app.inject({ method: 'POST', url: MAPS, payload: body({ a: 1 }) })
    expect(wrong.statusCode).toBe(400)
    expect(wrong.json().message).toMatch(/^ConfigMap in version "v1" cannot be handled as a ConfigMap: /)
  })
})

describe('GET /api/v1/namespaces/{ns}/configmaps[/{name}]', () => {
  it('answers the map, a ConfigMapList, and 404 for an unknown map or namespace', async () => {
    const { app, created } = await withMap()
    const res = await app.inject({ url: `${MAPS}/deployment-status` })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual(created)
    const list = await app.inject({ url: MAPS, query: { labelSelector: 'a=1' } })
    expect(list.json()).toMatchObject({ kind: 'ConfigMapList', apiVersion: 'v1', items: [{ metadata: { name: 'deployment-status' } }] })
    expect(list.json().items[0]).not.toHaveProperty('kind')
    expect((await app.inject({ url: '/api/v1/namespaces/default/configmaps' })).json().items).toEqual([])
    for (const url of [`${MAPS}/nope`, '/api/v1/namespaces/nope/configmaps/nope']) {
      const missing = await app.inject({ url })
      expect(missing.statusCode).toBe(404)
      expect(missing.json()).toMatchObject({ kind: 'Status', reason: 'NotFound', message: 'configmaps "nope" not found', details: { name: 'nope', kind: 'configmaps' } })
    }
  })
})

describe('PUT /api/v1/namespaces/{ns}/configmaps/{name}', () => {
  it('replaces the map (200), with or without the current resourceVersion; one that changes nothing keeps the version', async () => {
    const { app, created } = await withMap()
    const put = async (payload: Record<string, unknown>) => await app.inject({ method: 'PUT', url: `${MAPS}/deployment-status`, payload })
    const res = await put(body({ status: 'running' }, { resourceVersion: created.metadata.resourceVersion }))
    expect(res.statusCode).toBe(200)
    expect(res.json()).toMatchObject({ metadata: { uid: created.metadata.uid, creationTimestamp: created.metadata.creationTimestamp }, data: { status: 'running' } })
    // a replace drops what the body leaves out
    expect(res.json().metadata).not.toHaveProperty('labels')
    expect(Number(res.json().metadata.resourceVersion)).toBeGreaterThan(Number(created.metadata.resourceVersion))
    const unconditional = await put(body({ status: 'done' }))
    expect(unconditional.statusCode).toBe(200)
    const same = await put(body({ status: 'done' }))
    expect(same.json().metadata.resourceVersion).toBe(unconditional.json().metadata.resourceVersion)
  })

  it('answers 409 Conflict for a stale resourceVersion, 404 for an unknown map, 400 for another name', async () => {
    const { app, created } = await withMap()
    await app.inject({ method: 'PUT', url: `${MAPS}/deployment-status`, payload: body({ a: '2' }) })
    const stale = await app.inject({ method: 'PUT', url: `${MAPS}/deployment-status`, payload: body({ a: '3' }, { resourceVersion: created.metadata.resourceVersion }) })
    expect(stale.statusCode).toBe(409)
    expect(stale.json()).toMatchObject({
      kind: 'Status',
      reason: 'Conflict',
      message: 'Operation cannot be fulfilled on configmaps "deployment-status": the object has been modified; please apply your changes to the latest version and try again',
      details: { name: 'deployment-status', kind: 'configmaps' }
    })
    const missing = await app.inject({ method: 'PUT', url: `${MAPS}/nope`, payload: body({}, { name: 'nope' }) })
    expect(missing.statusCode).toBe(404)
    expect(missing.json()).toMatchObject({ message: 'configmaps "nope" not found' })
    const other = await app.inject({ method: 'PUT', url: `${MAPS}/deployment-status`, payload: body({}, { name: 'other' }) })
    expect(other.statusCode).toBe(400)
    expect(other.json()).toMatchObject({ reason: 'BadRequest', message: 'the name of the object (other) does not match the name on the URL (deployment-status)' })
  })
})

describe('PATCH /api/v1/namespaces/{ns}/configmaps/{name}', () => {
  for (const type of [MERGE, STRATEGIC]) {
    it(`merges data and labels, null deleting (${type})`, async () => {
      const { app, created } = await withMap()
      const res = await app.inject({
        method: 'PATCH', url: `${MAPS}/deployment-status`, headers: { 'content-type': type }, payload: JSON.stringify({ metadata: { labels: { b: '2' } }, data: { release: null, status: 'failed' } })
      })
      expect(res.statusCode).toBe(200)
      expect(res.json()).toMatchObject({ metadata: { labels: { a: '1', b: '2' }, uid: created.metadata.uid }, data: { status: 'failed' } })
      expect(res.json().data).not.toHaveProperty('release')
    })
  }

  it('keeps the resourceVersion for a patch that changes nothing; 409 for a stale one, 404 for an unknown map, 415 for another type', async () => {
    const { app, created } = await withMap()
    const patch = async (url: string, payload: unknown, type = MERGE) =>
      await app.inject({ method: 'PATCH', url, headers: { 'content-type': type }, payload: JSON.stringify(payload) })
    const same = await patch(`${MAPS}/deployment-status`, { data: { release: 'r1' } })
    expect(same.json().metadata.resourceVersion).toBe(created.metadata.resourceVersion)
    await patch(`${MAPS}/deployment-status`, { data: { release: 'r2' } })
    const stale = await patch(`${MAPS}/deployment-status`, { metadata: { resourceVersion: created.metadata.resourceVersion }, data: { a: '1' } })
    expect(stale.statusCode).toBe(409)
    expect(stale.json()).toMatchObject({ kind: 'Status', reason: 'Conflict' })
    const missing = await patch(`${MAPS}/nope`, { data: { a: '1' } })
    expect(missing.statusCode).toBe(404)
    expect(missing.json()).toMatchObject({ message: 'configmaps "nope" not found' })
    const json = await patch(`${MAPS}/deployment-status`, [{ op: 'add', path: '/data/a', value: '1' }], 'application/json-patch+json')
    expect(json.statusCode).toBe(415)
    expect(json.json()).toMatchObject({ kind: 'Status', reason: 'UnsupportedMediaType', code: 415 })
  })

  it('answers 422 Invalid for a data value that is not a string', async () => {
    const { app } = await withMap()
    const res = await app.inject({ method: 'PATCH', url: `${MAPS}/deployment-status`, headers: { 'content-type': MERGE }, payload: '{"data":{"a":1}}' })
    expect(res.statusCode).toBe(422)
    expect(res.json()).toMatchObject({ kind: 'Status', reason: 'Invalid', details: { causes: [{ field: 'patch' }] } })
  })
})

describe('DELETE /api/v1/namespaces/{ns}/configmaps/{name}', () => {
  it('answers 200 with a Success Status naming the map, then 404', async () => {
    const { app, created } = await withMap()
    const res = await app.inject({ method: 'DELETE', url: `${MAPS}/deployment-status` })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', details: { name: 'deployment-status', kind: 'configmaps', uid: created.metadata.uid }
    })
    const again = await app.inject({ method: 'DELETE', url: `${MAPS}/deployment-status` })
    expect(again.statusCode).toBe(404)
    expect(again.json()).toMatchObject({ kind: 'Status', message: 'configmaps "deployment-status" not found' })
  })
})

describe('ConfigMaps in the state file', () => {
  it('are kept across a restart with SITE_DATA_DIR, with the resource versions going on from where they were', async () => {
    const dir = tempDir()
    const { app, created } = await withMap({ SITE_DATA_DIR: dir })
    await app.close()
    const again = await buildTestApp({ SITE_DATA_DIR: dir })
    const res = await again.inject({ url: `${MAPS}/deployment-status` })
    expect(res.json()).toEqual(created)
    const next = await again.inject({ method: 'POST', url: MAPS, payload: body({}, { name: 'second' }) })
    expect(Number(next.json().metadata.resourceVersion)).toBeGreaterThan(Number(created.metadata.resourceVersion))
  })
})
