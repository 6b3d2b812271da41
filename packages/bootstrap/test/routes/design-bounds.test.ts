// Designs bounded in work, not only in bytes (issue 25): a design of 300,000 tiny documents is refused with 400 from
// its document-start lines alone, one whose documents start without such lines is refused at the bound while health
// keeps answering, and a design of 20,000 layered documents is layered by lookup rather than by search.
import { describe, expect, it } from 'vitest'
import { staticServiceToken } from '@slipway/common'
import { AUTH } from '@slipway/common/testing'
import { createDesignFetcher } from '../../src/clients/design.ts'
import { createDesignHosts } from '../../src/domain/design-hosts.ts'
import type { DesignLimits } from '../../src/types.ts'
import { prepareLocalDesign } from '../../src/domain/documents.ts'
import { buildTestApp, clusterNodes, DEFAULT_DESIGN_LIMITS, exampleDesign, hostOf, joinUrl, SERVICE_TOKEN, startDesignServer, startKube, UNREACHABLE_STORE } from '../helpers/servers.ts'

/** `n` documents of about 45 bytes each, every one after a document-start line. */
function tinyDocuments (n: number): string {
  const parts: string[] = []
  for (let i = 0; i < n; i++) parts.push(`---\n{schema: a/B/v1, metadata: {name: d${i}}}\n`)
  return parts.join('')
}

/** The app reading `design` from a design host with `limits`; `events` hears when the design's bytes are all in. */
async function setup (design: string, limits: DesignLimits = DEFAULT_DESIGN_LIMITS, events: string[] = []) {
  const store = await startDesignServer(design)
  const kube = await startKube(clusterNodes())
  const fetchDesign = createDesignFetcher({
    timeoutMs: 60_000,
    maxBytes: 64 * 1024 * 1024,
    serviceAuth: staticServiceToken(SERVICE_TOKEN),
    designHosts: createDesignHosts(hostOf(store.url), UNREACHABLE_STORE),
    // counted once the answer is read in full, just before the design is parsed
    metrics: { outbound: () => { events.push('design received') } }
  })
  const app = await buildTestApp({ kubeUrl: kube.url, fetchDesign, designLimits: limits })
  return { app, href: `${store.url}/site.yaml`, fetchDesign }
}

const validate = async (app: Awaited<ReturnType<typeof setup>>['app'], href: string) =>
  await app.inject({ method: 'POST', url: '/api/v1.0/validatedesign', headers: { ...AUTH, 'content-type': 'application/json' }, payload: JSON.stringify({ href }) })

const TOO_MANY = (n: number): string => `The design has more than ${n} documents, the most this service reads (DESIGN_MAX_DOCUMENTS)`

describe('a design bounded in documents and reading work', () => {
  it('refuses a design of 300,000 tiny documents with 400, on validatedesign and join-scripts alike', { timeout: 120_000 }, async () => {
    const { app, href } = await setup(tinyDocuments(300_000))
    const validated = await validate(app, href)
    expect(validated.statusCode).toBe(400)
    expect(validated.json()).toMatchObject({ status: 'Failure', message: 'Promenade validations failed', code: '400 Bad Request' })
    expect(validated.json().details.messageList).toEqual([expect.objectContaining({ name: 'InvalidFormatError', message: TOO_MANY(20_000), error: true })])

    const joined = await app.inject({ url: joinUrl([['design_ref', href], ['hostname', 'n1'], ['ip', '192.168.77.11']]), headers: AUTH })
    expect(joined.statusCode).toBe(400)
    expect(joined.json()).toMatchObject({ message: TOO_MANY(20_000), reason: TOO_MANY(20_000), code: '400 Bad Request', details: { errorType: 'InvalidFormatError' } })
  })

  it('answers health while a big design is being read, until the design is refused at the bound', { timeout: 120_000 }, async () => {
    const events: string[] = []
    // documents closed by an end marker: none starts with a document-start line, so each is read until the bound
    const { app, href } = await setup('{schema: a/B/v1, metadata: {name: d}}\n...\n'.repeat(100_000), { maxDocuments: 5_000, maxTokens: 8_000_000 }, events)
    app.addHook('onRequest', async (request) => { if (request.url === '/api/v1.0/health') events.push('health') })
    app.addHook('onSend', async (request) => { if (request.url === '/api/v1.0/validatedesign') events.push('answered') })
    const state = { done: false }
    const answer = validate(app, href).finally(() => { state.done = true })
    while (!state.done) {
      expect((await app.inject({ url: '/api/v1.0/health' })).statusCode).toBe(204)
      await new Promise((resolve) => setImmediate(resolve))
    }
    const res = await answer
    // between the last byte of the design and the refusal, health was answered
    const received = events.indexOf('design received')
    const answered = events.indexOf('answered')
    expect(received).toBeGreaterThanOrEqual(0)
    expect(answered).toBeGreaterThan(received)
    expect(events.slice(received, answered)).toContain('health')
    expect(res.statusCode).toBe(400)
    expect(res.json().details.messageList[0].message).toBe(TOO_MANY(5_000))
  })

  it('answers health while the DataSchemas of a design are compiled', { timeout: 120_000 }, async () => {
    const events: string[] = []
    const schemas = Array.from({ length: 200 }, (_, i) =>
      `schema: deckhand/DataSchema/v1\nmetadata: {schema: metadata/Control/v1, name: bench/S${i}/v1}\ndata: {type: object, properties: {a${i}: {type: string}}}\n`)
    const { href, fetchDesign } = await setup([exampleDesign(), ...schemas].join('---\n'))
    // heard once the design is read, just before it is validated
    const app = await buildTestApp({ fetchDesign: async (...args) => { const design = await fetchDesign(...args); events.push('design read'); return design } })
    app.addHook('onRequest', async (request) => { if (request.url === '/api/v1.0/health') events.push('health') })
    app.addHook('onSend', async (request) => { if (request.url === '/api/v1.0/validatedesign') events.push('answered') })
    const state = { done: false }
    const answer = validate(app, href).finally(() => { state.done = true })
    while (!state.done) {
      expect((await app.inject({ url: '/api/v1.0/health' })).statusCode).toBe(204)
      await new Promise((resolve) => setImmediate(resolve))
    }
    const res = await answer
    const read = events.indexOf('design read')
    const answered = events.indexOf('answered')
    expect(read).toBeGreaterThanOrEqual(0)
    expect(answered).toBeGreaterThan(read)
    expect(events.slice(read, answered)).toContain('health')
    expect(res.statusCode, res.body).toBe(200)
  })

  it('refuses a design past the token bound with 400', async () => {
    const { app, href } = await setup(`data: [${Array.from({ length: 2000 }, (_, i) => `v${i}`).join(', ')}]\n`, { maxDocuments: 10, maxTokens: 1000 })
    const res = await validate(app, href)
    expect(res.statusCode).toBe(400)
    expect(res.json().details.messageList[0]).toMatchObject({
      name: 'InvalidFormatError',
      message: 'The design takes more than 1000 YAML tokens to read, the most this service reads (DESIGN_MAX_TOKENS)'
    })
  })
})

describe('layering a plain-http design', () => {
  const policy = { schema: 'deckhand/LayeringPolicy/v1', metadata: { schema: 'metadata/Control/v1', name: 'lp' }, data: { layerOrder: ['global', 'region', 'site'] } }
  const doc = (name: string, layer: string, labels: Record<string, string>, data: unknown, selector?: Record<string, string>) => ({
    schema: 'x/Y/v1',
    metadata: {
      schema: 'metadata/Document/v1',
      name,
      labels,
      storagePolicy: 'cleartext',
      layeringDefinition: { layer, ...(selector === undefined ? {} : { parentSelector: selector, actions: [{ method: 'merge', path: '.' }] }) }
    },
    data
  })

  it('finds each parent by lookup: 20,000 documents of one schema, each group a global, a region and 8 site documents', { timeout: 120_000 }, () => {
    const documents: unknown[] = [policy]
    for (let g = 0; documents.length < 20_000; g++) {
      documents.push(doc(`global-${g}`, 'global', { group: `g${g}` }, { image: 'server:1.0', limits: { cpu: '2' } }))
      documents.push(doc(`region-${g}`, 'region', { group: `g${g}`, tier: 'region' }, { limits: { memory: '8Gi' } }, { group: `g${g}` }))
      for (let i = 0; i < 8; i++) documents.push(doc(`site-${g}-${i}`, 'site', { site: `s${i}` }, { index: i }, { group: `g${g}`, tier: 'region' }))
    }
    const rendered = prepareLocalDesign(documents)
    expect(rendered).toHaveLength(20_001)
    expect(rendered.find((d) => d.metadata.name === 'site-1234-5')?.data).toEqual({ image: 'server:1.0', limits: { cpu: '2', memory: '8Gi' }, index: 5 })
  })

  it('takes the parent from the nearest higher layer that matches every selector label, the first there', () => {
    const rendered = prepareLocalDesign([
      policy,
      doc('g', 'global', { app: 'a', tier: 't' }, { from: 'global' }),
      doc('r1', 'region', { app: 'a', tier: 't' }, { from: 'r1' }),
      doc('r2', 'region', { app: 'a', tier: 't' }, { from: 'r2' }),
      doc('r3', 'region', { app: 'a' }, { from: 'r3' }),
      doc('s', 'site', {}, { own: true }, { app: 'a', tier: 't' }),
      doc('lonely', 'site', {}, { own: true }, { app: 'b' })
    ])
    expect(rendered.find((d) => d.metadata.name === 's')?.data).toEqual({ from: 'r1', own: true })
    expect(rendered.find((d) => d.metadata.name === 'lonely')?.data).toEqual({ own: true })
  })
})
