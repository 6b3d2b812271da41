import { describe, expect, it } from 'vitest'
import { AUTH, isErrorBody, TEST_TOKENS } from '@slipway/common/testing'
import { createKubernetesClient, type KubernetesClient } from '../../src/clients/kubernetes.ts'
import { buildTestApp, clusterNodes, startKube } from '../helpers/servers.ts'
import { LABELS_UPDATED } from '../../src/routes/node-labels.ts'

const JSON_HEADERS = { ...AUTH, 'content-type': 'application/json' }

describe('PUT /api/v1.0/node-labels/{node_name}', () => {
  it('patches the difference and answers 200 with the Status body (b removed, c changed)', async () => {
    const kube = await startKube(clusterNodes())
    const app = await buildTestApp({ kubeUrl: kube.url })
    const res = await app.inject({ method: 'PUT', url: '/api/v1.0/node-labels/n1', headers: JSON_HEADERS, payload: { a: '1', c: '3' } })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual(LABELS_UPDATED)
    expect(kube.patches).toEqual([{ name: 'n1', body: { metadata: { labels: { b: null, c: '3' } } }, contentType: 'application/strategic-merge-patch+json' }])
    expect(kube.nodes.get('n1')?.labels).toEqual({ a: '1', c: '3', 'kubernetes.io/hostname': 'n1', 'node-role.kubernetes.io/worker': '' })
  })

  it('makes no write when nothing changes, and accepts a charset parameter', async () => {
    const kube = await startKube(clusterNodes())
    const app = await buildTestApp({ kubeUrl: kube.url })
    const res = await app.inject({ method: 'PUT', url: '/api/v1.0/node-labels/n1', headers: { ...AUTH, 'content-type': 'application/json; charset=utf-8' }, payload: { a: '1', b: '2' } })
    expect(res.statusCode).toBe(200)
    expect(kube.patches).toEqual([])
  })

  it.each([
    ['no body', undefined, 'Missing input: labels dict'],
    ['invalid JSON', '{"a":', 'Invalid JSON in body'],
    ['a list', '["a"]', 'JSON object'],
    ['a number value', '{"a": 1}', "label 'a' must be a string or null"],
    ['an invalid key', '{"bad key": "x"}', 'not a valid label name'],
    ['an invalid value', '{"a": "$(reboot)"}', 'not a valid label value']
  ])('answers 400 InvalidFormatError for %s', async (_what, payload, reason) => {
    const kube = await startKube(clusterNodes())
    const app = await buildTestApp({ kubeUrl: kube.url })
    const res = await app.inject({ method: 'PUT', url: '/api/v1.0/node-labels/n1', headers: JSON_HEADERS, payload })
    expect(res.statusCode).toBe(400)
    expect(res.json()).toMatchObject({ code: '400 Bad Request', details: { errorType: 'InvalidFormatError' } })
    expect(res.json().reason).toContain(reason)
    expect(kube.patches).toEqual([])
  })

  it('answers invalid JSON with the request path in the reason', async () => {
    const kube = await startKube(clusterNodes())
    const app = await buildTestApp({ kubeUrl: kube.url })
    const res = await app.inject({ method: 'PUT', url: '/api/v1.0/node-labels/n1', headers: JSON_HEADERS, payload: '{"a":' })
    expect(res.statusCode).toBe(400)
    expect(res.json()).toMatchObject({ message: 'JSON could not be decoded', details: { errorType: 'InvalidFormatError' } })
    expect(res.json().reason).toMatch(/^\/api\/v1\.0\/node-labels\/n1: Invalid JSON in body: ./)
    expect(res.json().details.messageList[0].message).toBe(res.json().reason)
  })

  it.each([254, 300, 512])('answers 404 Node not found for a %i-character node name, as Kubernetes would', async (length) => {
    const kube = await startKube(clusterNodes())
    const app = await buildTestApp({ kubeUrl: kube.url })
    const res = await app.inject({ method: 'PUT', url: `/api/v1.0/node-labels/${'n'.repeat(length)}`, headers: JSON_HEADERS, payload: { a: '1' } })
    expect(res.statusCode).toBe(404)
    expect(res.json()).toMatchObject({ status: 'Failure', message: 'Node not found', code: '404 Not Found', details: { errorType: 'NodeNotFoundException' } })
    expect(kube.patches).toEqual([])
  })

  it('answers 503 KubernetesApiError when the PATCH answers 404 (only the GET\'s 404 is Node not found)', async () => {
    const kube = await startKube(clusterNodes(), { patchStatus: 404 })
    const app = await buildTestApp({ kubeUrl: kube.url })
    const res = await app.inject({ method: 'PUT', url: '/api/v1.0/node-labels/n1', headers: JSON_HEADERS, payload: { a: '1', c: '3' } })
    expect(res.statusCode).toBe(503)
    expect(res.json()).toMatchObject({ message: 'Kubernetes API Error', code: '503 Service Unavailable', details: { errorType: 'KubernetesApiError' } })
    expect(kube.patches).toHaveLength(1)
  })

  it('answers 400 InvalidFormatError carrying the cluster\'s reason when the PATCH answers 422 Invalid', async () => {
    const kube = await startKube(clusterNodes(), { patchStatus: 422 })
    const app = await buildTestApp({ kubeUrl: kube.url })
    const res = await app.inject({ method: 'PUT', url: '/api/v1.0/node-labels/n1', headers: JSON_HEADERS, payload: { a: '1', c: '3' } })
    expect(res.statusCode).toBe(400)
    expect(res.json()).toMatchObject({ message: 'Invalid Input Error', code: '400 Bad Request', details: { errorType: 'InvalidFormatError' } })
    expect(res.json().reason).toBe('the cluster refused the labels of node n1: {"kind":"Status","status":"Failure","code":422}')
    expect(kube.patches).toHaveLength(1)
  })

  it('answers 404 for a node the cluster does not have, and for a missing node name', async () => {
    const kube = await startKube(clusterNodes())
    const app = await buildTestApp({ kubeUrl: kube.url })
    const res = await app.inject({ method: 'PUT', url: '/api/v1.0/node-labels/nX', headers: JSON_HEADERS, payload: {} })
    expect(res.statusCode).toBe(404)
    expect(res.json()).toMatchObject({ message: 'Node not found', details: { errorType: 'NodeNotFoundException' } })
    for (const path of ['/api/v1.0/node-labels/', '/api/v1.0/node-labels']) {
      const bad = await app.inject({ method: 'PUT', url: path, headers: JSON_HEADERS, payload: {} })
      expect(bad.statusCode, path).toBe(404)
    }
  })

  it('answers 502 without a Kubernetes configuration', async () => {
    const app = await buildTestApp()
    const res = await app.inject({ method: 'PUT', url: '/api/v1.0/node-labels/n1', headers: JSON_HEADERS, payload: {} })
    expect(res.statusCode).toBe(502)
    expect(res.json()).toMatchObject({ message: 'Kubernetes Config Error', details: { errorType: 'KubernetesConfigException' } })
  })

  it('answers 503 when the cluster fails or cannot be reached', async () => {
    const kube = await startKube(clusterNodes(), { fail: true })
    for (const kubeUrl of [kube.url, 'http://127.0.0.1:1']) {
      const app = await buildTestApp({ kubeUrl })
      const res = await app.inject({ method: 'PUT', url: '/api/v1.0/node-labels/n1', headers: JSON_HEADERS, payload: { a: '1' } })
      expect(res.statusCode, kubeUrl).toBe(503)
      expect(res.json()).toMatchObject({ message: 'Kubernetes API Error', details: { errorType: 'KubernetesApiError' } })
    }
  })

  it('answers 500 with the error body, and nothing of the failure\'s internals, when something unexpected breaks', async () => {
    const kube = await startKube(clusterNodes())
    const real = createKubernetesClient({ connect: () => ({ server: kube.url, token: () => undefined }), timeoutMs: 10_000 })
    const broken: KubernetesClient = { ...real, getNode: async () => { throw new TypeError('secret internal detail at /src/x.ts:1') } }
    const app = await buildTestApp({ kubernetes: broken })
    const res = await app.inject({ method: 'PUT', url: '/api/v1.0/node-labels/n1', headers: JSON_HEADERS, payload: { a: '1' } })
    expect(res.statusCode).toBe(500)
    expect(isErrorBody(res.json())).toBe(true)
    expect(res.json()).toMatchObject({ code: '500 Internal Server Error', retry: true })
    expect(res.body).not.toContain('secret internal detail')
    expect(kube.patches).toEqual([])
  })

  it('answers 401 and 403', async () => {
    const app = await buildTestApp()
    const anonymous = await app.inject({ method: 'PUT', url: '/api/v1.0/node-labels/n1', payload: {} })
    expect(anonymous.statusCode).toBe(401)
    expect(anonymous.json()).toMatchObject({ message: 'Unauthenticated', reason: 'Credentials are not established' })
    const reader = await app.inject({ method: 'PUT', url: '/api/v1.0/node-labels/n1', headers: { 'x-auth-token': TEST_TOKENS.reader }, payload: {} })
    expect(reader.statusCode).toBe(403)
  })
})

describe('health, versions and routing', () => {
  it('answers health with 204 and no body, without a token', async () => {
    const app = await buildTestApp()
    const res = await app.inject({ url: '/api/v1.0/health' })
    expect(res.statusCode).toBe(204)
    expect(res.body).toBe('')
    expect(res.headers['x-service-req']).toBeDefined()
  })
  it('answers /versions, OPTIONS with Allow, 404 and 405 with the error body', async () => {
    const app = await buildTestApp()
    expect((await app.inject({ url: '/versions' })).json()).toEqual({ 'v1.0': { path: '/api/v1.0', status: 'stable' } })
    const options = await app.inject({ method: 'OPTIONS', url: '/api/v1.0/join-scripts' })
    expect(options.statusCode).toBe(200)
    expect(options.headers.allow).toBe('GET, OPTIONS')
    const missing = await app.inject({ url: '/api/v1.0/health/' })
    expect(missing.statusCode).toBe(404)
    expect(missing.json()).toMatchObject({ status: 'Failure', code: '404 Not Found' })
    const wrong = await app.inject({ method: 'POST', url: '/api/v1.0/node-labels/n1', headers: AUTH })
    expect(wrong.statusCode).toBe(405)
    expect(wrong.headers.allow).toBe('PUT, OPTIONS')
  })
  it('sends the request id as X-Deckhand-Req too and echoes X-End-User', async () => {
    const app = await buildTestApp()
    const res = await app.inject({ url: '/api/v1.0/health', headers: { 'x-end-user': 'drydock' } })
    expect(res.headers['x-deckhand-req']).toBe(res.headers['x-service-req'])
    expect(res.headers['x-end-user']).toBe('drydock')
  })
  it('carries them on 401 and 403 answers as well, and takes any context marker as it is', async () => {
    const app = await buildTestApp()
    const unauthenticated = await app.inject({ method: 'PUT', url: '/api/v1.0/node-labels/n1', headers: { 'x-end-user': 'drydock', 'x-context-marker': 'my-marker' } })
    expect(unauthenticated.statusCode).toBe(401)
    expect(unauthenticated.headers['x-deckhand-req']).toBe(unauthenticated.headers['x-service-req'])
    expect(unauthenticated.headers['x-end-user']).toBe('drydock')
    expect(unauthenticated.headers['x-context-marker']).toBe('my-marker')
    const forbidden = await app.inject({ method: 'PUT', url: '/api/v1.0/node-labels/n1', headers: { 'x-auth-token': TEST_TOKENS.reader } })
    expect(forbidden.statusCode).toBe(403)
    expect(forbidden.headers['x-deckhand-req']).toBe(forbidden.headers['x-service-req'])
    expect(forbidden.headers['x-context-marker']).toBe(forbidden.headers['x-service-req'])
  })
})
