// The bootstrap service's two downstreams — the design source (the store) and the Kubernetes API — down
// (connections reset) and hanging (never answering) during every operation that uses them: an error body naming
// the component within the configured timeout, never a 500 or a hang; validatedesign answers its 400 body.
import { afterAll, describe, expect, it } from 'vitest'
import { AUTH, isErrorBody } from '@slipway/common/testing'
import { startProxy, type ProxyMode } from '@slipway/common/testing/proxy'
import { buildTestApp, clusterNodes, exampleDesign, joinUrl, startDesignServer, startKube } from '../helpers/servers.ts'

// the calls to healthy downstreams have this timeout too: long enough for a busy machine
const TIMEOUT_MS = 1000
// what a busy machine may add to an answer on top of the timeout it waited through
const SLACK_MS = 4000
const figures: string[] = []
afterAll(() => { for (const line of figures) console.log(`bootstrap faults: ${line}`) })

async function faultApp () {
  const design = await startDesignServer(exampleDesign())
  const kube = await startKube(clusterNodes())
  const store = await startProxy(design.url)
  const cluster = await startProxy(kube.url)
  const app = await buildTestApp({ kubeUrl: cluster.url, kubeTimeoutMs: TIMEOUT_MS, designTimeoutMs: TIMEOUT_MS, designHosts: [store.url] })
  const designRef = `deckhand+${store.url}/api/v1.0/revisions/1/rendered-documents`
  return { app, store, cluster, designRef }
}

const join = (designRef: string) => joinUrl([['design_ref', designRef], ['hostname', 'n1'], ['ip', '192.168.77.11'], ['labels.dynamic', 'node-role.kubernetes.io/worker=']])

describe.each(['down', 'hang'] as const)('with a downstream %s', (mode: ProxyMode) => {
  it('the store: join-scripts answers a 5xx naming it, validatedesign a 400 validation body naming it', async () => {
    const { app, store, designRef } = await faultApp()
    expect((await app.inject({ url: join(designRef), headers: AUTH })).statusCode).toBe(200)
    await store.set(mode)
    let started = performance.now()
    const script = await app.inject({ url: join(designRef), headers: AUTH })
    const scriptMs = performance.now() - started
    expect(script.statusCode, script.body).toBeGreaterThan(500)
    expect(isErrorBody(script.json())).toBe(true)
    expect(script.json().message).toMatch(/store/)
    started = performance.now()
    const validation = await app.inject({ method: 'POST', url: '/api/v1.0/validatedesign', headers: { ...AUTH, 'content-type': 'application/json' }, payload: JSON.stringify({ rel: 'design', href: designRef, type: 'application/x-yaml' }) })
    const validationMs = performance.now() - started
    expect(validation.statusCode, validation.body).toBe(400)
    expect(validation.json()).toMatchObject({ kind: 'Status', status: 'Failure' })
    expect(JSON.stringify(validation.json().details.messageList)).toMatch(/store/)
    await store.set('pass')
    expect((await app.inject({ url: join(designRef), headers: AUTH })).statusCode).toBe(200)
    for (const ms of [scriptMs, validationMs]) expect(ms).toBeLessThan(TIMEOUT_MS + SLACK_MS)
    figures.push(`store ${mode}: join-scripts ${script.statusCode} in ${scriptMs.toFixed(0)} ms, validatedesign ${validation.statusCode} in ${validationMs.toFixed(0)} ms (timeout ${TIMEOUT_MS} ms)`)
  })

  it('the Kubernetes API: join-scripts and node-labels answer a 5xx naming it, and work again once it is back', async () => {
    const { app, cluster, designRef } = await faultApp()
    const labels = async () => await app.inject({ method: 'PUT', url: '/api/v1.0/node-labels/n1', headers: { ...AUTH, 'content-type': 'application/json' }, payload: '{"a": "3"}' })
    expect((await labels()).statusCode).toBe(200)
    await cluster.set(mode)
    let started = performance.now()
    const script = await app.inject({ url: join(designRef), headers: AUTH })
    const scriptMs = performance.now() - started
    started = performance.now()
    const labelled = await labels()
    const labelsMs = performance.now() - started
    await cluster.set('pass')
    for (const res of [script, labelled]) {
      expect(res.statusCode, res.body).toBeGreaterThan(500)
      expect(isErrorBody(res.json())).toBe(true)
      expect(res.json().message).toMatch(/Kubernetes/)
    }
    for (const ms of [scriptMs, labelsMs]) expect(ms).toBeLessThan(TIMEOUT_MS + SLACK_MS)
    expect((await labels()).statusCode).toBe(200)
    expect((await app.inject({ url: join(designRef), headers: AUTH })).statusCode).toBe(200)
    figures.push(`Kubernetes ${mode}: join-scripts ${script.statusCode} in ${scriptMs.toFixed(0)} ms, node-labels ${labelled.statusCode} in ${labelsMs.toFixed(0)} ms (timeout ${TIMEOUT_MS} ms)`)
  })
})
