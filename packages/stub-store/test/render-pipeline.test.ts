// GET /revisions/{id}/rendered-documents, part two: replacement, the rendering pipeline as a whole, secrets in
// rendering and warm renderings.
import { describe, expect, it } from 'vitest'
import { redactionHash } from '../src/domain/values.ts'
import { buildTestApp, doc, docsOf, expectError, get, layeringPolicy, put, rendered, type DocSpec } from './helpers/app.ts'
import { L3, merge, renderError, site, sub } from './helpers/render.ts'

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

  it('hashes the paths of every substitution of a document redacted for taking a secret, not only the secret\'s', async () => {
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

  it('never shows a substituted secret in a D002 entry, with cleartext-secrets absent or false', async () => {
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

  it('never shows a secret in a D002 entry whatever the failing keyword: maxLength, pattern, enum and the rest', async () => {
    const schema = '---\nschema: deckhand/DataSchema/v1\nmetadata: {schema: metadata/Control/v1, name: app/Token/v1}\ndata:\n  type: object\n' +
      '  properties:\n    short: {type: string, maxLength: 3}\n    shaped: {type: string, pattern: "^x"}\n    listed: {enum: [a, b]}\n' +
      '    count: {type: integer, maximum: 1}\n    items: {type: array, maxItems: 1}\n'
    const token = { short: 'hunter2', shaped: 'hunter3', listed: 'hunter4', count: 77777, items: ['hunter5', 'hunter6'] }
    const app = await buildTestApp()
    await put(app, 'b', layeringPolicy(L3) + schema + [
      doc({ schema: 'app/Token/v1', name: 'secret', layer: 'site', storagePolicy: 'encrypted', data: token }),
      doc({ schema: 'app/Token/v1', name: 'plain', layer: 'site', data: token })
    ].join(''))
    const res = await get(app, '/revisions/1/rendered-documents?cleartext-secrets=true')
    const body = expectError(res, 400, 'InvalidDocumentFormat')
    type Entry = { message: string, documents: Array<{ name: string }>, diagnostic: { error_section: unknown } }
    const entries = body.details.messageList as Entry[]
    const secret = entries.filter((m) => m.documents[0]?.name === 'secret')
    expect(secret).toHaveLength(5)
    for (const entry of secret) {
      expect(entry.message).toBe('Sanitized to avoid exposing secret.')
      expect(entry.diagnostic.error_section).toBe('Sanitized to avoid exposing secret.')
    }
    expect(JSON.stringify(secret)).not.toMatch(/hunter|77777/)
    // a cleartext document's failures keep their values: nothing is hidden there
    expect(entries.filter((m) => m.documents[0]?.name === 'plain').map((m) => m.message).sort()).toEqual([
      "'hunter2' is too long", "'hunter3' does not match '^x'", "'hunter4' is not one of ['a', 'b']",
      '77777 is greater than the maximum of 1', "['hunter5', 'hunter6'] is too long"
    ].sort())
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
