// GET /revisions/{id}/rendered-documents, part one: parent selection, layering actions and substitution, each rule
// and edge case with its error status (render-pipeline.test.ts has the rest).
import { describe, expect, it } from 'vitest'
import { buildTestApp, doc, docsOf, get, layeringPolicy, put, rendered, type DocSpec } from './helpers/app.ts'
import { merge, renderError, site, sub } from './helpers/render.ts'

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

  it('substitutes floats with whole-number values as floats, and writes them as 1.0 into patterns', async () => {
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
