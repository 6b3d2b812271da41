// PUT /buckets/{bucket}/documents: responses, defaults, structure checks, duplicates,
// ownership, the LayeringPolicy singleton, deletions, the revision creation rule, concurrency.
import { describe, expect, it } from 'vitest'
import { bodyOf, buildTestApp, doc, docsOf, expectError, get, layeringPolicy, put } from './helpers/app.ts'

const A = doc({ name: 'a', layer: 'site', data: { x: 1 } })
const B = doc({ name: 'b', layer: 'site', data: { y: 2 } })

describe('PUT /buckets/{bucket}/documents', () => {
  it('answers 200 with the stored documents, defaults filled in and status.revision the new revision', async () => {
    const app = await buildTestApp()
    const res = await put(app, 'site', layeringPolicy(['global', 'site']) + A)
    expect(res.statusCode).toBe(200)
    const docs = docsOf(res)
    expect(docs).toHaveLength(2)
    expect(docs[0]).toEqual({
      id: 1,
      schema: 'deckhand/LayeringPolicy/v1',
      metadata: { schema: 'metadata/Control/v1', name: 'layering-policy', storagePolicy: 'cleartext', layeringDefinition: { abstract: false }, replacement: false },
      data: { layerOrder: ['global', 'site'] },
      status: { bucket: 'site', revision: 1 }
    })
    expect(docs[1]).toMatchObject({ id: 2, metadata: { layeringDefinition: { layer: 'site', abstract: false }, replacement: false }, data: { x: 1 }, status: { bucket: 'site', revision: 1 } })
  })

  it('stores an absent data section as {} and ignores a top-level id and status', async () => {
    const app = await buildTestApp()
    const res = await put(app, 'b', 'id: 99\nstatus: {bucket: other, revision: 7}\nschema: acme/Widget/v1\nmetadata: {schema: metadata/Document/v1, name: w, storagePolicy: cleartext, layeringDefinition: {layer: site}}\n')
    expect(res.statusCode).toBe(200)
    expect(docsOf(res)[0]).toMatchObject({ id: 1, data: {}, status: { bucket: 'b', revision: 1 } })
  })

  it('answers 400 InvalidDocumentFormat with one D001 entry per problem and stores nothing', async () => {
    const app = await buildTestApp()
    const res = await put(app, 'b', `schema: acme/Widget
metadata: {schema: metadata/Document/v1, name: w, storagePolicy: cleartext, layeringDefinition: {layer: site}}
---
schema: acme/Widget/v1
metadata: {schema: metadata/Document/v1, name: v, layeringDefinition: {layer: site, parentSelector: {a: b}}, extra: 1}
---
schema: acme/Widget/v1
metadata: {schema: metadata/Document/v2, name: u}
`)
    const body = expectError(res, 400, 'InvalidDocumentFormat')
    expect(body.reason).toBe('Validation')
    expect(body.message).toBe('The provided documents failed schema validation.')
    const messages = body.details.messageList.map((m: any) => m.message)
    expect(messages).toEqual([
      "'acme/Widget' does not match '^[A-Za-z]+/[A-Za-z]+/v\\d+$'",
      "Additional properties are not allowed ('extra' was unexpected)",
      "'storagePolicy' is a required property",
      "'actions' is a dependency of 'parentSelector'",
      'Invalid metadata schema metadata/Document/v2 specified.'
    ])
    expect(body.details.messageList[0]).toMatchObject({ kind: 'ValidationMessage', name: 'D001', level: 'Error', error: true, documents: [{ schema: 'acme/Widget', name: 'w', layer: 'site' }] })
    expect(typeof body.details.messageList[0].diagnostic).toBe('string')
    expect(bodyOf(await get(app, '/revisions')).count).toBe(0)
  })

  it('checks action and substitution shapes', async () => {
    const app = await buildTestApp()
    const res = await put(app, 'b', doc({
      name: 'w',
      layer: 'site',
      parentSelector: { a: 'b' },
      actions: [{ method: 'squash', path: '.' }],
      substitutions: [{ src: { schema: 'a/B/v1', name: 'n' }, dest: { path: '.x', recurse: {} } }]
    }))
    const body = expectError(res, 400, 'InvalidDocumentFormat')
    expect(body.details.messageList.map((m: any) => m.message)).toEqual([
      "'squash' is not one of ['replace', 'delete', 'merge']",
      "'path' is a required property",
      "'depth' is a required property"
    ])
  })

  it('answers 409 DuplicateDocumentExists for the same schema, layer and name twice in one body', async () => {
    const app = await buildTestApp()
    const body = expectError(await put(app, 'b', A + A), 409, 'DuplicateDocumentExists')
    expect(body.message).toBe('Document [example/Kind/v1, site] a already exists in bucket: b.')
  })

  it('allows the same schema and name in two layers', async () => {
    const app = await buildTestApp()
    const res = await put(app, 'b', A + doc({ name: 'a', layer: 'global' }))
    expect(res.statusCode).toBe(200)
  })

  it('answers 409 when a document lives in another bucket, naming that bucket; after removal it may move', async () => {
    const app = await buildTestApp()
    await put(app, 'one', A)
    await put(app, 'two', B)
    const body = expectError(await put(app, 'three', A), 409, 'DuplicateDocumentExists')
    expect(body.message).toBe('Document [example/Kind/v1, site] a already exists in bucket: one.')
    await put(app, 'one', '')
    expect((await put(app, 'three', A)).statusCode).toBe(200)
  })

  it('answers 409 SingletonDocumentConflict for a second LayeringPolicy anywhere in the live set', async () => {
    const app = await buildTestApp()
    await put(app, 'one', layeringPolicy(['site']))
    await put(app, 'two', A)
    const body = expectError(await put(app, 'three', layeringPolicy(['site'], 'another')), 409, 'SingletonDocumentConflict')
    expect(body.message).toMatch(/^A singleton document \[deckhand\/LayeringPolicy\/v1, None\] layering-policy already exists in the system\./)
    expect((await put(app, 'one', layeringPolicy(['global', 'site']))).statusCode).toBe(200)
    await put(app, 'one', '')
    expect((await put(app, 'three', layeringPolicy(['site'], 'another'))).statusCode).toBe(200)
  })

  it('deletes documents left out of the body and answers the placeholder when only deletions happened', async () => {
    const app = await buildTestApp()
    await put(app, 'b', A + B)
    const res = await put(app, 'b', A)
    expect(docsOf(res).map((d) => d.metadata.name)).toEqual(['a'])
    expect(docsOf(await get(app, '/revisions/2/documents')).map((d) => d.metadata.name)).toEqual(['a'])
    const emptied = await put(app, 'b', '')
    expect(emptied.statusCode).toBe(200)
    expect(docsOf(emptied)).toEqual([{ status: { bucket: 'b', revision: 3 } }])
    expect((await get(app, '/revisions/3/documents')).body).toBe('')
  })

  it('creates no revision for an empty body on an empty or unknown bucket', async () => {
    const app = await buildTestApp()
    const res = await put(app, 'never', '')
    expect(res.statusCode).toBe(200)
    expect(res.body).toBe('')
    await put(app, 'b', A)
    await put(app, 'b', '')
    expect((await put(app, 'b', '')).body).toBe('')
    expect(bodyOf(await get(app, '/revisions')).count).toBe(2)
  })

  it('creates a revision for an unchanged re-PUT, keeping the origin revision', async () => {
    const app = await buildTestApp()
    await put(app, 'b', A)
    await put(app, 'other', B)
    const res = await put(app, 'b', A)
    expect(docsOf(res)[0].status.revision).toBe(3)
    expect(docsOf(await get(app, '/revisions/3/documents?status.bucket=b'))[0].status.revision).toBe(1)
    expect(bodyOf(await get(app, '/revisions/1/diff/3'))).toEqual({ b: 'unmodified', other: 'created' })
  })

  it('never shows ValidationPolicy documents but stores them', async () => {
    const app = await buildTestApp()
    const policy = 'schema: deckhand/ValidationPolicy/v1\nmetadata: {schema: metadata/Control/v1, name: vp}\ndata: {validations: [{name: promenade-schema-validation}]}\n'
    const res = await put(app, 'b', policy)
    expect(docsOf(res)).toEqual([{ status: { bucket: 'b', revision: 1 } }])
    expect((await get(app, '/revisions/1/documents')).body).toBe('')
    expect(bodyOf(await get(app, '/revisions/1')).validationPolicies).toHaveLength(1)
  })

  it('gives concurrent PUTs consecutive revisions and loses no document', async () => {
    const app = await buildTestApp()
    const n = 20
    const results = await Promise.all(Array.from({ length: n }, (_, i) => put(app, `bucket-${i}`, doc({ name: `d${i}`, layer: 'site', data: { i } }))))
    expect(results.every((r) => r.statusCode === 200)).toBe(true)
    const revisions = results.map((r) => docsOf(r)[0].status.revision).sort((a, b) => a - b)
    expect(revisions).toEqual(Array.from({ length: n }, (_, i) => i + 1))
    const live = docsOf(await get(app, `/revisions/${n}/documents`))
    expect(live.map((d) => d.metadata.name).sort()).toEqual(Array.from({ length: n }, (_, i) => `d${i}`).sort())
    expect(bodyOf(await get(app, '/revisions')).results.map((r: any) => r.id)).toEqual(Array.from({ length: n }, (_, i) => i + 1))
  })

  it('stores an encrypted document with empty data as cleartext', async () => {
    const app = await buildTestApp()
    const res = await put(app, 'b', doc({ name: 'e', layer: 'site', storagePolicy: 'encrypted', data: {} }))
    expect(docsOf(res)[0].metadata.storagePolicy).toBe('cleartext')
  })
})
