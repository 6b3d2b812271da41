// GET /revisions/{id}/rendered-documents (spec §8, §9): every rule and edge case of §9.12 and the
// error statuses of §9.9.
import { describe, expect, it } from 'vitest'
import type { FastifyInstance } from 'fastify'
import { redactionHash } from '../src/domain/values.ts'
import { buildTestApp, doc, docsOf, expectError, get, layeringPolicy, put, rendered, type DocSpec } from './helpers/app.ts'

const L3 = ['global', 'region', 'site']

async function site (docs: DocSpec[], layers = L3): Promise<FastifyInstance> {
  const app = await buildTestApp()
  const res = await put(app, 'site', layeringPolicy(layers) + docs.map(doc).join(''))
  if (res.statusCode !== 200) throw new Error(res.body)
  return app
}

async function renderError (app: FastifyInstance, status: number, type: string): Promise<any> {
  return expectError(await get(app, '/revisions/1/rendered-documents?cleartext-secrets=true'), status, type)
}

const merge = (path = '.') => [{ method: 'merge', path }]

describe('layering: parent selection', () => {
  it('takes the nearest layer: a site selector matching global and region picks region', async () => {
    const app = await site([
      { name: 'g', layer: 'global', labels: { key: 'v' }, data: { from: 'global', g: 1 } },
      { name: 'r', layer: 'region', labels: { key: 'v' }, data: { from: 'region', r: 1 } },
      { name: 's', layer: 'site', parentSelector: { key: 'v' }, actions: merge(), data: { s: 1 } }
    ])
    expect((await rendered(app, 1)).s.data).toEqual({ from: 'region', r: 1, s: 1 })
  })

  it('answers 400 IndeterminateDocumentParent for two parents in the closest layer (2 and 3 layers)', async () => {
    const two = await site([
      { name: 'g1', layer: 'global', labels: { key: 'v' } },
      { name: 'g2', layer: 'global', labels: { key: 'v' } },
      { name: 's', layer: 'site', parentSelector: { key: 'v' }, actions: merge() }
    ], ['global', 'site'])
    const body = await renderError(two, 400, 'IndeterminateDocumentParent')
    expect(body.message).toBe('Too many parent documents found for document [example/Kind/v1, site] s. Found: 2. Expected: 1.')
    const three = await site([
      { name: 'g', layer: 'global', labels: { key: 'v' } },
      { name: 'r1', layer: 'region', labels: { key: 'v' } },
      { name: 'r2', layer: 'region', labels: { key: 'v' } },
      { name: 's', layer: 'site', parentSelector: { key: 'v' }, actions: merge() }
    ])
    await renderError(three, 400, 'IndeterminateDocumentParent')
  })

  it('still fails for two matches in a superseded layer (two global, one region)', async () => {
    const app = await site([
      { name: 'g1', layer: 'global', labels: { key: 'v' } },
      { name: 'g2', layer: 'global', labels: { key: 'v' } },
      { name: 'r', layer: 'region', labels: { key: 'v' } },
      { name: 's', layer: 'site', parentSelector: { key: 'v' }, actions: merge() }
    ])
    await renderError(app, 400, 'IndeterminateDocumentParent')
  })

  it('renders a document whose selector matches nothing from its own data, and ignores unselected labels', async () => {
    const app = await site([
      { name: 'g', layer: 'global', labels: { other: 'x' }, data: { g: 1 } },
      { name: 's', layer: 'site', parentSelector: { key: 'nothing' }, actions: merge(), data: { own: true } }
    ])
    const out = await rendered(app, 1)
    expect(out.s.data).toEqual({ own: true })
    expect(out.g.data).toEqual({ g: 1 })
  })

  it('never makes a document its own parent', async () => {
    const app = await site([{ name: 's', layer: 'site', labels: { key: 'v' }, parentSelector: { key: 'v' }, actions: merge(), data: { own: 1 } }])
    expect((await rendered(app, 1)).s.data).toEqual({ own: 1 })
  })

  it('skips empty layers; a LayeringPolicy alone renders to itself', async () => {
    const app = await site([
      { name: 'g', layer: 'global', labels: { key: 'v' }, data: { a: 1 } },
      { name: 's', layer: 'site', parentSelector: { key: 'v' }, actions: merge(), data: { b: 2 } }
    ])
    expect((await rendered(app, 1)).s.data).toEqual({ a: 1, b: 2 })
    const alone = await site([])
    const docs = docsOf(await get(alone, '/revisions/1/rendered-documents'))
    expect(docs.map((d) => d.schema)).toEqual(['deckhand/LayeringPolicy/v1'])
  })

  it('answers 400 InvalidDocumentParent when schemas differ or the parent is not above the child', async () => {
    const schemas = await site([
      { schema: 'other/Kind/v1', name: 'g', layer: 'global', labels: { key: 'v' } },
      { name: 's', layer: 'site', parentSelector: { key: 'v' }, actions: merge() }
    ])
    expect((await renderError(schemas, 400, 'InvalidDocumentParent')).message).toContain('do not match')
    const order = await site([
      { name: 'g', layer: 'global', parentSelector: { key: 'v' }, actions: merge() },
      { name: 's', layer: 'site', labels: { key: 'v' } }
    ])
    await renderError(order, 400, 'InvalidDocumentParent')
  })

  it('answers 400 InvalidDocumentLayer for a layer missing from layerOrder', async () => {
    const app = await site([{ name: 'x', layer: 'nowhere' }], ['global', 'site'])
    const body = await renderError(app, 400, 'InvalidDocumentLayer')
    expect(body.message).toBe("Invalid layer 'nowhere' for document [example/Kind/v1] x was not found in layerOrder: global, site for provided LayeringPolicy: layering-policy.")
  })

  it('returns concrete parents and children, never abstract documents, parents before children', async () => {
    const app = await site([
      { name: 'abstract', layer: 'global', abstract: true, labels: { a: '1' }, data: { x: 1 } },
      { name: 'concrete', layer: 'region', labels: { b: '1' }, parentSelector: { a: '1' }, actions: merge(), data: { y: 1 } },
      { name: 'child', layer: 'site', parentSelector: { b: '1' }, actions: merge(), data: { z: 1 } }
    ])
    const docs = docsOf(await get(app, '/revisions/1/rendered-documents'))
    const order = docs.map((d) => d.metadata.name)
    expect(order).not.toContain('abstract')
    expect(order.indexOf('concrete')).toBeLessThan(order.indexOf('child'))
    expect(docs.find((d) => d.metadata.name === 'child').data).toEqual({ x: 1, y: 1, z: 1 })
  })
})

describe('layering actions', () => {
  const parent: DocSpec = { name: 'p', layer: 'global', labels: { k: 'v' }, data: { a: [{ b: 1, c: 2 }, { b: 3 }], m: { n: 1, o: { p: 1 } }, s: 'text', l: [1, 2], keep: true } }
  const child = (actions: Array<{ method: string, path: string }>, data: unknown): DocSpec => ({ name: 'c', layer: 'site', parentSelector: { k: 'v' }, actions, data })

  it('merges mappings deeply, replaces lists, and lets the child win on type mismatches', async () => {
    const app = await site([parent, child(merge(), { m: { o: { q: 2 } }, l: [9], s: { now: 'a mapping' } })])
    expect((await rendered(app, 1)).c.data).toEqual({ a: [{ b: 1, c: 2 }, { b: 3 }], m: { n: 1, o: { p: 1, q: 2 } }, s: { now: 'a mapping' }, l: [9], keep: true })
  })

  it('merges and replaces at paths with list indexes and creates missing intermediate mappings', async () => {
    const app = await site([parent, child([
      { method: 'merge', path: '.a[0]' },
      { method: 'replace', path: '.m.o' },
      { method: 'merge', path: '.new.deep' }
    ], { a: [{ c: 20, d: 4 }], m: { o: 'replaced' }, new: { deep: { x: 1 } } })])
    expect((await rendered(app, 1)).c.data).toEqual({ a: [{ b: 1, c: 20, d: 4 }, { b: 3 }], m: { n: 1, o: 'replaced' }, s: 'text', l: [1, 2], keep: true, new: { deep: { x: 1 } } })
  })

  it('drops child data not named by an action and applies several merges in a row', async () => {
    const app = await site([parent, child([{ method: 'merge', path: '.m' }, { method: 'merge', path: '.l' }], { m: { n: 5 }, l: [7], ignored: 1 })])
    const data = (await rendered(app, 1)).c.data
    expect(data.ignored).toBeUndefined()
    expect(data.m).toEqual({ n: 5, o: { p: 1 } })
    expect(data.l).toEqual([7])
  })

  it('deletes exactly the entry at the path (list element included); delete of . empties the data', async () => {
    const app = await site([
      { name: 'p', layer: 'global', labels: { k: 'v' }, data: { a: 1, b: 1, c: { d: 1 }, l: [1, 2, 3] } },
      { name: 'c1', layer: 'site', parentSelector: { k: 'v' }, actions: [{ method: 'delete', path: '.b' }, { method: 'delete', path: '.c.d' }, { method: 'delete', path: '.l[1]' }], data: {} },
      { name: 'c2', layer: 'site', parentSelector: { k: 'v' }, actions: [{ method: 'delete', path: '.' }, { method: 'replace', path: '.x' }], data: { x: 'only' } }
    ], ['global', 'site'])
    const out = await rendered(app, 1)
    expect(out.c1.data).toEqual({ a: 1, c: {}, l: [1, 3] })
    expect(out.c2.data).toEqual({ x: 'only' })
  })

  it('deletes then replaces the same path', async () => {
    const app = await site([parent, child([{ method: 'delete', path: '.m' }, { method: 'replace', path: '.m' }], { m: { fresh: 1 } })])
    expect((await rendered(app, 1)).c.data.m).toEqual({ fresh: 1 })
  })

  it('accepts .data, $.data and bare paths', async () => {
    const app = await site([parent, child([{ method: 'replace', path: '$.data.s' }, { method: 'replace', path: 'keep' }, { method: 'merge', path: '.data' }], { s: 'new', keep: false, extra: 1 })])
    const data = (await rendered(app, 1)).c.data
    expect(data.s).toBe('new')
    expect(data.keep).toBe(false)
    expect(data.extra).toBe(1)
  })

  it('answers 400 MissingDocumentKey when the child lacks the path or the parent lacks a deleted path', async () => {
    const app = await site([parent, child([{ method: 'merge', path: '.absent' }], {})])
    const body = await renderError(app, 400, 'MissingDocumentKey')
    expect(body.message).toBe("Missing action path in {'method': 'merge', 'path': '.absent'} needed for layering from either the data section of the parent [example/Kind/v1, global] p or child [example/Kind/v1, site] c document.")
    const del = await site([parent, child([{ method: 'delete', path: '.nothing' }], {})])
    await renderError(del, 400, 'MissingDocumentKey')
    const nul = await site([parent, child([{ method: 'replace', path: '.n' }], { n: null })])
    await renderError(nul, 400, 'MissingDocumentKey')
  })
})

const sub = (schema: string, name: string, path: string, dest: unknown, extra: Record<string, unknown> = {}) =>
  ({ src: { schema, name, path, ...extra }, dest })

describe('substitution', () => {
  it('substitutes into abstract parents so children inherit, and into a child after its layering', async () => {
    const app = await site([
      { schema: 'src/Values/v1', name: 'vals', layer: 'site', data: { parent: 'from-source', child: 'child-wins' } },
      { name: 'p', layer: 'global', abstract: true, labels: { k: 'v' }, substitutions: [sub('src/Values/v1', 'vals', '.parent', { path: '.fromParent' })], data: { x: 'parent-value' } },
      { name: 'c', layer: 'site', parentSelector: { k: 'v' }, actions: merge(), substitutions: [sub('src/Values/v1', 'vals', '.child', { path: '.x' })], data: { x: 'own' } }
    ])
    expect((await rendered(app, 1)).c.data).toEqual({ x: 'child-wins', fromParent: 'from-source' })
  })

  it('chains A → B → C across buckets; a parent can be a source; one source feeds several destinations', async () => {
    const app = await buildTestApp()
    await put(app, 'base', layeringPolicy(['global', 'site']) + doc({ schema: 'chain/A/v1', name: 'a', layer: 'global', data: { v: 'root' } }))
    await put(app, 'mid', doc({ schema: 'chain/B/v1', name: 'b', layer: 'global', labels: { role: 'parent' }, substitutions: [sub('chain/A/v1', 'a', '.v', [{ path: '.from_a' }, { path: '.copies[0]' }])], data: {} }))
    await put(app, 'top', [
      doc({ schema: 'chain/C/v1', name: 'c', layer: 'site', substitutions: [sub('chain/B/v1', 'b', '.from_a', { path: '.from_b' })], data: {} }),
      doc({ schema: 'chain/B/v1', name: 'b-child', layer: 'site', parentSelector: { role: 'parent' }, actions: merge(), data: {} }),
      doc({ schema: 'chain/D/v1', name: 'd', layer: 'site', substitutions: [sub('chain/A/v1', 'a', '.v', { path: '.one' }), sub('chain/A/v1', 'a', '.', { path: '.whole' })], data: {} })
    ].join(''))
    const out = await rendered(app, 3)
    expect(out.b.data).toEqual({ from_a: 'root', copies: ['root'] })
    expect(out.c.data).toEqual({ from_b: 'root' })
    expect(out['b-child'].data).toEqual({ from_a: 'root', copies: ['root'] })
    expect(out.d.data).toEqual({ one: 'root', whole: { v: 'root' } })
  })

  it('replaces patterns: several in one string, non-string values, src.pattern with match_group, literal backslashes', async () => {
    const app = await site([
      { schema: 'src/Values/v1', name: 'vals', layer: 'site', data: { host: 'db.example', port: 5432, url: 'https://user@db.example:5432/x', odd: 'a\\1b', map: { p: 1 } } },
      {
        name: 'd',
        layer: 'site',
        substitutions: [
          sub('src/Values/v1', 'vals', '.host', { path: '.conn', pattern: 'HOST' }),
          sub('src/Values/v1', 'vals', '.port', { path: '.conn', pattern: 'PORT' }),
          sub('src/Values/v1', 'vals', '.url', { path: '.user' }, { pattern: '^https://([a-z]+)@', match_group: 1 }),
          sub('src/Values/v1', 'vals', '.odd', { path: '.odd', pattern: 'X' }),
          sub('src/Values/v1', 'vals', '.map', { path: '.repr', pattern: 'M' }),
          sub('src/Values/v1', 'vals', '.host', { path: '.nomatch', pattern: 'ZZZ' })
        ],
        data: { conn: 'HOST:PORT and HOST again', odd: '<X>', repr: 'is M', nomatch: 'unchanged' }
      }
    ])
    expect((await rendered(app, 1)).d.data).toEqual({ conn: 'db.example:5432 and db.example again', user: 'user', odd: '<a\\1b>', repr: "is {'p': 1}", nomatch: 'unchanged' })
  })

  it('substitutes floats with whole-number values as floats, and writes them as 1.0 into patterns (spec §9.10)', async () => {
    const app = await buildTestApp()
    await put(app, 'site', layeringPolicy(['site']) + `---
schema: src/Values/v1
metadata: {schema: metadata/Document/v1, name: vals, storagePolicy: cleartext, layeringDefinition: {layer: site}}
data: {version: 2.0, big: 1.0e+3, list: [1.0]}
---
schema: example/Kind/v1
metadata:
  schema: metadata/Document/v1
  name: d
  storagePolicy: cleartext
  layeringDefinition: {layer: site}
  substitutions:
  - {src: {schema: src/Values/v1, name: vals, path: .version}, dest: {path: .text, pattern: VER}}
  - {src: {schema: src/Values/v1, name: vals, path: .list}, dest: {path: .repr, pattern: LIST}}
  - {src: {schema: src/Values/v1, name: vals, path: .big}, dest: {path: .copy}}
data: {text: v=VER, repr: is LIST}
`)
    const res = await get(app, '/revisions/1/rendered-documents?cleartext-secrets=true&metadata.name=d')
    expect(res.statusCode).toBe(200)
    expect(res.body).toContain("data:\n  text: 'v=2.0'\n  repr: 'is [1.0]'\n  copy: 1000.0\n")
  })

  it('replaces patterns recursively with a depth bound', async () => {
    const data = { top: 'PW', nested: { a: 'x-PW', deeper: { b: 'PW' }, list: ['PW', { c: 'PW' }] } }
    const app = await site([
      { schema: 'src/Values/v1', name: 'vals', layer: 'site', data: { pw: 'secret' } },
      { name: 'all', layer: 'site', substitutions: [sub('src/Values/v1', 'vals', '.pw', { path: '.', pattern: 'PW', recurse: { depth: -1 } })], data },
      { name: 'one', layer: 'site', substitutions: [sub('src/Values/v1', 'vals', '.pw', { path: '.nested', pattern: 'PW', recurse: { depth: 1 } })], data },
      { name: 'zero', layer: 'site', substitutions: [sub('src/Values/v1', 'vals', '.pw', { path: '.nested', pattern: 'PW', recurse: { depth: 0 } })], data }
    ])
    const out = await rendered(app, 1)
    expect(out.all.data).toEqual({ top: 'secret', nested: { a: 'x-secret', deeper: { b: 'secret' }, list: ['secret', { c: 'secret' }] } })
    expect(out.one.data.nested).toEqual({ a: 'x-secret', deeper: { b: 'PW' }, list: ['PW', { c: 'PW' }] })
    expect(out.zero.data.nested).toEqual(data.nested)
  })

  it('creates nested lists for destination paths like .a[1].b, .a[0][1] and [10]', async () => {
    const app = await site([
      { schema: 'src/Values/v1', name: 'vals', layer: 'site', data: { v: 'x' } },
      {
        name: 'd',
        layer: 'site',
        substitutions: [
          sub('src/Values/v1', 'vals', '.v', { path: '.a[1].b' }),
          sub('src/Values/v1', 'vals', '.v', { path: '.n[0][1]' }),
          sub('src/Values/v1', 'vals', '.v', { path: '.big[10]' })
        ],
        data: {}
      }
    ])
    const data = (await rendered(app, 1)).d.data
    expect(data.a).toEqual([{}, { b: 'x' }])
    expect(data.n).toEqual([[{}, 'x']])
    expect(data.big).toHaveLength(11)
    expect(data.big[10]).toBe('x')
  })

  it('merges a mapping into the root with dest path .', async () => {
    const app = await site([
      { schema: 'src/Values/v1', name: 'vals', layer: 'site', data: { a: 1, b: 2 } },
      { name: 'd', layer: 'site', substitutions: [sub('src/Values/v1', 'vals', '.', { path: '.' })], data: { b: 0, keep: 3 } }
    ])
    expect((await rendered(app, 1)).d.data).toEqual({ b: 2, keep: 3, a: 1 })
  })

  it('answers 400 SubstitutionSourceDataNotFound for a src.path absent from the source, never inserting null', async () => {
    const app = await site([
      { schema: 'src/Values/v1', name: 'vals', layer: 'site', data: { there: 1 } },
      { name: 'd', layer: 'site', substitutions: [sub('src/Values/v1', 'vals', '.missing', { path: '.x' })], data: {} }
    ])
    const body = await renderError(app, 400, 'SubstitutionSourceDataNotFound')
    expect(body.message).toBe('Required substitution source secret was not found at path .missing in source document [src/Values/v1, site] vals which is referenced by destination document [example/Kind/v1, site] d under its `metadata.substitutions`.')
  })

  it('answers 409 SubstitutionSourceNotFound for a missing or abstract source', async () => {
    const missing = await site([{ name: 'd', layer: 'site', substitutions: [sub('src/Values/v1', 'nope', '.', { path: '.x' })], data: {} }])
    const body = await renderError(missing, 409, 'SubstitutionSourceNotFound')
    expect(body.message).toBe('Required substitution source document [src/Values/v1] nope was not found, yet is referenced by [example/Kind/v1] d.')
    const abstract = await site([
      { schema: 'src/Values/v1', name: 'vals', layer: 'site', abstract: true, data: { v: 1 } },
      { name: 'd', layer: 'site', substitutions: [sub('src/Values/v1', 'vals', '.v', { path: '.x' })], data: {} }
    ])
    await renderError(abstract, 409, 'SubstitutionSourceNotFound')
  })

  it('answers 400 MissingDocumentPattern when the destination holds no string', async () => {
    const app = await site([
      { schema: 'src/Values/v1', name: 'vals', layer: 'site', data: { v: 'x' } },
      { name: 'd', layer: 'site', substitutions: [sub('src/Values/v1', 'vals', '.v', { path: '.absent', pattern: 'P' })], data: {} }
    ])
    await renderError(app, 400, 'MissingDocumentPattern')
  })

  it('answers 400 SubstitutionDependencyCycle for mutual and self substitution', async () => {
    const mutual = await site([
      { schema: 'cyc/A/v1', name: 'a', layer: 'site', substitutions: [sub('cyc/B/v1', 'b', '.v', { path: '.v' })], data: { v: 1 } },
      { schema: 'cyc/B/v1', name: 'b', layer: 'site', substitutions: [sub('cyc/A/v1', 'a', '.v', { path: '.v' })], data: { v: 2 } }
    ])
    expect((await renderError(mutual, 400, 'SubstitutionDependencyCycle')).message).toMatch(/^Cannot determine substitution order as a dependency cycle exists for the following documents: /)
    const self = await site([{ schema: 'cyc/A/v1', name: 'a', layer: 'site', substitutions: [sub('cyc/A/v1', 'a', '.v', { path: '.w' })], data: { v: 1 } }])
    await renderError(self, 400, 'SubstitutionDependencyCycle')
  })
})

describe('replacement', () => {
  it('returns the replacement instead of its parent; other children layer onto it; it can be a source and receive substitutions', async () => {
    const app = await site([
      { schema: 'src/Values/v1', name: 'vals', layer: 'site', data: { v: 'substituted' } },
      { name: 'thing', layer: 'global', labels: { k: 'v' }, data: { a: 'global', b: 'global' } },
      { name: 'thing', layer: 'region', labels: { k: 'v2' }, replacement: true, parentSelector: { k: 'v' }, actions: merge(), substitutions: [sub('src/Values/v1', 'vals', '.v', { path: '.c' })], data: { a: 'replaced' } },
      { name: 'child', layer: 'site', parentSelector: { k: 'v' }, actions: merge(), data: { d: 'child' } },
      { schema: 'user/Of/v1', name: 'user', layer: 'site', substitutions: [sub('example/Kind/v1', 'thing', '.a', { path: '.from_thing' })], data: {} }
    ])
    const docs = docsOf(await get(app, '/revisions/1/rendered-documents'))
    const things = docs.filter((d) => d.metadata.name === 'thing')
    expect(things).toHaveLength(1)
    expect(things[0].metadata.layeringDefinition.layer).toBe('region')
    expect(things[0].data).toEqual({ a: 'replaced', b: 'global', c: 'substituted' })
    expect(docs.find((d) => d.metadata.name === 'child').data).toEqual({ a: 'replaced', b: 'global', c: 'substituted', d: 'child' })
    expect(docs.find((d) => d.metadata.name === 'user').data).toEqual({ from_thing: 'replaced' })
  })

  it('replaces across several layers (global → region → site chains)', async () => {
    const app = await site([
      { name: 'a', layer: 'global', labels: { l: 'g' }, data: { g: 1 } },
      { name: 'b', layer: 'region', labels: { l: 'r' }, parentSelector: { l: 'g' }, actions: merge(), data: { r: 1 } },
      { name: 'b', layer: 'site', replacement: true, parentSelector: { l: 'r' }, actions: merge(), data: { s: 1 } }
    ])
    const docs = docsOf(await get(app, '/revisions/1/rendered-documents?schema=example/Kind/v1&sort=metadata.name'))
    expect(docs.map((d) => [d.metadata.name, d.metadata.layeringDefinition.layer, d.data])).toEqual([
      ['a', 'global', { g: 1 }],
      ['b', 'site', { g: 1, r: 1, s: 1 }]
    ])
  })

  it('answers 400 InvalidDocumentReplacement for every misuse', async () => {
    const noParent = await site([{ name: 'x', layer: 'site', replacement: true, data: {} }])
    expect((await renderError(noParent, 400, 'InvalidDocumentReplacement')).message).toContain('must have a parent')
    const otherName = await site([
      { name: 'p', layer: 'global', labels: { k: 'v' } },
      { name: 'q', layer: 'site', replacement: true, parentSelector: { k: 'v' }, actions: merge() }
    ])
    await renderError(otherName, 400, 'InvalidDocumentReplacement')
    const sameNameNoFlag = await site([
      { name: 'p', layer: 'global', labels: { k: 'v' } },
      { name: 'p', layer: 'site', parentSelector: { k: 'v' }, actions: merge() }
    ])
    expect((await renderError(sameNameNoFlag, 400, 'InvalidDocumentReplacement')).message).toContain('Non-replacement documents')
    const duplicates = await site([{ name: 'p', layer: 'global' }, { name: 'p', layer: 'site' }])
    expect((await renderError(duplicates, 400, 'InvalidDocumentReplacement')).message).toContain('none has `replacement: true`')
    const replacedReplacement = await site([
      { name: 'p', layer: 'global', labels: { k: 'g' } },
      { name: 'p', layer: 'region', labels: { k: 'r' }, replacement: true, parentSelector: { k: 'g' }, actions: merge() },
      { name: 'p', layer: 'site', replacement: true, parentSelector: { k: 'r' }, actions: merge() }
    ])
    expect((await renderError(replacedReplacement, 400, 'InvalidDocumentReplacement')).message).toContain('cannot itself be replaced')
  })
})

describe('rendering pipeline', () => {
  it('answers 409 LayeringPolicyNotFound without any LayeringPolicy, and 404 for an unknown revision', async () => {
    const app = await buildTestApp()
    await put(app, 'b', doc({ name: 'x', layer: 'site' }))
    const body = expectError(await get(app, '/revisions/1/rendered-documents'), 409, 'LayeringPolicyNotFound')
    expect(body.message).toBe('Required LayeringPolicy was not found for layering.')
    expectError(await get(app, '/revisions/7/rendered-documents'), 404, 'RevisionNotFound')
  })

  it('falls back to the newest LayeringPolicy stored anywhere when the revision has none', async () => {
    const app = await buildTestApp()
    await put(app, 'b', doc({ name: 'x', layer: 'site' }))
    await put(app, 'lp', layeringPolicy(['site']))
    const docs = docsOf(await get(app, '/revisions/1/rendered-documents'))
    expect(docs.map((d) => d.schema).sort()).toEqual(['deckhand/LayeringPolicy/v1', 'example/Kind/v1'])
  })

  it('validates rendered documents against DataSchemas of the rendered revision: 400 with D002 entries', async () => {
    const schema = `---
schema: deckhand/DataSchema/v1
metadata: {schema: metadata/Control/v1, name: example/Kind/v1}
data:
  $schema: http://json-schema.org/draft-04/schema#
  type: object
  properties:
    port: {type: integer, maximum: 100, exclusiveMaximum: true}
  required: [port]
`
    const app = await buildTestApp()
    await put(app, 'b', layeringPolicy(['site']) + schema + doc({ name: 'bad', layer: 'site', data: { port: 'eighty' } }) + doc({ name: 'edge', layer: 'site', data: { port: 100 } }) + doc({ name: 'abstract', layer: 'site', abstract: true, data: {} }))
    const body = expectError(await get(app, '/revisions/1/rendered-documents'), 400, 'InvalidDocumentFormat')
    expect(body.reason).toBe('Validation')
    expect(body.details.messageList).toHaveLength(2)
    expect(body.details.messageList[0]).toMatchObject({
      kind: 'ValidationMessage',
      name: 'D002',
      level: 'Error',
      message: "'eighty' is not of type 'integer'",
      documents: [{ schema: 'example/Kind/v1', name: 'bad', layer: 'site' }],
      diagnostic: { error_section: { port: 'eighty' }, schema_path: '.properties.port.type' }
    })
    expect(body.details.messageList[0].diagnostic.validation_schema.required).toEqual(['port'])
    expect(body.details.messageList[1].documents[0].name).toBe('edge')
  })

  it('applies built-in schemas: secret documents must hold strings, a LayeringPolicy only layerOrder', async () => {
    const app = await buildTestApp()
    await put(app, 'b', layeringPolicy(['site']) + doc({ schema: 'deckhand/Passphrase/v1', name: 'pw', layer: 'site', data: { not: 'a string' } }))
    const body = expectError(await get(app, '/revisions/1/rendered-documents'), 400, 'InvalidDocumentFormat')
    expect(body.details.messageList[0].message).toBe("{'not': 'a string'} is not of type 'string'")
    const policy = await buildTestApp()
    await put(policy, 'b', 'schema: deckhand/LayeringPolicy/v1\nmetadata: {schema: metadata/Control/v1, name: lp}\ndata: {layerOrder: [site], extra: 1}\n')
    const bad = expectError(await get(policy, '/revisions/1/rendered-documents'), 400, 'InvalidDocumentFormat')
    expect(bad.details.messageList[0].message).toBe("Additional properties are not allowed ('extra' was unexpected)")
  })

  it('ignores DataSchemas of other revisions (ours: the rendered revision only)', async () => {
    const app = await buildTestApp()
    await put(app, 'b', layeringPolicy(['site']) + doc({ name: 'x', layer: 'site', data: { port: 'text' } }))
    await put(app, 'schemas', 'schema: deckhand/DataSchema/v1\nmetadata: {schema: metadata/Control/v1, name: example/Kind/v1}\ndata: {type: object, properties: {port: {type: integer}}}\n')
    expect((await get(app, '/revisions/1/rendered-documents')).statusCode).toBe(200)
    expectError(await get(app, '/revisions/2/rendered-documents'), 400, 'InvalidDocumentFormat')
  })

  it('filters, sorts only when asked, and limits rendered documents; layeringDefinition filters are ignored', async () => {
    const app = await site([
      { name: 'b', layer: 'site', labels: { x: '1' } },
      { name: 'a', layer: 'site', labels: { x: '1' } },
      { name: 'c', layer: 'global' }
    ])
    const names = async (q: string) => docsOf(await get(app, `/revisions/1/rendered-documents?${q}`)).map((d) => d.metadata.name)
    expect(await names('metadata.label=x=1&sort=metadata.name')).toEqual(['a', 'b'])
    expect(await names('schema=example/Kind/v1&sort=metadata.name&order=desc&limit=2')).toEqual(['c', 'b'])
    expect(await names('metadata.name=a&metadata.layeringDefinition.layer=global')).toEqual(['a'])
    expect(await names('schema=example/Kind/v1&metadata.name=c')).toEqual(['c'])
  })
})

describe('secrets in rendering', () => {
  const SECRET: DocSpec = { schema: 'deckhand/Passphrase/v1', name: 'pw', layer: 'site', storagePolicy: 'encrypted', data: 'hunter2' }
  const USER: DocSpec = { schema: 'app/Config/v1', name: 'cfg', layer: 'site', substitutions: [sub('deckhand/Passphrase/v1', 'pw', '.', { path: '.password' })], data: { user: 'me' } }

  it('resolves secrets with cleartext-secrets=true', async () => {
    const app = await site([SECRET, USER])
    const out = await rendered(app, 1)
    expect(out.pw.data).toBe('hunter2')
    expect(out.cfg.data).toEqual({ user: 'me', password: 'hunter2' })
    expect(out.cfg.metadata.storagePolicy).toBe('cleartext')
  })

  it('with cleartext-secrets=false redacts the secret and every document that received a secret, hashing its substitution paths', async () => {
    const app = await site([SECRET, USER])
    const docs = docsOf(await get(app, '/revisions/1/rendered-documents?sort=metadata.name&cleartext-secrets=false'))
    const pw = docs.find((d) => d.metadata.name === 'pw')
    const cfg = docs.find((d) => d.metadata.name === 'cfg')
    expect(pw.data).toBe('4ddbb67bf993867e13253c146a339ed3b33ea5b895543569278e99d5b3c2b7d5')
    expect(cfg.metadata.storagePolicy).toBe('encrypted')
    expect(cfg.data).toMatch(/^[0-9a-f]{64}$/)
    expect(JSON.stringify(docs)).not.toContain('hunter2')
    expect(cfg.metadata.substitutions[0].src.path).toMatch(/^[0-9a-f]{64}$/)
    expect(cfg.metadata.substitutions[0].dest.path).toMatch(/^[0-9a-f]{64}$/)
  })

  it('hashes the paths of every substitution of a document redacted for taking a secret, not only the secret\'s (spec §12)', async () => {
    const app = await site([
      SECRET,
      { schema: 'src/Values/v1', name: 'vals', layer: 'site', data: { host: 'db.example' } },
      { ...USER, substitutions: [sub('src/Values/v1', 'vals', '.host', [{ path: '.host' }, { path: '.url', pattern: 'HOST' }]), ...(USER.substitutions as unknown[])], data: { url: 'https://HOST/' } }
    ])
    for (const query of ['&cleartext-secrets=false', '&cleartext-secrets=False']) {
      const res = await get(app, `/revisions/1/rendered-documents?metadata.name=cfg${query}`)
      expect(res.statusCode).toBe(200)
      const cfg = docsOf(res)[0]
      expect(cfg.metadata.storagePolicy).toBe('encrypted')
      expect(cfg.metadata.substitutions).toEqual([
        { src: { schema: 'src/Values/v1', name: 'vals', path: redactionHash('.host') }, dest: [{ path: redactionHash('.host') }, { path: redactionHash('.url'), pattern: 'HOST' }] },
        { src: { schema: 'deckhand/Passphrase/v1', name: 'pw', path: redactionHash('.') }, dest: { path: redactionHash('.password') } }
      ])
    }
    // the cleartext view keeps every path
    expect((await rendered(app, 1)).cfg.metadata.substitutions[0].src.path).toBe('.host')
  })

  it('never shows a substituted secret in a D002 entry, with cleartext-secrets absent or false (spec §11, §12)', async () => {
    const schema = '---\nschema: deckhand/DataSchema/v1\nmetadata: {schema: metadata/Control/v1, name: app/Config/v1}\ndata:\n  type: object\n  properties:\n    q: {type: string}\n    creds: {type: object, properties: {port: {type: string}}}\n'
    const app = await buildTestApp()
    await put(app, 'b', layeringPolicy(L3) + schema + [
      doc(SECRET),
      doc({ schema: 'app/Creds/v1', name: 'creds', layer: 'site', storagePolicy: 'encrypted', data: { user: 'me', pass: 'hunter2', port: 1 } }),
      doc({ ...USER, substitutions: [sub('deckhand/Passphrase/v1', 'pw', '.', { path: '.p' })], data: { q: 1 } }),
      doc({ schema: 'app/Config/v1', name: 'whole', layer: 'site', substitutions: [sub('app/Creds/v1', 'creds', '.', { path: '.creds' })], data: {} })
    ].join(''))
    for (const query of ['', '?cleartext-secrets=false', '?cleartext-secrets=true']) {
      const res = await get(app, `/revisions/1/rendered-documents${query}`)
      expect(res.statusCode).toBe(400)
      expect(res.body).not.toContain('hunter2')
      const body = expectError(res, 400, 'InvalidDocumentFormat')
      const byName = Object.fromEntries(body.details.messageList.map((m: any) => [m.documents[0].name, m]))
      expect(byName.cfg).toMatchObject({ name: 'D002', message: 'Sanitized to avoid exposing secret.', diagnostic: { error_section: { p: 'Sanitized to avoid exposing secret.', q: 1 } } })
      // the failing value lies inside the substituted mapping: the whole section is masked
      expect(byName.whole).toMatchObject({ name: 'D002', message: 'Sanitized to avoid exposing secret.', diagnostic: { error_section: 'Sanitized to avoid exposing secret.' } })
    }
  })

  it('does not let one caller\'s secrets mode leak into another\'s answer', async () => {
    const app = await site([SECRET, USER])
    expect((await rendered(app, 1)).pw.data).toBe('hunter2')
    const redacted = docsOf(await get(app, '/revisions/1/rendered-documents?metadata.name=pw&cleartext-secrets=false'))
    expect(redacted[0].data).not.toBe('hunter2')
    expect((await rendered(app, 1)).pw.data).toBe('hunter2')
  })

  it('re-PUTting an unchanged secret keeps the bucket unmodified in diffs', async () => {
    const app = await site([SECRET])
    await put(app, 'site', layeringPolicy(L3) + doc(SECRET))
    expect(docsOf(await get(app, '/revisions/1/diff/2'))[0]).toEqual({ site: 'unmodified' })
    await put(app, 'site', layeringPolicy(L3) + doc({ ...SECRET, data: 'changed' }))
    expect(docsOf(await get(app, '/revisions/2/diff/3'))[0]).toEqual({ site: 'modified' })
  })
})

describe('a warm rendering', () => {
  const SECRET: DocSpec = { schema: 'deckhand/Passphrase/v1', name: 'pw', layer: 'site', storagePolicy: 'encrypted', data: 'hunter2' }
  const OTHER = (x: number): DocSpec => ({ name: 'other', layer: 'site', data: { x } })

  it('answers the same bytes again, each mode and filter its own answer, and a new revision its own', async () => {
    const app = await site([SECRET, OTHER(1)])
    const url = '/revisions/1/rendered-documents'
    const cold = await get(app, `${url}?cleartext-secrets=true`)
    const warm = await get(app, `${url}?cleartext-secrets=true`)
    expect(warm.statusCode).toBe(200)
    expect(warm.headers['content-type']).toMatch(/^application\/x-yaml/)
    expect(warm.body).toBe(cold.body)
    expect(docsOf(warm).map((d) => d.metadata.name).sort()).toEqual(['layering-policy', 'other', 'pw'])
    // another mode, a filter, a limit: answers of their own, not the kept one
    const redacted = docsOf(await get(app, `${url}?cleartext-secrets=false`))
    expect(redacted.find((d) => d.metadata.name === 'pw').data).not.toBe('hunter2')
    expect(docsOf(await get(app, `${url}?cleartext-secrets=true&metadata.name=other`)).map((d) => d.metadata.name)).toEqual(['other'])
    expect(docsOf(await get(app, `${url}?cleartext-secrets=true&limit=1`))).toHaveLength(1)
    expect((await get(app, `${url}?cleartext-secrets=true`)).body).toBe(cold.body)
    // a write makes a new revision, rendered afresh
    await put(app, 'site', layeringPolicy(L3) + [SECRET, OTHER(2)].map(doc).join(''))
    const next = docsOf(await get(app, '/revisions/2/rendered-documents?cleartext-secrets=true'))
    expect(next.find((d) => d.metadata.name === 'other').data).toEqual({ x: 2 })
    expect((await get(app, `${url}?cleartext-secrets=true`)).body).toBe(cold.body)
  })
})
