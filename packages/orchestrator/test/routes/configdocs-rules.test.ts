// The configdocs routes' own rules — input checks, policy, the lock, error bodies — on the real app over in-memory
// components (helpers/test-app.ts). What the store does with documents is tested on the real stand-ins.
import { describe, expect, it } from 'vitest'
import { newUlid } from '@slipway/common'
import { AUTH, TEST_TOKENS } from '@slipway/common/testing'
import { buildTestApp, type TestApp } from '../helpers/test-app.ts'
import { GLOBAL_YAML, SITE_YAML } from '../helpers/example-site.ts'

const YAML = { ...AUTH, 'content-type': 'application/x-yaml' }

async function post (t: TestApp, collection: string, body: string, query = '') {
  return await t.app.inject({ method: 'POST', url: `/api/v1.0/configdocs/${collection}${query}`, headers: YAML, payload: body })
}

describe('POST /api/v1.0/configdocs/{collection_id}', () => {
  it('answers 400 without a body or Content-Length, for a bad buffermode, for invalid documents and for a bad name', async () => {
    const t = await buildTestApp()
    const empty = await t.app.inject({ method: 'POST', url: '/api/v1.0/configdocs/global', headers: YAML })
    expect(empty.statusCode).toBe(400)
    expect(empty.json()).toMatchObject({ message: 'Content-Length is a required header', reason: 'Content Length is 0 or not specified' })
    expect((await post(t, 'global', GLOBAL_YAML, '?buffermode=sideways')).json()).toMatchObject({ message: 'Invalid buffermode' })
    const invalid = await post(t, 'global', 'a: [unclosed\n')
    expect(invalid.statusCode).toBe(400)
    expect(invalid.json()).toMatchObject({ message: 'Document(s) invalid syntax or otherwise unsuitable' })
    for (const name of ['..', 'a%2Fb', '%2E%2E%2Fetc', 'x'.repeat(200)]) {
      const res = await post(t, name, GLOBAL_YAML)
      expect([400, 404], name).toContain(res.statusCode)
      expect(res.json().status).toBe('Failure')
    }
    expect(t.store.revisions).toEqual([])
  })

  it('answers 400 naming the problem when the body holds no documents, and writes nothing', async () => {
    const t = await buildTestApp()
    // what `curl -d @global.yaml` sends: the file's newlines stripped, its first comment swallowing the rest
    const flattened = GLOBAL_YAML.replace(/\n/g, '')
    for (const body of [flattened.startsWith('#') ? flattened : `# ${flattened}`, '---\n# nothing here\n...\n', '\n\n']) {
      const res = await post(t, 'global', body)
      expect(res.statusCode).toBe(400)
      expect(res.json()).toMatchObject({ message: 'No documents in the body', reason: 'The body holds only comments, blank lines or document markers' })
      expect(res.json().details.errorList[0].message).toContain('--data-binary')
    }
    expect((await t.app.inject({ url: '/api/v1.0/configdocs', headers: AUTH })).json()).toEqual([])
    expect(t.store.revisions).toEqual([])
  })

  it('answers 409 while a commit is in progress (the lock is held)', async () => {
    const t = await buildTestApp()
    await t.repos.locks.acquire({ id: newUlid(), lock_type: 'configdocs_update', user: 'other', reference_id: 'x', leaseS: 60, now: new Date() })
    const res = await post(t, 'global', GLOBAL_YAML)
    expect(res.statusCode).toBe(409)
    expect(res.json()).toMatchObject({ message: 'Blocked by another process', code: '409 Conflict' })
    expect(t.store.revisions).toEqual([])
  })

  it('answers 413 over the body limit and 401 without a token; reads a body of any content type as YAML', async () => {
    const t = await buildTestApp()
    expect((await post(t, 'big', 'a: ' + 'x'.repeat(300 * 1024))).statusCode).toBe(413)
    // curl --data-binary sends application/x-www-form-urlencoded unless told otherwise
    const form = await t.app.inject({ method: 'POST', url: '/api/v1.0/configdocs/global', headers: { ...AUTH, 'content-type': 'application/x-www-form-urlencoded' }, payload: GLOBAL_YAML })
    expect(form.statusCode).toBe(201)
    const untyped = await t.app.inject({ method: 'POST', url: '/api/v1.0/configdocs/site?buffermode=append', headers: AUTH, payload: SITE_YAML })
    expect(untyped.statusCode).toBe(201)
    const anonymous = await t.app.inject({ method: 'POST', url: '/api/v1.0/configdocs/global', payload: 'a: 1' })
    expect(anonymous.statusCode).toBe(401)
    expect(anonymous.json()).toMatchObject({ status: 'Failure', code: '401 Unauthorized' })
  })
})

describe('GET /api/v1.0/configdocs', () => {
  it.each([
    ['?version=committed', 'Incorrect number of versions for comparison'],
    ['?version=buffer,buffer', 'Versions must be different for comparison'],
    ['?version=committed,nightly', 'Invalid version detected']
  ])('answers 400 for %s', async (query, message) => {
    const t = await buildTestApp()
    const res = await t.app.inject({ url: `/api/v1.0/configdocs${query}`, headers: AUTH })
    expect(res.statusCode).toBe(400)
    expect(res.json()).toMatchObject({ message })
  })

  it('answers 404 for a site-action version that does not exist yet', async () => {
    const t = await buildTestApp()
    const res = await t.app.inject({ url: '/api/v1.0/configdocs?version=committed,last_site_action', headers: AUTH })
    expect(res.statusCode).toBe(404)
    expect(res.json()).toMatchObject({ message: 'Version does not exist', reason: 'last_site_action version does not exist' })
  })
})

describe('GET /api/v1.0/configdocs/{collection_id} and /renderedconfigdocs', () => {
  it('answers 404 for a collection not in the buffer or never committed, and 400 for an unknown version', async () => {
    const t = await buildTestApp()
    const missing = await t.app.inject({ url: '/api/v1.0/configdocs/site', headers: AUTH })
    expect(missing.statusCode).toBe(404)
    expect(missing.json()).toMatchObject({ message: 'No documents to retrieve' })
    expect((await t.app.inject({ url: '/api/v1.0/configdocs/site?version=committed', headers: AUTH })).statusCode).toBe(404)
    const bad = await t.app.inject({ url: '/api/v1.0/configdocs/site?version=tomorrow', headers: AUTH })
    expect(bad.statusCode).toBe(400)
    expect(bad.json()).toMatchObject({ message: 'Invalid version query parameter specified' })
    expect((await t.app.inject({ url: '/api/v1.0/configdocs/site?cleartext-secrets=maybe', headers: AUTH })).statusCode).toBe(400)
  })

  it('guards cleartext secrets with their own rule', async () => {
    const t = await buildTestApp({ policy: { 'workflow_orchestrator:get_configdocs': 'role:reader', 'workflow_orchestrator:get_renderedconfigdocs': 'role:reader' } })
    await post(t, 'site', SITE_YAML)
    const reader = { 'x-auth-token': TEST_TOKENS.reader }
    const plain = await t.app.inject({ url: '/api/v1.0/configdocs/site', headers: reader })
    expect(plain.statusCode).toBe(200)
    expect(plain.body).toContain('schema: drydock/BaremetalNode/v1')
    const refused = await t.app.inject({ url: '/api/v1.0/configdocs/site?cleartext-secrets=true', headers: reader })
    expect(refused.statusCode).toBe(403)
    expect(refused.json()).toMatchObject({ status: 'Failure', code: '403 Forbidden' })
    expect((await t.app.inject({ url: '/api/v1.0/renderedconfigdocs?cleartext-secrets=true', headers: reader })).statusCode).toBe(403)
  })
})
