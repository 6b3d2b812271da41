// Quirk mode (STORE_DECKHAND_QUIRKS, issue 21): each place where the real Deckhand departs from its documentation,
// shown against the documented behaviour the default mode keeps, with the same requests in both modes.
import { describe, expect, it } from 'vitest'
import type { FastifyInstance } from 'fastify'
import { loadConfig, startStore, STORE_MODES } from '../src/index.ts'
import { bodyOf, buildTestApp, del, doc, docsOf, expectError, get, layeringPolicy, post, put, rendered } from './helpers/app.ts'

const QUIRKS = { STORE_DECKHAND_QUIRKS: 'true' }
const KIND = 'example/Kind/v1'

const item = (name: string, data: unknown) => doc({ name, layer: 'site', data })

/** A document as the listings show it (with its id, and its bucket and revision under status), built with `item`. */
function listed (id: number, name: string, data: unknown, bucket: string, revision: number) {
  const metadata = { schema: 'metadata/Document/v1', name, storagePolicy: 'cleartext', layeringDefinition: { layer: 'site', abstract: false }, replacement: false }
  return { id, schema: KIND, metadata, data, status: { bucket, revision } }
}

describe('configuration', () => {
  it('is off by default and read from STORE_DECKHAND_QUIRKS; STORE_MODES names both modes', () => {
    expect(loadConfig({}).STORE_DECKHAND_QUIRKS).toBe(false)
    expect(loadConfig(QUIRKS).STORE_DECKHAND_QUIRKS).toBe(true)
    expect(loadConfig({ STORE_DECKHAND_QUIRKS: 'false' }).STORE_DECKHAND_QUIRKS).toBe(false)
    expect(STORE_MODES.map((m) => [m.name, m.env])).toEqual([['documented', {}], ['deckhand-quirks', QUIRKS]])
  })

  it('starts a listening store in quirk mode through loadConfig and startStore', async () => {
    const store = await startStore(loadConfig({ PORT: '0', LOG_LEVEL: 'silent', ...QUIRKS }))
    try {
      const headers = { 'content-type': 'application/x-yaml' }
      expect((await fetch(`${store.url}/buckets/a/documents`, { method: 'PUT', headers, body: item('w', {}) })).status).toBe(200)
      expect((await fetch(`${store.url}/buckets/c/documents`, { method: 'PUT', headers, body: item('o', {}) })).status).toBe(200)
      // owned by bucket a, but only bucket c was written last: Deckhand accepts it
      expect((await fetch(`${store.url}/buckets/b/documents`, { method: 'PUT', headers, body: item('w', {}) })).status).toBe(200)
    } finally {
      await store.close()
    }
  })
})

describe('POST /rollback/{id}', () => {
  // 1 global g1 · 2 gone x · 3 global g2 · 4 gone emptied · 5 site s1, s2 · 6 site s1' (s2 deleted) · 7 other o · 8 global g3
  async function history (env: Record<string, string>): Promise<FastifyInstance> {
    const app = await buildTestApp(env)
    const steps: Array<[string, string]> = [
      ['global', item('g', { v: 1 })], ['gone', item('x', { v: 1 })], ['global', item('g', { v: 2 })], ['gone', ''],
      ['site', item('s1', { v: 1 }) + item('s2', { v: 1 })], ['site', item('s1', { v: 2 })], ['other', item('o', {})], ['global', item('g', { v: 3 })]
    ]
    for (const [bucket, body] of steps) expect((await put(app, bucket, body)).statusCode).toBe(200)
    return app
  }

  it('documented: the new revision holds exactly the target\'s live set', async () => {
    const app = await history({})
    const res = await post(app, '/rollback/6')
    expect(res.statusCode).toBe(201)
    expect(bodyOf(res)).toEqual(bodyOf(await get(app, '/revisions/9')))
    expect(bodyOf(res).buckets).toEqual(['global', 'other', 'site'])
    expect(docsOf(await get(app, '/revisions/9/documents'))).toEqual([
      listed(12, 'g', { v: 2 }, 'global', 9),
      listed(13, 's1', { v: 2 }, 'site', 6)
    ])
    expect(bodyOf(await get(app, '/revisions/6/diff/9'))).toEqual({ global: 'unmodified', site: 'unmodified' })
  })

  it('quirks: oldest copies for buckets the target did not write, deleted documents back, the target\'s deletions back with empty data', async () => {
    const app = await history(QUIRKS)
    const res = await post(app, '/rollback/6')
    expect(res.statusCode).toBe(201)
    expect(bodyOf(res)).toEqual(bodyOf(await get(app, '/revisions/9')))
    expect(bodyOf(res).buckets).toEqual(['global', 'gone', 'other', 'site'])
    expect(docsOf(await get(app, '/revisions/9/documents'))).toEqual([
      listed(12, 'g', { v: 1 }, 'global', 9), // the first global ever written, not the target's g2
      listed(13, 'x', { v: 1 }, 'gone', 9), // deleted at revision 4, alive again
      listed(14, 's1', { v: 2 }, 'site', 6), // the target wrote site: its own copy
      listed(15, 's2', {}, 'site', 9) // the target's tombstone, restored as a live document
    ])
    expect(bodyOf(await get(app, '/revisions/6/diff/9'))).toEqual({ global: 'modified', gone: 'created', site: 'modified' })
  })

  it('quirks: rolling back to 0 still empties every bucket', async () => {
    const app = await history(QUIRKS)
    expect(bodyOf(await post(app, '/rollback/0')).buckets).toEqual(['global', 'other', 'site'])
    expect((await get(app, '/revisions/9/documents')).body).toBe('')
  })
})

describe('PUT /buckets/{bucket}/documents: ownership and the LayeringPolicy singleton', () => {
  const ownedBy = (bucket: string) => `Document [${KIND}, site] w already exists in bucket: ${bucket}.`

  it('both modes refuse a document owned by the bucket written last (409)', async () => {
    for (const env of [{}, QUIRKS]) {
      const app = await buildTestApp(env)
      await put(app, 'a', item('w', { v: 1 }))
      expect(expectError(await put(app, 'b', item('w', { v: 1 })), 409, 'DuplicateDocumentExists').message).toBe(ownedBy('a'))
    }
  })

  it('once another bucket was written: documented 409, quirks 200 and the document now lives in the new bucket', async () => {
    const documented = await buildTestApp()
    const quirky = await buildTestApp(QUIRKS)
    for (const app of [documented, quirky]) {
      await put(app, 'a', item('w', { v: 1 })) // 1
      await put(app, 'c', item('o', {})) // 2
    }
    expect(expectError(await put(documented, 'b', item('w', { v: 2 })), 409, 'DuplicateDocumentExists').message).toBe(ownedBy('a'))
    const res = await put(quirky, 'b', item('w', { v: 2 }))
    expect(res.statusCode).toBe(200)
    expect(docsOf(res)).toEqual([listed(3, 'w', { v: 2 }, 'b', 3)])
    expect(docsOf(await get(quirky, '/revisions/3/documents'))).toEqual([listed(2, 'o', {}, 'c', 2), listed(3, 'w', { v: 2 }, 'b', 3)])
  })

  it('a second LayeringPolicy: 409 right after the first in both modes; later documented 409, quirks 200 and the first one renders', async () => {
    const second = '---\nschema: deckhand/LayeringPolicy/v1\nmetadata: {schema: metadata/Control/v1, name: lp2}\ndata: {layerOrder: [global]}\n'
    const conflict = 'A singleton document [deckhand/LayeringPolicy/v1, None] lp1 already exists in the system. The new document(s) [deckhand/LayeringPolicy/v1, None] lp2 cannot be created. To create a document with a new name, delete the current one first.'
    const documented = await buildTestApp()
    const quirky = await buildTestApp(QUIRKS)
    for (const app of [documented, quirky]) {
      await put(app, 'policy', layeringPolicy(['site'], 'lp1')) // 1
      expect(expectError(await put(app, 'other', second), 409, 'SingletonDocumentConflict').message).toBe(conflict)
      await put(app, 'site', item('d', { v: 1 })) // 2
    }
    expect(expectError(await put(documented, 'other', second), 409, 'SingletonDocumentConflict').message).toBe(conflict)
    const res = await put(quirky, 'other', second)
    expect(res.statusCode).toBe(200)
    expect(docsOf(await get(quirky, '/revisions/3/documents?schema=deckhand/LayeringPolicy/v1')).map((d) => [d.metadata.name, d.data, d.status.bucket]))
      .toEqual([['lp1', { layerOrder: ['site'] }, 'policy'], ['lp2', { layerOrder: ['global'] }, 'other']])
    // rendering takes the first policy in document order: `site` is a layer, so d renders
    expect(Object.keys(await rendered(quirky, 3)).sort()).toEqual(['d', 'lp1', 'lp2'])
  })
})

describe('layering actions', () => {
  const PARENT_HEAD = `---\nschema: ${KIND}\nmetadata: {schema: metadata/Document/v1, name: p, storagePolicy: cleartext, labels: {k: v}, layeringDefinition: {layer: global}}\n`

  /** The child's rendered data in one mode, the parent's data given as YAML flow text. */
  async function child (
    env: Record<string, string>,
    parentData: string,
    action: { method: string, path: string },
    childData: unknown = {}
  ): Promise<any> {
    const app = await buildTestApp(env)
    const body = layeringPolicy(['global', 'site']) + PARENT_HEAD + `data: ${parentData}\n` +
      doc({ name: 'c', layer: 'site', parentSelector: { k: 'v' }, actions: [action], data: childData })
    expect((await put(app, 'site', body)).statusCode).toBe(200)
    return (await rendered(app, 1)).c.data
  }

  const deletes: Array<[string, string, unknown, unknown]> = [
    // parent data, path, documented result, Deckhand's result
    ['{a: 1, b: 1}', '.b', { a: 1 }, { b: 1 }],
    ['{a: 1, c: {d: 1}}', '.c.d', { a: 1, c: {} }, { c: { d: 1 } }],
    ['{flag: true, n: 1}', '.n', { flag: true }, { n: 1 }],
    ['{f: 1.0, n: 1}', '.n', { f: 1 }, { n: 1 }],
    ['{l: [1, 2, 1]}', '.l[2]', { l: [1, 2] }, { l: [2, 1] }],
    // the walk checks a mapping before its contents: a.x (1) is met before b
    ['{a: {x: 1}, b: 1}', '.b', { a: { x: 1 } }, { a: {}, b: 1 }],
    ['{a: {x: 1}, b: {x: 1}}', '.b', { a: { x: 1 } }, { b: { x: 1 } }],
    ["{s: '1', n: 1}", '.n', { s: '1' }, { s: '1' }]
  ]

  it.each(deletes)('delete of %s at %s: documented removes the path, quirks the first equal value (Python ==)', async (parent, path, documented, quirk) => {
    expect(await child({}, parent, { method: 'delete', path })).toEqual(documented)
    expect(await child(QUIRKS, parent, { method: 'delete', path })).toEqual(quirk)
  })

  it('a path beginning .data: documented cuts only a whole data segment, quirks cut the text (.database becomes .base)', async () => {
    const parent = '{database: {p: 0}, base: {q: 0}}'
    const own = { database: { x: 1 }, base: { y: 2 } }
    for (const path of ['.database', '$.database']) {
      expect(await child({}, parent, { method: 'merge', path }, own)).toEqual({ database: { p: 0, x: 1 }, base: { q: 0 } })
      expect(await child(QUIRKS, parent, { method: 'merge', path }, own)).toEqual({ database: { p: 0 }, base: { q: 0, y: 2 } })
    }
    for (const env of [{}, QUIRKS]) {
      expect(await child(env, parent, { method: 'merge', path: '.data.database' }, own)).toEqual({ database: { p: 0, x: 1 }, base: { q: 0 } })
      expect(await child(env, parent, { method: 'merge', path: '.data' }, own)).toEqual({ database: { p: 0, x: 1 }, base: { q: 0, y: 2 } })
    }
  })
})

describe('GET /revisions?tag=', () => {
  async function tagged (env: Record<string, string>): Promise<FastifyInstance> {
    const app = await buildTestApp(env)
    for (let i = 0; i < 3; i++) await put(app, 'b', item('w', { v: i }))
    for (const [id, tag] of [[1, 'committed'], [1, 'site-action-success'], [2, 'site-action-success'], [3, 'a'], [3, 'committed']] as const) {
      expect((await post(app, `/revisions/${id}/tags/${tag}`)).statusCode).toBe(201)
    }
    return app
  }

  async function listedWith (app: FastifyInstance, query: string, ids: number[]): Promise<void> {
    const all = bodyOf(await get(app, '/revisions')).results
    const results = all.filter((r: any) => ids.includes(r.id))
    expect(bodyOf(await get(app, `/revisions?${query}`))).toEqual({ count: results.length, results })
  }

  it('documented: a revision having any of the tags asked for', async () => {
    const app = await tagged({})
    await listedWith(app, 'tag=committed', [1, 3])
    await listedWith(app, 'tag=site-action-success', [1, 2])
    await listedWith(app, 'tag=a&tag=committed', [1, 3])
  })

  it('quirks: only a revision\'s first tag counts; re-tagging keeps a tag\'s place, deleting the first promotes the next', async () => {
    const app = await tagged(QUIRKS)
    await listedWith(app, 'tag=committed', [1])
    await listedWith(app, 'tag=site-action-success', [2])
    await listedWith(app, 'tag=a&tag=committed', [1, 3])
    expect((await post(app, '/revisions/1/tags/site-action-success', 'by: engine\n')).statusCode).toBe(201)
    await listedWith(app, 'tag=committed', [1])
    expect((await del(app, '/revisions/1/tags/committed')).statusCode).toBe(204)
    await listedWith(app, 'tag=site-action-success', [1, 2])
    expect((await post(app, '/revisions/1/tags/committed')).statusCode).toBe(201)
    await listedWith(app, 'tag=committed', [])
  })
})
