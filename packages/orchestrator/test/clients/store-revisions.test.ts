// The store's revision list as the orchestrator reads it from a store that answers too much or answers wrongly: a list
// over the size or entry bound is refused with a 502 naming the setting, a list that a whole parse would refuse is
// refused, and a long list being read leaves the orchestrator answering other requests (health) meanwhile.
import { once } from 'node:events'
import { createServer, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { describe, expect, it, onTestFinished } from 'vitest'
import { DownstreamError } from '@slipway/common'
import { AUTH } from '@slipway/common/testing'
import { emitYaml } from '@slipway/stub-store'
import { createStoreClient } from '../../src/clients/store.ts'
import { buildTestApp } from '../helpers/test-app.ts'

/** How the fake store answers GET /revisions; every other path is answered with an empty YAML mapping. */
type Answer = (res: ServerResponse) => void

async function fakeStore (answer: Answer) {
  const open = new Set<ServerResponse>()
  const server = createServer((req, res) => {
    if (req.url?.split('?')[0]?.endsWith('/revisions') !== true) {
      res.writeHead(200, { 'content-type': 'application/x-yaml' }).end('{}\n')
      return
    }
    open.add(res)
    res.on('close', () => open.delete(res))
    res.writeHead(200, { 'content-type': 'application/x-yaml' })
    answer(res)
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  onTestFinished(async () => {
    for (const res of open) res.destroy()
    server.close()
    await once(server, 'close')
  })
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1.0`
}

const revisions = (n: number) => ({
  count: n,
  results: Array.from({ length: n }, (_, i) => ({
    id: i + 1,
    createdAt: `2026-05-01T10:00:${String(i % 60).padStart(2, '0')}.${String(i).padStart(6, '0')}`,
    buckets: [`site-${i % 3}`],
    tags: []
  }))
})

const client = (baseUrl: string, limits: { maxRevisionListBytes?: number, maxRevisions?: number } = {}) =>
  createStoreClient({ baseUrl, timeoutMs: 20_000, ...limits })

async function refusal (promise: Promise<unknown>): Promise<DownstreamError> {
  const error = await promise.then(() => undefined, (e: unknown) => e)
  expect(error).toBeInstanceOf(DownstreamError)
  return error as DownstreamError
}

describe('the revision list read from a store that answers too much', () => {
  it('refuses a list over STORE_MAX_REVISION_LIST_BYTES as soon as the bound is passed, with the store still sending', async () => {
    // the store sends more than the bound and never ends its answer: only a read that stops at the bound answers
    const url = await fakeStore((res) => { res.write(emitYaml(revisions(2000))) })
    const error = await refusal(client(url, { maxRevisionListBytes: 65_536 }).revisions({}))
    expect(error.statusCode).toBe(502)
    expect(error.failure).toBe('bad-response')
    expect(error.reason).toBe('The store answered GET /revisions with more than 65536 bytes, the most the orchestrator reads (STORE_MAX_REVISION_LIST_BYTES)')
  })

  it('refuses a list of more than STORE_MAX_REVISIONS entries with 502 naming the setting', async () => {
    const url = await fakeStore((res) => res.end(emitYaml(revisions(11))))
    const error = await refusal(client(url, { maxRevisions: 10 }).revisions({}))
    expect(error.statusCode).toBe(502)
    expect(error.reason).toBe('The store answered GET /revisions with 11 revisions, more than 10, the most the orchestrator reads (STORE_MAX_REVISIONS)')
    // a flow list, read whole, is bounded the same way
    const flow = await fakeStore((res) => res.end(`results: [${Array.from({ length: 11 }, (_, i) => `{id: ${i + 1}, tags: []}`).join(', ')}]\n`))
    expect((await refusal(client(flow, { maxRevisions: 10 }).revisions({}))).reason).toContain('11 revisions, more than 10')
    // at the bound the list is read
    const ten = await fakeStore((res) => res.end(emitYaml(revisions(10))))
    expect(await client(ten, { maxRevisions: 10 }).revisions({})).toHaveLength(10)
  })

  it('answers the caller 502 with the error body naming the limit', async () => {
    const url = await fakeStore((res) => res.end(emitYaml(revisions(30))))
    const t = await buildTestApp({ store: client(url, { maxRevisions: 20 }) })
    const res = await t.app.inject({ method: 'GET', url: '/api/v1.0/configdocs', headers: AUTH })
    expect(res.statusCode, res.body).toBe(502)
    expect(res.json()).toMatchObject({
      message: 'Downstream failure: store',
      reason: 'The store answered GET /revisions with 30 revisions, more than 20, the most the orchestrator reads (STORE_MAX_REVISIONS)'
    })
  })

  it('answers health while a long list (within the bounds) is being read', async () => {
    const text = emitYaml(revisions(3000))
    let sent!: () => void
    const halfSent = new Promise<void>((resolve) => { sent = resolve })
    let finish!: () => void
    // the store sends half of its list and holds the rest until the test has seen health answered
    const url = await fakeStore((res) => {
      res.write(text.slice(0, text.length >> 1), () => sent())
      finish = () => res.end(text.slice(text.length >> 1))
    })
    const t = await buildTestApp({ store: client(url) })
    const reading = t.app.inject({ method: 'GET', url: '/api/v1.0/configdocs', headers: AUTH })
    await halfSent
    const health = await t.app.inject({ method: 'GET', url: '/api/v1.0/health' })
    expect(health.statusCode).toBe(204)
    finish()
    const res = await reading
    expect(res.statusCode, res.body).toBe(200)
  })
})

describe('the revision list a whole parse would refuse', () => {
  // each was read in pieces as the list before it, the rest unseen
  it.each([
    ['a second YAML document after the list', 'results:\n- id: 1\n  tags: []\n---\nresults:\n- id: 2\n  tags: []\n',
      'The store answered GET /revisions with 2 YAML documents; a revision list is one'],
    ['a duplicated results key', 'results:\n- id: 1\n  tags: []\nresults:\n- id: 2\n  tags: []\n',
      'The store answered GET /revisions with unreadable YAML (Map keys must be unique at line 4, column 1:)'],
    ['garbage after the list', 'count: 1\nresults:\n- id: 1\n  tags: []\n}garbage: [\n',
      'The store answered GET /revisions with unreadable YAML (Unexpected flow-map-end token in YAML stream: "}" at line 5, column 1:)']
  ])('refuses %s with 502 naming what is wrong', async (_name, text, reason) => {
    const url = await fakeStore((res) => res.end(text))
    const error = await refusal(client(url).revisions({}))
    expect(error.statusCode).toBe(502)
    expect(error.reason).toBe(reason)
  })
})
