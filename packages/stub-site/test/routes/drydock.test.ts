import { describe, expect, it } from 'vitest'
import { Value } from 'typebox/value'
import { DrydockNodeSchema } from '../../src/schemas/nodes.ts'
import { failureStatus } from '../helpers/kube.ts'
import { EXAMPLE_NODES_FILE, buildTestApp } from '../helpers/site.ts'

describe('GET /api/v1.0/nodes', () => {
  it('answers an empty list when no nodes file and no store are configured', async () => {
    const app = await buildTestApp()
    const res = await app.inject({ url: '/api/v1.0/nodes' })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual([])
  })

  it('lists the nodes of the nodes file in Drydock\'s shape, defaults filled in', async () => {
    const app = await buildTestApp({ SITE_NODES_FILE: EXAMPLE_NODES_FILE })
    const res = await app.inject({ url: '/api/v1.0/nodes' })
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toMatch(/^application\/json/)
    const nodes = res.json() as unknown[]
    expect(nodes).toHaveLength(4)
    for (const node of nodes) expect(Value.Check(DrydockNodeSchema, node)).toBe(true)
    expect(nodes[0]).toEqual({
      hostname: 'rack1-n01',
      memory: 131072,
      cpu_count: 48,
      status_name: 'Deployed',
      boot_mac: '52:54:00:aa:bb:01',
      power_state: 'on',
      power_address: '10.23.0.11',
      boot_ip: '10.23.1.11'
    })
    // rack1-n03 gives only addresses: Ready, off, and a generated QEMU-range MAC
    expect(nodes[2]).toMatchObject({ hostname: 'rack1-n03', status_name: 'Ready', power_state: 'off', boot_mac: expect.stringMatching(/^52:54:00(:[0-9a-f]{2}){3}$/) })
    expect(nodes[3]).toMatchObject({ hostname: 'rack2-n01', status_name: 'Failed deployment', power_state: 'off' })
  })

  it('carries x-service-req and echoes a UUID context marker', async () => {
    const app = await buildTestApp()
    const marker = '7b0c8e1e-6c5f-4d2e-9d5a-0c1b2a3d4e5f'
    const res = await app.inject({ url: '/api/v1.0/nodes', headers: { 'x-context-marker': marker } })
    expect(res.headers['x-service-req']).toMatch(/^[0-9a-f-]{36}$/)
    expect(res.headers['x-context-marker']).toBe(marker)
  })
})

describe('authentication', () => {
  it('is open without SITE_AUTH_TOKENS, with or without a token', async () => {
    const app = await buildTestApp({ SITE_NODES_FILE: EXAMPLE_NODES_FILE })
    expect((await app.inject({ url: '/api/v1.0/nodes' })).statusCode).toBe(200)
    expect((await app.inject({ url: '/api/v1.0/nodes', headers: { 'x-auth-token': 'anything' } })).statusCode).toBe(200)
    expect((await app.inject({ url: '/api/v1/nodes', headers: { authorization: 'Bearer anything' } })).statusCode).toBe(200)
  })

  it('with SITE_AUTH_TOKENS takes X-Auth-Token or a Bearer token from the list', async () => {
    const app = await buildTestApp({ SITE_AUTH_TOKENS: 'one, two' })
    expect((await app.inject({ url: '/api/v1.0/nodes', headers: { 'x-auth-token': 'two' } })).statusCode).toBe(200)
    expect((await app.inject({ url: '/api/v1/nodes', headers: { authorization: 'Bearer one' } })).statusCode).toBe(200)
    expect((await app.inject({ url: '/api/v1/nodes', headers: { authorization: 'bearer one' } })).statusCode).toBe(200)
  })

  it('with SITE_AUTH_TOKENS answers 401 on the Drydock route with the error body and WWW-Authenticate', async () => {
    const app = await buildTestApp({ SITE_AUTH_TOKENS: 'one' })
    for (const headers of [{}, { 'x-auth-token': 'wrong' }, { authorization: 'Basic b25lOg==' }]) {
      const res = await app.inject({ url: '/api/v1.0/nodes', headers })
      expect(res.statusCode).toBe(401)
      expect(res.headers['www-authenticate']).toBe('Bearer realm="stub-site"')
      expect(res.json()).toMatchObject({ kind: 'status', status: 'Failure', message: 'Unauthenticated', code: '401 Unauthorized' })
    }
  })

  it('with SITE_AUTH_TOKENS answers 401 on Kubernetes routes as a Kubernetes Status', async () => {
    const app = await buildTestApp({ SITE_AUTH_TOKENS: 'one' })
    for (const request of [{ url: '/api/v1/nodes/n1' }, { url: '/api/v1/nodes', headers: { authorization: 'Bearer wrong' } }]) {
      const res = await app.inject(request)
      expect(res.statusCode).toBe(401)
      // Kubernetes' own text: the message is the reason, whatever the cause
      expect(res.json()).toEqual(failureStatus(401, 'Unauthorized', 'Unauthorized'))
    }
  })

  it('with SITE_AUTH_TOKENS guards the control routes too, never the health checks', async () => {
    const app = await buildTestApp({ SITE_AUTH_TOKENS: 'one' })
    expect((await app.inject({ method: 'PUT', url: '/_stub/fault', payload: { mode: 'none' } })).statusCode).toBe(401)
    expect((await app.inject({ method: 'PUT', url: '/_stub/fault', payload: { mode: 'none' }, headers: { 'x-auth-token': 'one' } })).statusCode).toBe(200)
    expect((await app.inject({ url: '/api/v1.0/health' })).statusCode).toBe(204)
    const healthz = await app.inject({ url: '/healthz' })
    expect(healthz.statusCode).toBe(200)
    expect(healthz.body).toBe('ok')
  })
})

describe('routes outside the Kubernetes API', () => {
  it('answers 404 with the error body for an unknown path and 405 for a wrong method', async () => {
    const app = await buildTestApp()
    const missing = await app.inject({ url: '/api/v1.0/machines' })
    expect(missing.statusCode).toBe(404)
    expect(missing.json()).toMatchObject({ kind: 'status', status: 'Failure', code: '404 Not Found' })
    const wrong = await app.inject({ method: 'DELETE', url: '/api/v1.0/nodes' })
    expect(wrong.statusCode).toBe(405)
    expect(wrong.headers.allow).toContain('GET')
    expect(wrong.json()).toMatchObject({ status: 'Failure', code: '405 Method Not Allowed' })
  })
})
