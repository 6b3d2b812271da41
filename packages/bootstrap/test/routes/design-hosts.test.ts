// Design references name only design hosts (issue 18): a deckhand+ or plain http(s) design_ref/href to any other
// host is refused with a 400 before anything is sent, so neither the service's token nor a caller's reaches it and
// no internal address is read; a fetched document that is not a design is never reflected in the answer.
import Fastify from 'fastify'
import { describe, expect, it, onTestFinished } from 'vitest'
import { AUTH } from '@slipway/common/testing'
import { buildTestApp, clusterNodes, exampleDesign, joinUrl, SERVICE_TOKEN, startDesignServer, startKube } from '../helpers/servers.ts'

/** Another host on 127.0.0.1 recording every request: answers any path, or redirects /redirect to `location`. */
async function startRecorder (options: { body?: string, type?: string, location?: string } = {}) {
  const seen: Array<{ url: string, headers: Record<string, unknown> }> = []
  const app = Fastify()
  app.addHook('onRequest', async (request) => { seen.push({ url: request.url, headers: request.headers }) })
  app.get('/*', async (request, reply) => {
    if (request.url.split('?')[0] === '/redirect' && options.location !== undefined) return await reply.redirect(options.location, 302)
    return await reply.type(options.type ?? 'application/x-yaml').send(options.body ?? exampleDesign())
  })
  await app.listen({ host: '127.0.0.1', port: 0 })
  onTestFinished(async () => { await app.close() })
  const address = app.server.address()
  return { url: `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}`, seen }
}

async function validate (app: Awaited<ReturnType<typeof buildTestApp>>, href: string, token = AUTH['x-auth-token']) {
  return await app.inject({ method: 'POST', url: '/api/v1.0/validatedesign', headers: { 'x-auth-token': token, 'content-type': 'application/json' }, payload: JSON.stringify({ rel: 'design', href, type: 'application/x-yaml' }) })
}

const join = (designRef: string) => joinUrl([['design_ref', designRef], ['hostname', 'n1'], ['ip', '192.168.77.11'], ['labels.dynamic', 'node-role.kubernetes.io/worker=']])

describe('design references to a host that is not a design host', () => {
  it('validatedesign refuses a deckhand+ href to another host with a 400 naming the rule, and sends that host nothing (no service token)', async () => {
    const store = await startDesignServer(exampleDesign())
    const attacker = await startRecorder()
    const app = await buildTestApp({ designHosts: [store.url] })
    const res = await validate(app, `deckhand+${attacker.url}/api/v1.0/revisions/1/rendered-documents`)
    expect(res.statusCode).toBe(400)
    expect(res.json()).toMatchObject({ status: 'Failure', details: { errorCount: 1 } })
    expect(res.json().details.messageList[0]).toMatchObject({ name: 'InvalidFormatError', message: expect.stringContaining('DESIGN_HOSTS') })
    expect(attacker.seen).toEqual([])
    // the configured store is still read, with the service's token
    expect((await validate(app, `deckhand+${store.url}/api/v1.0/revisions/1/rendered-documents`)).statusCode).toBe(200)
    expect(store.seen).toEqual([expect.objectContaining({ 'x-auth-token': SERVICE_TOKEN })])
  })

  it('join-scripts refuses a deckhand+ design_ref to another host with 400 InvalidFormatError, and sends that host nothing', async () => {
    const store = await startDesignServer(exampleDesign())
    const kube = await startKube(clusterNodes())
    const attacker = await startRecorder()
    const app = await buildTestApp({ kubeUrl: kube.url, designHosts: [store.url] })
    const res = await app.inject({ url: join(`deckhand+${attacker.url}/api/v1.0/revisions/1/rendered-documents`), headers: AUTH })
    expect(res.statusCode).toBe(400)
    expect(res.json()).toMatchObject({ code: '400 Bad Request', details: { errorType: 'InvalidFormatError' } })
    expect(res.json().message).toContain('DESIGN_HOSTS')
    expect(attacker.seen).toEqual([])
  })

  it('never forwards the caller\'s own token to another host when the service has no token of its own', async () => {
    const store = await startDesignServer(exampleDesign())
    const kube = await startKube(clusterNodes())
    const attacker = await startRecorder()
    const app = await buildTestApp({ kubeUrl: kube.url, designHosts: [store.url], serviceToken: '' })
    expect((await validate(app, `deckhand+${attacker.url}/x`)).statusCode).toBe(400)
    expect((await app.inject({ url: join(`deckhand+${attacker.url}/x`), headers: AUTH })).statusCode).toBe(400)
    expect(attacker.seen).toEqual([])
    // the design host alone gets the caller's token (no service credentials are configured, so the caller's
    // token is forwarded)
    expect((await validate(app, `deckhand+${store.url}/api/v1.0/revisions/1/rendered-documents`)).statusCode).toBe(200)
    expect(store.seen).toEqual([expect.objectContaining({ 'x-auth-token': AUTH['x-auth-token'] })])
  })

  it('refuses a plain http(s) href to another host, or to the store\'s host on another port, and reads nothing there', async () => {
    const store = await startDesignServer(exampleDesign())
    const internal = await startRecorder({ type: 'application/json', body: '{"metadatabase": {"status": "healthy"}}' })
    const app = await buildTestApp({ designHosts: [store.url] })
    for (const href of [`${internal.url}/api/v2/monitor/health`, `https://${new URL(store.url).hostname}/site.yaml`, 'http://localhost:1/site.yaml']) {
      const res = await validate(app, href)
      expect(res.statusCode, href).toBe(400)
      expect(res.json().details.messageList[0].name, href).toBe('InvalidFormatError')
    }
    expect(internal.seen).toEqual([])
    expect((await validate(app, `${store.url}/site.yaml`)).statusCode).toBe(200)
  })

  it('does not follow a design host\'s redirect to another host', async () => {
    const attacker = await startRecorder()
    const redirecting = await startRecorder({ location: `${attacker.url}/api/v1.0/revisions/1/rendered-documents` })
    const app = await buildTestApp({ designHosts: [redirecting.url] })
    const res = await validate(app, `deckhand+${redirecting.url}/redirect`)
    expect(res.statusCode).toBe(400)
    expect(res.json().details.messageList[0].message).toContain('302')
    expect(attacker.seen).toEqual([])
  })
})

describe('what a fetched document holds is not reflected', () => {
  it.each([
    ['a JSON status page', 'application/json', '{"metadatabase": {"status": "healthy", "latest_heartbeat": "2030-01-01"}, "scheduler": {"status": "healthy"}}', ['metadatabase', 'scheduler', 'healthy', 'latest_heartbeat', '2030']],
    ['text that is not YAML', 'text/plain', 'db_password: hunter2\n  oops: [unclosed\n', ['db_password', 'hunter2', 'oops', 'unclosed']],
    ['a document with a layer outside the order', 'application/x-yaml',
      'schema: deckhand/LayeringPolicy/v1\nmetadata: {schema: metadata/Control/v1, name: lp}\ndata: {layerOrder: [global, site-secret-layer]}\n---\n' +
      'schema: x/Y/v1\nmetadata: {schema: metadata/Document/v1, name: y, layeringDefinition: {layer: hunter2}, storagePolicy: cleartext}\ndata: {}\n',
      ['hunter2', 'site-secret-layer', 'global']],
    ['a document with an unknown layering action', 'application/x-yaml',
      'schema: deckhand/LayeringPolicy/v1\nmetadata: {schema: metadata/Control/v1, name: lp}\ndata: {layerOrder: [global, site]}\n---\n' +
      'schema: x/Y/v1\nmetadata: {schema: metadata/Document/v1, name: parent, labels: {a: b}, layeringDefinition: {layer: global}, storagePolicy: cleartext}\ndata: {}\n---\n' +
      'schema: x/Y/v1\nmetadata: {schema: metadata/Document/v1, name: child, layeringDefinition: {layer: site, parentSelector: {a: b}, actions: [{method: exfiltrate-hunter2, path: .}]}, storagePolicy: cleartext}\ndata: {}\n',
      ['exfiltrate', 'hunter2']],
    ['a document with extra top-level keys', 'application/x-yaml', 'schema: x/Y/v1\nmetadata: {schema: metadata/Document/v1, name: y}\ndata: {}\napi_key: hunter2\n', ['api_key', 'hunter2']]
  ])('answers %s at a design host with a 400 that quotes none of it', async (_what, type, body, words) => {
    const host = await startRecorder({ type, body })
    const app = await buildTestApp({ designHosts: [host.url] })
    const res = await validate(app, `${host.url}/page`)
    expect(res.statusCode).toBe(400)
    expect(res.json().details.errorCount).toBe(1)
    for (const word of words) expect(res.body, word).not.toContain(word)
  })
})
