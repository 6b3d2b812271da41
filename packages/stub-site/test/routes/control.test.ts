import { describe, expect, it } from 'vitest'
import { STATUS_NAMES } from '../../src/index.ts'
import { EXAMPLE_NODES_FILE, buildTestApp } from '../helpers/site.ts'

async function appWithNodes () {
  return await buildTestApp({ SITE_NODES_FILE: EXAMPLE_NODES_FILE })
}

function putState (app: Awaited<ReturnType<typeof appWithNodes>>, hostname: string, payload: unknown) {
  return app.inject({ method: 'PUT', url: `/_stub/nodes/${hostname}/state`, headers: { 'content-type': 'application/json' }, payload: JSON.stringify(payload) })
}

describe('PUT /_stub/nodes/{hostname}/state', () => {
  it('moves status and power, answers the node in Drydock\'s shape, and the lists show it', async () => {
    const app = await appWithNodes()
    const res = await putState(app, 'rack1-n03', { status_name: 'Deploying', power_state: 'on' })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({
      hostname: 'rack1-n03',
      memory: 131072,
      cpu_count: 48,
      status_name: 'Deploying',
      boot_mac: expect.stringMatching(/^52:54:00/),
      power_state: 'on',
      power_address: '10.23.0.13',
      boot_ip: '10.23.1.13'
    })
    const listed = (await app.inject({ url: '/api/v1.0/nodes' })).json().find((n: { hostname: string }) => n.hostname === 'rack1-n03')
    expect(listed).toMatchObject({ status_name: 'Deploying', power_state: 'on' })
  })

  it('changes only what is given', async () => {
    const app = await appWithNodes()
    expect((await putState(app, 'rack1-n01', { power_state: 'off' })).json()).toMatchObject({ status_name: 'Deployed', power_state: 'off' })
    expect((await putState(app, 'rack1-n01', { status_name: 'Releasing' })).json()).toMatchObject({ status_name: 'Releasing', power_state: 'off' })
  })

  it('takes every MAAS status Drydock reports', async () => {
    const app = await appWithNodes()
    for (const status of STATUS_NAMES) {
      const res = await putState(app, 'rack1-n02', { status_name: status })
      expect(res.statusCode).toBe(200)
      expect(res.json().status_name).toBe(status)
    }
  })

  it('moves the Kubernetes Ready condition with it', async () => {
    const app = await appWithNodes()
    await putState(app, 'rack1-n03', { status_name: 'Deployed', power_state: 'on' })
    const node = (await app.inject({ url: '/api/v1/nodes/rack1-n03' })).json()
    expect(node.status.conditions[0]).toMatchObject({ type: 'Ready', status: 'True' })
  })

  it('answers 404 for an unknown node', async () => {
    const app = await appWithNodes()
    const res = await putState(app, 'ghost', { status_name: 'Deployed' })
    expect(res.statusCode).toBe(404)
    expect(res.json()).toMatchObject({ kind: 'status', status: 'Failure', message: 'Node not found', reason: 'nodes "ghost" not found', code: '404 Not Found' })
  })

  it.each([
    [{ status_name: 'Prepared' }, 'status_name "Prepared" is not one of: New, Commissioning'],
    [{ status_name: 'deployed' }, 'status_name "deployed" is not one of'],
    [{ power_state: 'On' }, 'power_state "On" is not one of: on, off, unknown, error'],
    [{}, 'Give status_name, power_state or both']
  ])('answers 400 for %j', async (payload, reason) => {
    const app = await appWithNodes()
    const res = await putState(app, 'rack1-n01', payload)
    expect(res.statusCode).toBe(400)
    expect(res.json()).toMatchObject({ status: 'Failure', message: 'Invalid node state', reason: expect.stringContaining(reason), code: '400 Bad Request' })
    expect((await app.inject({ url: '/api/v1/nodes/rack1-n01' })).json().metadata.resourceVersion).toBe('1')
  })

  it.each([
    ['a list', '[]'],
    ['a string', '"Deployed"'],
    ['a number status', '{"status_name": 3}'],
    ['invalid JSON', '{"status_name":']
  ])('answers 400 for %s', async (_what, payload) => {
    const app = await appWithNodes()
    const res = await app.inject({ method: 'PUT', url: '/_stub/nodes/rack1-n01/state', headers: { 'content-type': 'application/json' }, payload })
    expect(res.statusCode).toBe(400)
    expect(res.json()).toMatchObject({ status: 'Failure', code: '400 Bad Request' })
  })

  it('answers 400 for a missing body', async () => {
    const app = await appWithNodes()
    const res = await app.inject({ method: 'PUT', url: '/_stub/nodes/rack1-n01/state' })
    expect(res.statusCode).toBe(400)
    expect(res.json()).toMatchObject({ status: 'Failure', code: '400 Bad Request' })
  })
})

describe('/_stub/fault', () => {
  it('reads and sets the fault mode', async () => {
    const app = await buildTestApp()
    expect((await app.inject({ url: '/_stub/fault' })).json()).toEqual({ mode: 'none' })
    const set = await app.inject({ method: 'PUT', url: '/_stub/fault', payload: { mode: 'error', status: 503 } })
    expect(set.statusCode).toBe(200)
    expect(set.json()).toEqual({ mode: 'error', status: 503 })
    expect((await app.inject({ url: '/_stub/fault' })).json()).toEqual({ mode: 'error', status: 503 })
    expect((await app.inject({ method: 'PUT', url: '/_stub/fault', payload: { mode: 'error' } })).json()).toEqual({ mode: 'error', status: 500 })
  })

  it.each([
    [{ mode: 'explode' }],
    [{ mode: 'error', status: 404 }],
    [{ mode: 'error', status: 600 }],
    [{}]
  ])('answers 400 for %j', async (payload) => {
    const app = await buildTestApp()
    const res = await app.inject({ method: 'PUT', url: '/_stub/fault', payload })
    expect(res.statusCode).toBe(400)
    expect(res.json()).toMatchObject({ status: 'Failure', code: '400 Bad Request' })
    expect((await app.inject({ url: '/_stub/fault' })).json()).toEqual({ mode: 'none' })
  })

  it('starts in the mode SITE_FAULT gives', async () => {
    const app = await buildTestApp({ SITE_FAULT: 'error', SITE_FAULT_STATUS: '502' })
    expect((await app.inject({ url: '/_stub/fault' })).json()).toEqual({ mode: 'error', status: 502 })
  })
})
