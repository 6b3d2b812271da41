// Deckhand's default for `cleartext-secrets`: absent, the policy rule
// deckhand:show_cleartext_documents decides between cleartext and redaction; an explicit value decides alone.
import { describe, expect, it } from 'vitest'
import type { FastifyInstance } from 'fastify'
import { redactionHash } from '../src/domain/values.ts'
import { buildTestApp, doc, docsOf, get, layeringPolicy, policyFile, put } from './helpers/app.ts'

const SECRET = doc({ schema: 'deckhand/Passphrase/v1', name: 'pw', layer: 'site', storagePolicy: 'encrypted', data: 'hunter2' })
const USER = doc({
  schema: 'app/Config/v1',
  name: 'cfg',
  layer: 'site',
  substitutions: [{ src: { schema: 'deckhand/Passphrase/v1', name: 'pw', path: '.' }, dest: { path: '.password' } }],
  data: { user: 'me' }
})

const ADMIN = { 'x-auth-token': 'admin' }
const READER = { 'x-auth-token': 'reader' }

/** A store where `reader` may list every document but is not allowed cleartext by default. */
async function withReader (extraRules: Record<string, string> = {}): Promise<FastifyInstance> {
  const lister = 'role:reader or role:admin'
  return await buildTestApp({
    STORE_AUTH_TOKENS: 'admin,reader:reader',
    STORE_POLICY_FILE: policyFile({
      'deckhand:list_cleartext_documents': lister,
      'deckhand:list_encrypted_documents': lister,
      ...extraRules
    })
  })
}

/** The secret's stored reference, from the PUT answer. */
async function seed (app: FastifyInstance, headers: Record<string, string> = {}): Promise<string> {
  const res = await put(app, 'site', layeringPolicy(['site']) + SECRET + USER, headers)
  expect(res.statusCode).toBe(200)
  return docsOf(res).find((d) => d.metadata.name === 'pw').data
}

const secretMetadata = { schema: 'metadata/Document/v1', name: 'pw', storagePolicy: 'encrypted', layeringDefinition: { layer: 'site', abstract: false }, replacement: false }
const userMetadata = (storagePolicy: string, srcPath: string, destPath: string) => ({
  schema: 'metadata/Document/v1',
  name: 'cfg',
  storagePolicy,
  layeringDefinition: { layer: 'site', abstract: false },
  substitutions: [{ src: { schema: 'deckhand/Passphrase/v1', name: 'pw', path: srcPath }, dest: { path: destPath } }],
  replacement: false
})

const CLEAR_RENDERED = [
  { id: 2, schema: 'deckhand/Passphrase/v1', metadata: secretMetadata, data: 'hunter2', status: { bucket: 'site', revision: 1 } },
  { id: 3, schema: 'app/Config/v1', metadata: userMetadata('cleartext', '.', '.password'), data: { user: 'me', password: 'hunter2' }, status: { bucket: 'site', revision: 1 } }
]
const REDACTED_RENDERED = [
  { id: 2, schema: 'deckhand/Passphrase/v1', metadata: secretMetadata, data: redactionHash('hunter2'), status: { bucket: 'site', revision: 1 } },
  {
    id: 3,
    schema: 'app/Config/v1',
    metadata: userMetadata('encrypted', redactionHash('.'), redactionHash('.password')),
    data: redactionHash({ user: 'me', password: 'hunter2' }),
    status: { bucket: 'site', revision: 1 }
  }
]

const renderedPath = '/revisions/1/rendered-documents?schema=deckhand/Passphrase/v1&schema=app/Config/v1&sort=id'
const rawSecret = async (app: FastifyInstance, query: string, headers: Record<string, string>) =>
  docsOf(await get(app, `/revisions/1/documents?metadata.name=pw${query}`, headers))

describe('cleartext-secrets absent', () => {
  it('answers cleartext when no authentication is configured (every caller is an admin)', async () => {
    const app = await buildTestApp()
    const reference = await seed(app)
    expect(docsOf(await get(app, renderedPath))).toEqual(CLEAR_RENDERED)
    expect(await rawSecret(app, '', {})).toEqual([{ id: 2, schema: 'deckhand/Passphrase/v1', metadata: secretMetadata, data: reference, status: { bucket: 'site', revision: 1 } }])
  })

  it('answers cleartext to a caller deckhand:show_cleartext_documents allows, redacted to one it denies', async () => {
    const app = await withReader()
    const reference = await seed(app, ADMIN)
    // the admin's cleartext answer is cached first: the reader's redacted one must not come from it
    expect(docsOf(await get(app, renderedPath, ADMIN))).toEqual(CLEAR_RENDERED)
    expect(docsOf(await get(app, renderedPath, READER))).toEqual(REDACTED_RENDERED)
    expect(docsOf(await get(app, renderedPath, ADMIN))).toEqual(CLEAR_RENDERED)
    expect((await rawSecret(app, '', ADMIN))[0].data).toBe(reference)
    expect((await rawSecret(app, '', READER))[0].data).toBe(redactionHash(reference))
  })

  it('follows a policy file that opens the rule to other roles', async () => {
    const app = await withReader({ 'deckhand:show_cleartext_documents': 'role:reader or role:admin' })
    await seed(app, ADMIN)
    expect(docsOf(await get(app, renderedPath, READER))).toEqual(CLEAR_RENDERED)
  })
})

describe('cleartext-secrets given', () => {
  it('false redacts for every caller, admins included', async () => {
    const app = await buildTestApp()
    const reference = await seed(app)
    expect(docsOf(await get(app, `${renderedPath}&cleartext-secrets=false`))).toEqual(REDACTED_RENDERED)
    expect((await rawSecret(app, '&cleartext-secrets=false', {}))[0].data).toBe(redactionHash(reference))
  })

  it('true answers cleartext to any caller who may list the documents, as before', async () => {
    const app = await withReader()
    const reference = await seed(app, ADMIN)
    expect(docsOf(await get(app, `${renderedPath}&cleartext-secrets=true`, READER))).toEqual(CLEAR_RENDERED)
    expect((await rawSecret(app, '&cleartext-secrets=true', READER))[0].data).toBe(reference)
  })
})
