// Revisions: listing with tags, sort and order, showing one, purge restarting numbering,
// persistence across a restart.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it, onTestFinished } from 'vitest'
import { startStore, loadConfig } from '../src/index.ts'
import { bodyOf, buildTestApp, del, doc, docsOf, expectError, get, post, put } from './helpers/app.ts'

const A = doc({ name: 'a', layer: 'site' })
const B = doc({ name: 'b', layer: 'site' })

describe('GET /revisions', () => {
  it('lists revisions oldest first with the buckets each wrote and sorted tag names', async () => {
    const app = await buildTestApp()
    await put(app, 'one', A)
    await put(app, 'two', B)
    await put(app, 'one', '')
    await post(app, '/revisions/2/tags/zeta')
    await post(app, '/revisions/2/tags/alpha')
    const body = bodyOf(await get(app, '/revisions'))
    expect(body.count).toBe(3)
    expect(body.results.map((r: any) => [r.id, r.buckets, r.tags])).toEqual([[1, ['one'], []], [2, ['two'], ['alpha', 'zeta']], [3, ['one'], []]])
  })

  it('filters by tag membership (any of repeated tags), sorts and orders', async () => {
    const app = await buildTestApp()
    await put(app, 'one', A)
    await put(app, 'two', B)
    await put(app, 'three', doc({ name: 'c', layer: 'site' }))
    await post(app, '/revisions/1/tags/first')
    await post(app, '/revisions/1/tags/committed')
    await post(app, '/revisions/3/tags/site-action-success')
    expect(bodyOf(await get(app, '/revisions?tag=committed')).results.map((r: any) => r.id)).toEqual([1])
    expect(bodyOf(await get(app, '/revisions?tag=committed&tag=site-action-success')).results.map((r: any) => r.id)).toEqual([1, 3])
    expect(bodyOf(await get(app, '/revisions?sort=id&order=desc')).results.map((r: any) => r.id)).toEqual([3, 2, 1])
    expect(bodyOf(await get(app, '/revisions?order=sideways')).results.map((r: any) => r.id)).toEqual([1, 2, 3])
    expect(bodyOf(await get(app, '/revisions?sort=createdAt&order=desc&unknown=1')).results.map((r: any) => r.id)).toEqual([3, 2, 1])
  })
})

describe('GET /revisions/{id}', () => {
  it('shows one revision with tags as a mapping and its own URL', async () => {
    const app = await buildTestApp()
    await put(app, 'one', A)
    await post(app, '/revisions/1/tags/committed')
    const body = bodyOf(await get(app, '/revisions/1'))
    expect(body).toMatchObject({ id: 1, buckets: ['one'], tags: { committed: {} }, validationPolicies: [], status: 'success' })
    expect(body.url).toMatch(/\/api\/v1\.0\/revisions\/1$/)
  })

  it('answers 404 RevisionNotFound for an unknown or non-numeric id', async () => {
    const app = await buildTestApp()
    const body = expectError(await get(app, '/revisions/42'), 404, 'RevisionNotFound')
    expect(body.message).toBe('The requested revision=42 was not found.')
    expectError(await get(app, '/revisions/abc'), 404, 'RevisionNotFound')
  })
})

describe('DELETE /revisions', () => {
  it('purges everything, answers 204 and restarts revision and document numbering at 1', async () => {
    const app = await buildTestApp()
    await put(app, 'one', A)
    await put(app, 'two', B)
    await post(app, '/revisions/2/tags/committed')
    const res = await del(app, '/revisions')
    expect(res.statusCode).toBe(204)
    expect(res.body).toBe('')
    expect(bodyOf(await get(app, '/revisions'))).toEqual({ count: 0, results: [] })
    const again = docsOf(await put(app, 'two', B))
    expect(again[0]).toMatchObject({ id: 1, status: { revision: 1 } })
    expect(bodyOf(await get(app, '/revisions/1')).tags).toEqual({})
  })
})

describe('persistence', () => {
  it('keeps revisions, documents, tags and secrets across a restart on a file database', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'stub-store-'))
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }))
    const config = loadConfig({ HOST: '127.0.0.1', PORT: '0', STORE_DATA_DIR: dir, LOG_LEVEL: 'silent' })
    const first = await startStore(config)
    const headers = { 'content-type': 'application/x-yaml' }
    const secret = doc({ schema: 'deckhand/Passphrase/v1', name: 'pw', layer: 'site', storagePolicy: 'encrypted', data: 'hunter2' })
    const putRes = await fetch(`${first.url}/buckets/site/documents`, { method: 'PUT', headers, body: A + secret })
    expect(putRes.status).toBe(200)
    expect((await fetch(`${first.url}/revisions/1/tags/committed`, { method: 'POST' })).status).toBe(201)
    await first.close()

    const second = await startStore(config)
    onTestFinished(() => second.close())
    const revisions = await (await fetch(`${second.url}/revisions`)).text()
    expect(revisions).toContain('committed')
    const docs = await (await fetch(`${second.url}/revisions/1/documents?cleartext-secrets=true`)).text()
    expect(docs).toContain('name: a')
    const rendered = await fetch(`${second.url}/revisions/1/rendered-documents?cleartext-secrets=true&schema=deckhand/Passphrase/v1`)
    expect(rendered.status).toBe(409) // no LayeringPolicy: but the secret itself survived below
    const next = await fetch(`${second.url}/buckets/lp/documents`, { method: 'PUT', headers, body: 'schema: deckhand/LayeringPolicy/v1\nmetadata: {schema: metadata/Control/v1, name: lp}\ndata: {layerOrder: [site]}\n' })
    expect(next.status).toBe(200)
    const text = await (await fetch(`${second.url}/revisions/2/rendered-documents?cleartext-secrets=true&schema=deckhand/Passphrase/v1`)).text()
    expect(text).toContain('data: hunter2')
    const ids = await (await fetch(`${second.url}/revisions`)).text()
    expect(ids).toContain('id: 2')
  })
})
