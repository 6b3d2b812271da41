// GET /revisions/{id}/documents and secrets: every filter, sort, order, limit,
// redaction and who may see encrypted documents.
import { describe, expect, it } from 'vitest'
import { buildTestApp, doc, docsOf, expectError, get, policyFile, put } from './helpers/app.ts'

async function seeded () {
  const app = await buildTestApp()
  await put(app, 'one', [
    doc({ schema: 'example/Kind/v1', name: 'k1', layer: 'global', labels: { tier: 'base', region: 'east' }, abstract: true }),
    doc({ schema: 'example/Kind/v2', name: 'k2', layer: 'site', labels: { tier: 'base' } }),
    doc({ schema: 'example/Other/v1', name: 'o1', layer: 'site', labels: { region: 'east' } })
  ].join(''))
  await put(app, 'two', [
    doc({ schema: 'examples/Kind/v1', name: 'x1', layer: 'region' }),
    doc({ schema: 'other/Kind/v1', name: 'a0', layer: 'site' })
  ].join(''))
  return app
}

const names = (res: Awaited<ReturnType<typeof get>>): string[] => docsOf(res).map((d) => d.metadata.name)

describe('GET /revisions/{id}/documents filters', () => {
  it('lists the live set in write order, with status.revision the origin revision', async () => {
    const app = await seeded()
    const res = await get(app, '/revisions/2/documents')
    expect(res.statusCode).toBe(200)
    expect(names(res)).toEqual(['k1', 'k2', 'o1', 'x1', 'a0'])
    expect(docsOf(res).map((d) => d.status)).toEqual([
      { bucket: 'one', revision: 1 }, { bucket: 'one', revision: 1 }, { bucket: 'one', revision: 1 },
      { bucket: 'two', revision: 2 }, { bucket: 'two', revision: 2 }
    ])
  })

  it('matches schema by namespace, by namespace/kind and exactly; never by partial words', async () => {
    const app = await seeded()
    expect(names(await get(app, '/revisions/2/documents?schema=example'))).toEqual(['k1', 'k2', 'o1'])
    expect(names(await get(app, '/revisions/2/documents?schema=example/Kind'))).toEqual(['k1', 'k2'])
    expect(names(await get(app, '/revisions/2/documents?schema=example/Kind/v1'))).toEqual(['k1'])
    expect(names(await get(app, '/revisions/2/documents?schema=exam'))).toEqual([])
    expect(names(await get(app, '/revisions/2/documents?schema=example/Ki'))).toEqual([])
  })

  it('matches repeated schema values exactly only', async () => {
    const app = await seeded()
    expect(names(await get(app, '/revisions/2/documents?schema=example/Kind/v2&schema=other/Kind/v1'))).toEqual(['k2', 'a0'])
    expect(names(await get(app, '/revisions/2/documents?schema=example&schema=other/Kind/v1'))).toEqual(['a0'])
  })

  it('filters by name, layer, abstract, bucket (repeated = any of) and labels (repeated = all of)', async () => {
    const app = await seeded()
    expect(names(await get(app, '/revisions/2/documents?metadata.name=k2&metadata.name=a0'))).toEqual(['k2', 'a0'])
    expect(names(await get(app, '/revisions/2/documents?metadata.layeringDefinition.layer=site'))).toEqual(['k2', 'o1', 'a0'])
    expect(names(await get(app, '/revisions/2/documents?metadata.layeringDefinition.abstract=TRUE'))).toEqual(['k1'])
    expect(names(await get(app, '/revisions/2/documents?metadata.layeringDefinition.abstract=false'))).toEqual(['k2', 'o1', 'x1', 'a0'])
    expect(names(await get(app, '/revisions/2/documents?metadata.layeringDefinition.abstract=maybe'))).toEqual([])
    expect(names(await get(app, '/revisions/2/documents?status.bucket=two'))).toEqual(['x1', 'a0'])
    expect(names(await get(app, '/revisions/2/documents?metadata.label=region=east'))).toEqual(['k1', 'o1'])
    expect(names(await get(app, '/revisions/2/documents?metadata.label=region=east&metadata.label=tier=base'))).toEqual(['k1'])
    expect(names(await get(app, '/revisions/2/documents?metadata.label=region'))).toEqual([])
    expect(names(await get(app, '/revisions/2/documents?status.bucket=one&metadata.label=tier=base&schema=example/Kind/v2'))).toEqual(['k2'])
  })

  it('sorts by one or more fields, orders, and limits by the absolute value', async () => {
    const app = await seeded()
    expect(names(await get(app, '/revisions/2/documents?sort=metadata.name'))).toEqual(['a0', 'k1', 'k2', 'o1', 'x1'])
    expect(names(await get(app, '/revisions/2/documents?sort=status.bucket&sort=metadata.name&order=desc'))).toEqual(['x1', 'a0', 'o1', 'k2', 'k1'])
    expect(names(await get(app, '/revisions/2/documents?order=desc'))).toEqual(['a0', 'x1', 'o1', 'k2', 'k1'])
    expect(names(await get(app, '/revisions/2/documents?sort=metadata.name&limit=2'))).toEqual(['a0', 'k1'])
    expect(names(await get(app, '/revisions/2/documents?sort=metadata.name&limit=-2'))).toEqual(['a0', 'k1'])
    expect(names(await get(app, '/revisions/2/documents?limit=0'))).toEqual([])
  })

  it('puts documents lacking the sort field last instead of failing', async () => {
    const app = await seeded()
    expect(names(await get(app, '/revisions/2/documents?sort=metadata.labels.region'))).toEqual(['k1', 'o1', 'k2', 'x1', 'a0'])
  })

  it('answers 400 HTTPInvalidParam for a limit that is not an integer', async () => {
    const app = await seeded()
    const body = expectError(await get(app, '/revisions/2/documents?limit=two'), 400, 'HTTPInvalidParam')
    expect(body.message).toBe('The "limit" parameter is invalid. Query parameter limit must be of type <class \'int\'>.')
  })

  it('answers 404 for an unknown revision and 200 with an empty body for an empty live set', async () => {
    const app = await seeded()
    expectError(await get(app, '/revisions/9/documents'), 404, 'HTTPNotFound')
    await put(app, 'one', '')
    await put(app, 'two', '')
    const res = await get(app, '/revisions/4/documents')
    expect(res.statusCode).toBe(200)
    expect(res.body).toBe('')
  })

  it('answers 404 HTTPNotFound (upstream\'s type here) with the revision message; other endpoints keep RevisionNotFound', async () => {
    const app = await seeded()
    const unknown = expectError(await get(app, '/revisions/9/documents'), 404, 'HTTPNotFound')
    expect(unknown.message).toBe('The requested revision=9 was not found.')
    expect(unknown.details.messageList).toEqual([{ message: 'The requested revision=9 was not found.', error: true }])
    expect(expectError(await get(app, '/revisions/nine/documents'), 404, 'HTTPNotFound').message).toBe('The requested revision=nine was not found.')
    expectError(await get(app, '/revisions/9'), 404, 'RevisionNotFound')
    expectError(await get(app, '/revisions/9/rendered-documents'), 404, 'RevisionNotFound')
    expectError(await get(app, '/revisions/9/tags'), 404, 'RevisionNotFound')
  })

  it('shows an older revision as it was', async () => {
    const app = await seeded()
    expect(names(await get(app, '/revisions/1/documents'))).toEqual(['k1', 'k2', 'o1'])
  })
})

describe('encrypted documents in listings', () => {
  const SECRET = doc({
    schema: 'deckhand/Passphrase/v1',
    name: 'pw',
    layer: 'site',
    storagePolicy: 'encrypted',
    substitutions: [{ src: { schema: 'example/Kind/v1', name: 'x', path: '.source1' }, dest: { path: '.dest' } }],
    data: 'hunter2'
  })

  it('never returns the secret itself: its reference with cleartext-secrets=true, the reference hash with false', async () => {
    const app = await buildTestApp()
    const putRes = await put(app, 'b', SECRET)
    const reference = docsOf(putRes)[0].data
    expect(reference).not.toContain('hunter2')
    const clear = docsOf(await get(app, '/revisions/1/documents?cleartext-secrets=True'))[0]
    expect(clear.data).toBe(reference)
    expect(clear.metadata.substitutions[0].src.path).toBe('.source1')
    const redacted = docsOf(await get(app, '/revisions/1/documents?cleartext-secrets=false'))[0]
    expect(redacted.data).toMatch(/^[0-9a-f]{64}$/)
    expect(redacted.data).not.toBe(reference)
    // Deckhand redacts a substitution path as the SHA-256 of its JSON string, here ".source1"
    expect(redacted.metadata.substitutions[0].src.path).toBe('228efbb925ce4b36262904e66ce36cf3672b81e8abaee9769f905fa3e72db75d')
    expect(redacted.metadata.substitutions[0].dest.path).toMatch(/^[0-9a-f]{64}$/)
  })

  it('answers 400 for a cleartext-secrets value that is not a boolean', async () => {
    const app = await buildTestApp()
    await put(app, 'b', SECRET)
    expectError(await get(app, '/revisions/1/documents?cleartext-secrets=perhaps'), 400, 'HTTPInvalidParam')
  })

  it('leaves encrypted documents out for callers who may not list them, and forbids creating them', async () => {
    const app = await buildTestApp({ STORE_AUTH_TOKENS: 'admin,limited:lister' })
    const policy = { 'x-auth-token': 'admin' }
    await put(app, 'b', SECRET + doc({ name: 'plain', layer: 'site' }), policy)
    const limited = { 'x-auth-token': 'limited' }
    expectError(await get(app, '/revisions/1/documents', limited), 403, 'HTTPForbidden')
    const withRules = await buildTestApp({ STORE_AUTH_TOKENS: 'admin,limited:lister', STORE_POLICY_FILE: policyFile({ 'deckhand:list_cleartext_documents': 'role:lister or role:admin', 'deckhand:create_cleartext_documents': 'role:lister or role:admin' }) })
    await put(withRules, 'b', doc({ name: 'plain', layer: 'site' }), policy)
    await put(withRules, 'c', SECRET, policy)
    expect(names(await get(withRules, '/revisions/2/documents', limited))).toEqual(['plain'])
    expect(names(await get(withRules, '/revisions/2/documents', policy))).toEqual(['plain', 'pw'])
    expectError(await put(withRules, 'd', SECRET.replace('name":"pw', 'name":"pw2'), limited), 403, 'HTTPForbidden')
    expect((await put(withRules, 'd', doc({ name: 'fine', layer: 'site' }), limited)).statusCode).toBe(200)
  })
})
