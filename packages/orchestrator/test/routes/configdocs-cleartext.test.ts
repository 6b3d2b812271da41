// GET /configdocs/{c}?cleartext-secrets=true answers each encrypted document with its secret, not the store's
// reference to it, at every version (the buffer, committed, the site-action versions); the rest of the store's text
// as it wrote it; redacted reads unchanged; the cleartext rule checked at every version.
import { describe, expect, it } from 'vitest'
import { parseAllDocuments } from 'yaml'
import { AUTH, TEST_TOKENS } from '@slipway/common/testing'
import { buildTestStack, GLOBAL_YAML, SITE_YAML } from '../helpers/stack.ts'

type Stack = Awaited<ReturnType<typeof buildTestStack>>
interface Doc { schema: string, metadata: { name: string, storagePolicy?: string }, data: unknown }
const YAML = { ...AUTH, 'content-type': 'application/x-yaml' }

const docsOf = (text: string): Doc[] => parseAllDocuments(text).map((d) => d.toJS() as Doc).filter((d) => d !== null)
const key = (d: Doc): string => `${d.schema} ${d.metadata.name}`
/** The encrypted documents of a YAML stream: `schema name` → data. */
const secretsOf = (text: string): Record<string, unknown> =>
  Object.fromEntries(docsOf(text).filter((d) => d.metadata.storagePolicy === 'encrypted').map((d) => [key(d), d.data]))
/** The documents of a stream other than encrypted ones, as the text between document markers. */
const clearParts = (text: string): string[] => text.split(/^---$/m).filter((part) => !/storagePolicy: encrypted/.test(part))

async function stage (stack: Stack, collection: string, body: string, query = ''): Promise<void> {
  const res = await stack.app.inject({ method: 'POST', url: `/api/v1.0/configdocs/${collection}${query}`, headers: YAML, payload: body })
  expect(res.statusCode, res.body).toBe(201)
}

async function commit (stack: Stack): Promise<void> {
  const res = await stack.app.inject({ method: 'POST', url: '/api/v1.0/commitconfigdocs', headers: AUTH })
  expect(res.statusCode, res.body).toBe(200)
}

const read = async (stack: Stack, query: string, headers: Record<string, string> = AUTH) =>
  await stack.app.inject({ url: `/api/v1.0/configdocs/site?${query}`, headers })

/** What the store itself lists for the site collection at a revision. */
const storeListing = async (stack: Stack, revision: number, cleartext: boolean): Promise<string> =>
  await (await fetch(`${stack.store.url}/revisions/${revision}/documents?status.bucket=site&cleartext-secrets=${String(cleartext)}`)).text()

const SECRETS = secretsOf(SITE_YAML)
/** The site with one secret changed: the admin's key. */
const CHANGED_YAML = SITE_YAML.replace('ZXhhbXBsZSBwcml2YXRlIGtleSBhZG1pbg==', 'bmV3IHByaXZhdGUga2V5IGFkbWlu')
const CHANGED = secretsOf(CHANGED_YAML)

async function until (what: string, probe: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 30_000
  while (!await probe()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

describe('GET /api/v1.0/configdocs/{collection_id}?cleartext-secrets=true', () => {
  it('answers the secrets themselves at the buffer and committed; the other documents and redacted reads as the store lists them', async () => {
    const stack = await buildTestStack()
    expect(Object.keys(SECRETS)).toHaveLength(5)
    await stage(stack, 'global', GLOBAL_YAML)
    await stage(stack, 'site', SITE_YAML, '?buffermode=append')

    for (const [version, revision] of [['buffer', 2], ['committed', 2]] as const) {
      if (version === 'committed') await commit(stack)
      const clear = await read(stack, `version=${version}&cleartext-secrets=true`)
      expect(clear.statusCode).toBe(200)
      expect(clear.headers['content-type']).toMatch(/^application\/x-yaml/)
      expect(secretsOf(clear.body)).toEqual(SECRETS)
      expect(clear.body).not.toContain('stub-store://secrets/')
      // the store lists references; everything but the encrypted documents is its text unchanged
      const listed = await storeListing(stack, revision, true)
      expect(listed).toContain('stub-store://secrets/')
      expect(clearParts(clear.body)).toEqual(clearParts(listed))
      expect(docsOf(clear.body).map(key)).toEqual(docsOf(listed).map(key))
      // redacted: the store's own answer, no secret in it
      const redacted = await read(stack, `version=${version}`)
      expect(redacted.statusCode).toBe(200)
      expect(redacted.body).toBe(await storeListing(stack, revision, false))
      expect(redacted.body).not.toContain('PRIVATE KEY')
    }
  })

  it('answers each site-action version\'s own secrets, and needs the cleartext rule at every version', async () => {
    const stack = await buildTestStack({ policy: { 'workflow_orchestrator:get_configdocs': 'role:admin or role:reader' } })
    await stage(stack, 'global', GLOBAL_YAML)
    await stage(stack, 'site', SITE_YAML, '?buffermode=append')
    await commit(stack)
    const created = await stack.app.inject({ method: 'POST', url: '/api/v1.0/actions', headers: { ...AUTH, 'content-type': 'application/json' }, payload: '{"name":"deploy_site"}' })
    expect(created.statusCode).toBe(201)
    const id = String(created.json().id)
    await until('deploy_site to finish', async () =>
      (await stack.app.inject({ url: `/api/v1.0/actions/${id}`, headers: AUTH })).json().action_lifecycle === 'Complete')
    await until('the site-action tag', async () => (await read(stack, 'version=successful_site_action')).statusCode === 200)
    // a new secret committed after the deploy, and another staged
    await stage(stack, 'site', CHANGED_YAML)
    await commit(stack)
    await stage(stack, 'site', CHANGED_YAML.replace('ZXhhbXBsZSBwcml2YXRlIGtleSBrdWJlbGV0LW4w', 'YnVmZmVyIGtleQ=='))

    const secretsAt = async (version: string): Promise<Record<string, unknown>> => {
      const res = await read(stack, `version=${version}&cleartext-secrets=true`)
      expect(res.statusCode, `${version}: ${res.body.slice(0, 300)}`).toBe(200)
      expect(res.body).not.toContain('stub-store://secrets/')
      return secretsOf(res.body)
    }
    expect(await secretsAt('successful_site_action')).toEqual(SECRETS)
    expect(await secretsAt('last_site_action')).toEqual(SECRETS)
    expect(await secretsAt('committed')).toEqual(CHANGED)
    const buffered = await secretsAt('buffer')
    expect(buffered['deckhand/CertificateKey/v1 kubelet-n0']).toBe('-----BEGIN PRIVATE KEY-----\nYnVmZmVyIGtleQ==\n-----END PRIVATE KEY-----\n')
    expect(buffered['deckhand/CertificateKey/v1 admin']).toBe(CHANGED['deckhand/CertificateKey/v1 admin'])

    // a reader may read the documents, redacted, at every version, and never their secrets
    const reader = { 'x-auth-token': TEST_TOKENS.reader }
    for (const version of ['buffer', 'committed', 'last_site_action', 'successful_site_action']) {
      const redacted = await read(stack, `version=${version}`, reader)
      expect(redacted.statusCode).toBe(200)
      expect(redacted.body).not.toContain('PRIVATE KEY')
      const refused = await read(stack, `version=${version}&cleartext-secrets=true`, reader)
      expect(refused.statusCode).toBe(403)
      expect(refused.json()).toMatchObject({ code: '403 Forbidden', status: 'Failure' })
    }
  })

  it('answers a collection without encrypted documents as the store lists it, in cleartext too', async () => {
    const stack = await buildTestStack()
    await stage(stack, 'global', GLOBAL_YAML)
    const clear = await stack.app.inject({ url: '/api/v1.0/configdocs/global?cleartext-secrets=true', headers: AUTH })
    expect(clear.statusCode).toBe(200)
    expect(clear.body).toBe(await (await fetch(`${stack.store.url}/revisions/1/documents?status.bucket=global&cleartext-secrets=true`)).text())
  })
})

describe('secrets that cannot be read in cleartext', () => {
  it('answers 409 saying why when the revision does not render, and the redacted documents still', async () => {
    const stack = await buildTestStack()
    // the site without the global collection's layering policy: the buffer does not render
    await stage(stack, 'site', SITE_YAML)
    const clear = await read(stack, 'cleartext-secrets=true')
    expect(clear.statusCode).toBe(409)
    expect(clear.json()).toMatchObject({
      message: 'Unable to show the secrets in cleartext',
      reason: 'The store cannot render revision 1: Required LayeringPolicy was not found for layering. The secrets of collection site ' +
        'are read from the rendered documents of revision 1; its documents can be read redacted.',
      code: '409 Conflict'
    })
    const redacted = await read(stack, '')
    expect(redacted.statusCode).toBe(200)
    expect(redacted.body).toBe(await storeListing(stack, 1, false))
  })

  it('answers 409 naming an encrypted document that rendering leaves out (an abstract one)', async () => {
    const stack = await buildTestStack()
    await stage(stack, 'global', GLOBAL_YAML)
    const abstract = SITE_YAML.replace(/(name: admin\n {2}layeringDefinition:\n {4}abstract: )false(\n {4}layer: site\n {2}storagePolicy: encrypted)/, '$1true$2')
    expect(abstract).not.toBe(SITE_YAML)
    await stage(stack, 'site', abstract, '?buffermode=append')
    const clear = await read(stack, 'cleartext-secrets=true')
    expect(clear.statusCode).toBe(409)
    expect(clear.json().reason).toMatch(/^The encrypted document deckhand\/CertificateKey\/v1 admin is not among the rendered documents \(an abstract document is never rendered\)\. /)
  })
})
