// Diff, rollback and tags and validations: the calls the orchestrator derives its
// versions from.
import { describe, expect, it } from 'vitest'
import { bodyOf, buildTestApp, del, doc, docsOf, expectError, get, post, put } from './helpers/app.ts'

const A = doc({ name: 'a', layer: 'site', data: { v: 1 } })
const A2 = doc({ name: 'a', layer: 'site', data: { v: 2 } })
const B = doc({ name: 'b', layer: 'site' })

describe('GET /revisions/{a}/diff/{b}', () => {
  it('reports created, deleted, modified and unmodified buckets whatever the argument order', async () => {
    const app = await buildTestApp()
    await put(app, 'keep', B) // 1
    await put(app, 'change', A) // 2
    await put(app, 'gone', doc({ name: 'g', layer: 'site' })) // 3
    await put(app, 'change', A2) // 4
    await put(app, 'gone', '') // 5
    await put(app, 'new', doc({ name: 'n', layer: 'site' })) // 6
    expect(bodyOf(await get(app, '/revisions/3/diff/6'))).toEqual({ keep: 'unmodified', change: 'modified', gone: 'deleted', new: 'created' })
    expect(bodyOf(await get(app, '/revisions/6/diff/3'))).toEqual({ keep: 'unmodified', change: 'modified', gone: 'deleted', new: 'created' })
    expect(bodyOf(await get(app, '/revisions/0/diff/6'))).toEqual({ keep: 'created', change: 'created', new: 'created' })
    expect(bodyOf(await get(app, '/revisions/6/diff/6'))).toEqual({ keep: 'unmodified', change: 'unmodified', new: 'unmodified' })
    expect(bodyOf(await get(app, '/revisions/0/diff/0'))).toEqual({})
  })

  it('reports emptied-and-refilled identical content as unmodified and omits a bucket born and emptied in between', async () => {
    const app = await buildTestApp()
    await put(app, 'b', A) // 1
    await put(app, 'b', '') // 2
    await put(app, 'tmp', B) // 3
    await put(app, 'tmp', '') // 4
    await put(app, 'b', A) // 5
    expect(bodyOf(await get(app, '/revisions/1/diff/5'))).toEqual({ b: 'unmodified' })
  })

  it('reports a value changed from 1 to 1.0 as modified (a float hashes as 1.0)', async () => {
    const app = await buildTestApp()
    const widget = (v: string) => `schema: example/Kind/v1\nmetadata: {schema: metadata/Document/v1, name: w, storagePolicy: cleartext, layeringDefinition: {layer: site}}\ndata: {v: ${v}}\n`
    await put(app, 'b', widget('1')) // 1
    await put(app, 'b', widget('1.0')) // 2
    await put(app, 'b', widget('1.0')) // 3
    expect(bodyOf(await get(app, '/revisions/1/diff/2'))).toEqual({ b: 'modified' })
    expect(bodyOf(await get(app, '/revisions/2/diff/3'))).toEqual({ b: 'unmodified' })
    expect((await get(app, '/revisions/2/documents')).body).toContain('v: 1.0\n')
  })

  it('answers 400 InvalidInputException for a non-integer id and 404 for an unknown one', async () => {
    const app = await buildTestApp()
    await put(app, 'b', A)
    const body = expectError(await get(app, '/revisions/x/diff/1'), 400, 'InvalidInputException')
    expect(body.message).toBe('Failed to process request due to invalid input: x')
    expectError(await get(app, '/revisions/1/diff/9'), 404, 'RevisionNotFound')
  })
})

describe('POST /rollback/{id}', () => {
  it('creates a revision whose documents equal the target, emptying buckets the target lacked', async () => {
    const app = await buildTestApp()
    await put(app, 'b', A) // 1
    await put(app, 'b', A2) // 2
    await put(app, 'extra', B) // 3
    const res = await post(app, '/rollback/1')
    expect(res.statusCode).toBe(201)
    const body = bodyOf(res)
    expect(body).toMatchObject({ id: 4, buckets: ['b', 'extra'], tags: {}, status: 'success' })
    expect(bodyOf(await get(app, '/revisions/1/diff/4'))).toEqual({ b: 'unmodified' })
    const docs = docsOf(await get(app, '/revisions/4/documents'))
    expect(docs.map((d) => [d.metadata.name, d.data, d.status.revision])).toEqual([['a', { v: 1 }, 4]])
  })

  it('uses the target revision as origin for documents unchanged against the latest revision', async () => {
    const app = await buildTestApp()
    await put(app, 'b', A) // 1
    await put(app, 'other', B) // 2
    await post(app, '/rollback/1') // 3
    expect(docsOf(await get(app, '/revisions/3/documents'))[0].status.revision).toBe(1)
  })

  it('rolls back to 0 by emptying every bucket, and always creates a revision', async () => {
    const app = await buildTestApp()
    await put(app, 'b', A)
    await put(app, 'c', B)
    expect(bodyOf(await post(app, '/rollback/0'))).toMatchObject({ id: 3, buckets: ['b', 'c'] })
    expect((await get(app, '/revisions/3/documents')).body).toBe('')
    expect(bodyOf(await get(app, '/revisions/0/diff/3'))).toEqual({})
    expect(bodyOf(await post(app, '/rollback/3')).id).toBe(4)
  })

  it('answers 404 for an unknown, negative or non-integer id', async () => {
    const app = await buildTestApp()
    await put(app, 'b', A)
    expectError(await post(app, '/rollback/5'), 404, 'RevisionNotFound')
    expect((await post(app, '/rollback/-1')).statusCode).toBe(404)
    expect((await post(app, '/rollback/one')).statusCode).toBe(404)
  })
})

describe('tags', () => {
  it('creates a tag (201), re-creates it idempotently replacing its data, lists, shows and deletes it', async () => {
    const app = await buildTestApp()
    await put(app, 'b', A)
    const created = await post(app, '/revisions/1/tags/committed')
    expect(created.statusCode).toBe(201)
    expect(bodyOf(created)).toEqual({ committed: {} })
    const again = await post(app, '/revisions/1/tags/committed', 'by: orchestrator\n')
    expect(again.statusCode).toBe(201)
    expect(bodyOf(again)).toEqual({ committed: { by: 'orchestrator' } })
    await post(app, '/revisions/1/tags/site-action-success')
    expect(bodyOf(await get(app, '/revisions/1/tags'))).toEqual({ committed: { by: 'orchestrator' }, 'site-action-success': {} })
    expect(bodyOf(await get(app, '/revisions/1/tags/committed'))).toEqual({ committed: { by: 'orchestrator' } })
    expect(bodyOf(await get(app, '/revisions')).results[0].tags).toEqual(['committed', 'site-action-success'])
    expect((await del(app, '/revisions/1/tags/committed')).statusCode).toBe(204)
    const missing = expectError(await get(app, '/revisions/1/tags/committed'), 404, 'RevisionTagNotFound')
    expect(missing.message).toBe("The requested tag 'committed' for revision 1 was not found.")
    expectError(await del(app, '/revisions/1/tags/committed'), 404, 'RevisionTagNotFound')
    expect((await del(app, '/revisions/1/tags')).statusCode).toBe(204)
    expect((await del(app, '/revisions/1/tags')).statusCode).toBe(204)
    expect(bodyOf(await get(app, '/revisions/1/tags'))).toEqual({})
  })

  it('puts one tag name on several revisions', async () => {
    const app = await buildTestApp()
    await put(app, 'b', A)
    await put(app, 'b', A2)
    await post(app, '/revisions/1/tags/committed')
    await post(app, '/revisions/2/tags/committed')
    expect(bodyOf(await get(app, '/revisions?tag=committed')).count).toBe(2)
  })

  it('gives back dates and binary values in tag data as they were posted', async () => {
    const app = await buildTestApp()
    await put(app, 'b', A)
    const created = await post(app, '/revisions/1/tags/t1', 'when: 2026-05-01\nblob: !!binary aGk=\nratio: 2.0\n')
    expect(created.statusCode).toBe(201)
    const listed = await get(app, '/revisions/1/tags')
    expect(listed.statusCode).toBe(200)
    expect(listed.body).toBe('t1:\n  when: 2026-05-01\n  blob: !!binary aGk=\n  ratio: 2.0\n')
    const shown = await get(app, '/revisions/1/tags/t1')
    expect(shown.statusCode).toBe(200)
    expect(shown.body).toBe(listed.body)
    const revision = await get(app, '/revisions/1')
    expect(revision.statusCode).toBe(200)
    expect(bodyOf(revision).tags).toEqual({ t1: { when: new Date('2026-05-01T00:00:00Z'), blob: expect.anything(), ratio: 2 } })
    expect(revision.body).toContain('    when: 2026-05-01\n    blob: !!binary aGk=\n    ratio: 2.0\n')
    expect(revision.body).not.toContain('yaml')
  })

  it('answers 400 RevisionTagBadFormat for non-mapping data and 404 for an unknown revision', async () => {
    const app = await buildTestApp()
    await put(app, 'b', A)
    const body = expectError(await post(app, '/revisions/1/tags/t', '- a\n- list\n'), 400, 'RevisionTagBadFormat')
    expect(body.message).toMatch(/must either be null or dictionary\.$/)
    expectError(await post(app, '/revisions/3/tags/t'), 404, 'RevisionNotFound')
    expectError(await get(app, '/revisions/3/tags'), 404, 'RevisionNotFound')
  })

  it('prints non-mapping tag data the way Python does in the RevisionTagBadFormat message', async () => {
    const app = await buildTestApp()
    await put(app, 'b', A)
    const numbers = expectError(await post(app, '/revisions/1/tags/t', '[1, 2]\n'), 400, 'RevisionTagBadFormat')
    expect(numbers.message).toBe('The requested tag data [1, 2] must either be null or dictionary.')
    const words = expectError(await post(app, '/revisions/1/tags/t', '- a\n- true\n- null\n'), 400, 'RevisionTagBadFormat')
    expect(words.message).toBe("The requested tag data ['a', True, None] must either be null or dictionary.")
    const text = expectError(await post(app, '/revisions/1/tags/t', 'just text\n'), 400, 'RevisionTagBadFormat')
    expect(text.message).toBe('The requested tag data just text must either be null or dictionary.')
  })
})

describe('validations', () => {
  const RESULT = 'status: success\nvalidator: {name: promenade, version: 1.1.2}\n'
  const FAILED = 'status: failure\nvalidator: {name: promenade, version: 1.1.2}\nerrors:\n- message: broken\n  documents: [{schema: a/B/v1, name: x}]\n'

  it('records entries (201) and reads them by name, by entry and in detail', async () => {
    const app = await buildTestApp()
    await put(app, 'b', A)
    const created = await post(app, '/revisions/1/validations/promenade-schema-validation', RESULT)
    expect(created.statusCode).toBe(201)
    expect(bodyOf(created)).toEqual({ status: 'success', validator: { name: 'promenade', version: '1.1.2' } })
    await post(app, '/revisions/1/validations/promenade-schema-validation', FAILED)
    await post(app, '/revisions/1/validations/armada-validation', RESULT)
    expect(bodyOf(await get(app, '/revisions/1/validations'))).toEqual({
      count: 2,
      results: [{ name: 'armada-validation', status: 'success' }, { name: 'promenade-schema-validation', status: 'failure' }]
    })
    expect(bodyOf(await get(app, '/revisions/1/validations/promenade-schema-validation'))).toEqual({ count: 2, results: [{ id: 0, status: 'success' }, { id: 1, status: 'failure' }] })
    const entry = bodyOf(await get(app, '/revisions/1/validations/promenade-schema-validation/entries/1'))
    expect(entry).toMatchObject({ name: 'promenade-schema-validation', status: 'failure', errors: [{ message: 'broken', documents: [{ schema: 'a/B/v1', name: 'x' }] }] })
    expect(typeof entry.createdAt).toBe('string')
    const detail = bodyOf(await get(app, '/revisions/1/validations/detail'))
    expect(detail.count).toBe(3)
    expect(detail.results.map((r: any) => [r.id, r.name, r.status])).toEqual([[0, 'promenade-schema-validation', 'success'], [1, 'promenade-schema-validation', 'failure'], [2, 'armada-validation', 'success']])
  })

  it('aggregates per revision only', async () => {
    const app = await buildTestApp()
    await put(app, 'b', A)
    await put(app, 'b', A2)
    await post(app, '/revisions/1/validations/x-validation', FAILED)
    await post(app, '/revisions/2/validations/x-validation', RESULT)
    expect(bodyOf(await get(app, '/revisions/2/validations')).results).toEqual([{ name: 'x-validation', status: 'success' }])
    expect(bodyOf(await get(app, '/revisions/2/validations/detail')).results).toHaveLength(1)
  })

  it('answers 400 for an empty body, a payload without status/validator and a non-integer entry; 404 for unknown ones', async () => {
    const app = await buildTestApp()
    await put(app, 'b', A)
    expect(expectError(await post(app, '/revisions/1/validations/v'), 400, 'HTTPBadRequest').message).toBe('The request body must not be empty.')
    expect(expectError(await post(app, '/revisions/1/validations/v', 'status: success\n'), 400, 'HTTPBadRequest').message).toBe('Validation payload must contain keys: "status", "validator".')
    expectError(await post(app, '/revisions/1/validations/v', 'status: ""\nvalidator: {name: x}\n'), 400, 'HTTPBadRequest')
    expectError(await post(app, '/revisions/9/validations/v', RESULT), 404, 'RevisionNotFound')
    await post(app, '/revisions/1/validations/v', RESULT)
    expect(expectError(await get(app, '/revisions/1/validations/v/entries/x'), 400, 'HTTPBadRequest').message).toBe('The {entry_id} parameter must be an integer.')
    const missing = expectError(await get(app, '/revisions/1/validations/v/entries/3'), 404, 'ValidationNotFound')
    expect(missing.message).toBe('The requested validation entry 3 was not found for validation name v and revision ID 1.')
  })

  it('applies the revision\'s own ValidationPolicy: missing ones fail, unexpected ones are ignored', async () => {
    const app = await buildTestApp()
    await put(app, 'b', 'schema: deckhand/ValidationPolicy/v1\nmetadata: {schema: metadata/Control/v1, name: vp}\ndata:\n  validations:\n  - name: promenade-schema-validation\n  - name: drydock-site-validation\n')
    await post(app, '/revisions/1/validations/promenade-schema-validation', RESULT)
    await post(app, '/revisions/1/validations/other-validation', RESULT)
    expect(bodyOf(await get(app, '/revisions/1/validations')).results).toEqual([
      { name: 'drydock-site-validation', status: 'failure' },
      { name: 'other-validation', status: 'ignored [success]' },
      { name: 'promenade-schema-validation', status: 'success' }
    ])
    const never = bodyOf(await get(app, '/revisions/1/validations/drydock-site-validation'))
    expect(never).toEqual({ count: 1, results: [{ id: 0, status: 'failure' }] })
    const entry = bodyOf(await get(app, '/revisions/1/validations/drydock-site-validation/entries/0'))
    expect(entry.errors[0].message).toBe('The result for this validation was never externally registered so its status defaulted to "failure".')
    const ignored = bodyOf(await get(app, '/revisions/1/validations/other-validation/entries/0'))
    expect(ignored.errors[0].message).toContain('ignored')
    const detail = bodyOf(await get(app, '/revisions/1/validations/detail'))
    expect(detail.results.map((r: any) => r.status)).toEqual(['success', 'ignored [success]', 'failure'])
    // the policy belongs to revision 1 only
    await put(app, 'c', A)
    await post(app, '/revisions/2/validations/other-validation', RESULT)
    expect(bodyOf(await get(app, '/revisions/2/validations')).results).toEqual([{ name: 'other-validation', status: 'success' }])
  })

  it('gives back dates in posted errors as they were posted, in detail and by entry', async () => {
    const app = await buildTestApp()
    await put(app, 'b', A)
    await post(app, '/revisions/1/validations/promenade-schema-validation', 'status: failure\nvalidator: {name: promenade, version: 1.1.2}\nerrors:\n- message: expired\n  at: 2026-05-01\n')
    const entry = await get(app, '/revisions/1/validations/promenade-schema-validation/entries/0')
    expect(entry.statusCode).toBe(200)
    expect(bodyOf(entry).errors).toEqual([{ message: 'expired', at: new Date('2026-05-01T00:00:00Z') }])
    expect(entry.body).toContain('  at: 2026-05-01\n')
    const detail = await get(app, '/revisions/1/validations/detail')
    expect(detail.statusCode).toBe(200)
    expect(bodyOf(detail).results[0].errors).toEqual([{ message: 'expired', at: new Date('2026-05-01T00:00:00Z') }])
    expect(detail.body).not.toContain('yaml')
  })

  const POLICY = 'schema: deckhand/ValidationPolicy/v1\nmetadata: {schema: metadata/Control/v1, name: vp}\ndata:\n  validations:\n  - {name: promenade-schema-validation, expiresAfter: 2d}\n  - {name: drydock-site-validation, expiresAfter: 1h}\n  - {name: armada-site-validation}\n'
  const NEVER = 'The result for this validation was never externally registered so its status defaulted to "failure".'

  it('shows the policy\'s expiresAfter for each validation name, null when the policy gives none', async () => {
    const app = await buildTestApp()
    await put(app, 'b', POLICY)
    await post(app, '/revisions/1/validations/promenade-schema-validation', RESULT)
    await post(app, '/revisions/1/validations/armada-site-validation', RESULT)
    await post(app, '/revisions/1/validations/other-validation', RESULT)
    const entry = await get(app, '/revisions/1/validations/promenade-schema-validation/entries/0')
    expect(entry.statusCode).toBe(200)
    expect(bodyOf(entry).expiresAfter).toBe('2d')
    expect(bodyOf(await get(app, '/revisions/1/validations/armada-site-validation/entries/0')).expiresAfter).toBeNull()
    expect(bodyOf(await get(app, '/revisions/1/validations/other-validation/entries/0')).expiresAfter).toBeNull()
    expect(bodyOf(await get(app, '/revisions/1/validations/drydock-site-validation/entries/0')).expiresAfter).toBe('1h')
    const detail = await get(app, '/revisions/1/validations/detail')
    expect(detail.statusCode).toBe(200)
    expect(bodyOf(detail).results.map((r: any) => [r.name, r.expiresAfter])).toEqual([
      ['promenade-schema-validation', '2d'], ['armada-site-validation', null], ['other-validation', null], [null, null]
    ])
  })

  it('shapes entries as {name, status, createdAt, expiresAfter, errors}; one never-registered entry, named as requested or null', async () => {
    const app = await buildTestApp()
    await put(app, 'b', POLICY)
    await post(app, '/revisions/1/validations/promenade-schema-validation', RESULT)
    const posted = await get(app, '/revisions/1/validations/promenade-schema-validation/entries/0')
    expect(posted.statusCode).toBe(200)
    expect(Object.keys(bodyOf(posted))).toEqual(['name', 'status', 'createdAt', 'expiresAfter', 'errors'])
    const never = await get(app, '/revisions/1/validations/drydock-site-validation/entries/0')
    expect(never.statusCode).toBe(200)
    expect(bodyOf(never)).toEqual({ name: 'drydock-site-validation', status: 'failure', createdAt: null, expiresAfter: '1h', errors: [{ message: NEVER }] })
    expect(Object.keys(bodyOf(never))).toEqual(['name', 'status', 'createdAt', 'expiresAfter', 'errors'])
    const detail = await get(app, '/revisions/1/validations/detail')
    expect(detail.statusCode).toBe(200)
    // drydock and armada are both missing: upstream adds a single entry, without a name
    expect(bodyOf(detail)).toEqual({
      count: 2,
      results: [
        { name: 'promenade-schema-validation', status: 'success', createdAt: expect.any(String), expiresAfter: '2d', errors: [], id: 0 },
        { name: null, status: 'failure', createdAt: null, expiresAfter: null, errors: [{ message: NEVER }], id: 1 }
      ]
    })
  })

  it('records nothing by itself for a fresh revision', async () => {
    const app = await buildTestApp()
    await put(app, 'b', A)
    expect(bodyOf(await get(app, '/revisions/1/validations'))).toEqual({ count: 0, results: [] })
  })
})
