import { describe, expect, it } from 'vitest'
import { newUlid } from '@slipway/common'
import { AUTH } from '@slipway/common/testing'
import { buildTestStack, GLOBAL_YAML, SITE_YAML } from '../helpers/stack.ts'
import { startPassThrough } from '../helpers/pass-through.ts'

const YAML = { ...AUTH, 'content-type': 'application/x-yaml' }
type Stack = Awaited<ReturnType<typeof buildTestStack>>

async function post (stack: Stack, collection: string, body: string, query = '') {
  return await stack.app.inject({ method: 'POST', url: `/api/v1.0/configdocs/${collection}${query}`, headers: YAML, payload: body })
}

async function commit (stack: Stack, query = '') {
  return await stack.app.inject({ method: 'POST', url: `/api/v1.0/commitconfigdocs${query}`, headers: AUTH })
}

describe('POST /api/v1.0/configdocs/{collection_id}', () => {
  it('answers 201 with the validation status and Location', async () => {
    const stack = await buildTestStack()
    const res = await post(stack, 'global', GLOBAL_YAML)
    expect(res.statusCode).toBe(201)
    expect(res.headers.location).toBe('/api/v1.0/configdocs/global')
    expect(res.json()).toEqual({ kind: 'Status', apiVersion: 'v1.0', metadata: {}, status: 'Success', message: 'Validations succeeded', reason: 'Validation', details: { errorCount: 0, messageList: [] }, code: '201 Created' })
  })

  it('answers 409 when the buffer has contents and no buffermode, or append names a collection already there', async () => {
    const stack = await buildTestStack()
    expect((await post(stack, 'global', GLOBAL_YAML)).statusCode).toBe(201)
    const reject = await post(stack, 'site', SITE_YAML)
    expect(reject.statusCode).toBe(409)
    expect(reject.json()).toMatchObject({ message: 'Invalid collection specified for buffer', reason: 'Buffermode : rejectOnContents', code: '409 Conflict' })
    expect((await post(stack, 'site', SITE_YAML, '?buffermode=append')).statusCode).toBe(201)
    const again = await post(stack, 'site', SITE_YAML.replace('10.0.0.53', '10.0.0.54'), '?buffermode=append')
    expect(again.statusCode).toBe(409)
  })

  it('takes the buffer mode in any letter case, and a refusal names it as it was sent', async () => {
    const stack = await buildTestStack()
    expect((await post(stack, 'global', GLOBAL_YAML)).statusCode).toBe(201)
    const reject = await post(stack, 'site', SITE_YAML, '?buffermode=REJECTonContents')
    expect(reject.statusCode).toBe(409)
    expect(reject.json()).toMatchObject({ message: 'Invalid collection specified for buffer', reason: 'Buffermode : REJECTonContents', code: '409 Conflict' })
    expect((await post(stack, 'site', SITE_YAML, '?buffermode=Append')).statusCode).toBe(201)
    const again = await post(stack, 'site', SITE_YAML.replace('10.0.0.53', '10.0.0.54'), '?buffermode=APPEND')
    expect(again.statusCode).toBe(409)
    expect(again.json()).toMatchObject({ reason: 'Buffermode : APPEND' })
  })

  it('clears the buffer first with buffermode=replace', async () => {
    const stack = await buildTestStack()
    await post(stack, 'global', GLOBAL_YAML)
    expect((await post(stack, 'site', SITE_YAML, '?buffermode=replace')).statusCode).toBe(201)
    const status = await stack.app.inject({ url: '/api/v1.0/configdocs', headers: AUTH })
    expect(status.json().map((c: { collection_name: string }) => c.collection_name)).toEqual(['site'])
  })

  it('gives each of the store\'s messages once, parsed, when it refuses the documents', async () => {
    const stack = await buildTestStack()
    const invalid = await post(stack, 'global', 'a: [unclosed\n')
    expect(invalid.statusCode).toBe(400)
    const syntax = invalid.json()
    expect(syntax.reason).toMatch(/^The request body must be properly formatted YAML/)
    expect(syntax.details.errorList).toHaveLength(1)
    expect(syntax.details.errorList[0]).toMatchObject({ error: true, message: expect.stringMatching(/^The request body must be properly formatted YAML/) })
    expect(invalid.body).not.toContain('apiVersion: v1.0')
    const unsuitable = await post(stack, 'global', '---\nschema: foo\nmetadata: {}\ndata: 1\n')
    const body = unsuitable.json()
    expect(body).toMatchObject({ message: 'Document(s) invalid syntax or otherwise unsuitable', reason: 'The provided documents failed schema validation.' })
    const messages = body.details.errorList.map((entry: { message: string }) => entry.message)
    expect(messages.length).toBeGreaterThan(1)
    expect(new Set(messages).size).toBe(messages.length)
    const complete = (entry: { error: boolean, documents?: unknown }) => entry.error && Array.isArray(entry.documents)
    expect(body.details.errorList.every(complete)).toBe(true)
    expect(unsuitable.body).not.toContain('kind: Status')
  })

  it('hints that YAML is expected when the store refuses a JSON body', async () => {
    const stack = await buildTestStack()
    const res = await stack.app.inject({ method: 'POST', url: '/api/v1.0/configdocs/global', headers: { ...AUTH, 'content-type': 'application/json' }, payload: '{"name": "global", "documents": []}' })
    expect(res.statusCode).toBe(400)
    const hints = res.json().details.messageList.filter((entry: { error: boolean }) => !entry.error)
    expect(hints).toEqual([{ error: false, message: expect.stringContaining('configdocs takes YAML documents') }])
  })

  it('answers 400 when the collection brings no new or changed contents', async () => {
    const stack = await buildTestStack()
    await post(stack, 'global', GLOBAL_YAML)
    expect((await commit(stack)).statusCode).toBe(200)
    const same = await post(stack, 'global', GLOBAL_YAML)
    expect(same.statusCode).toBe(400)
    expect(same.json()).toMatchObject({ message: 'Collection global not added to Shipyard buffer', reason: 'Collection created no new revision' })
  })

  it('accepts empty-collection=true without a body; the buffer version then reads empty', async () => {
    const stack = await buildTestStack()
    await post(stack, 'global', GLOBAL_YAML)
    await commit(stack)
    const res = await stack.app.inject({ method: 'POST', url: '/api/v1.0/configdocs/global?empty-collection=true', headers: AUTH })
    expect(res.statusCode).toBe(201)
    const read = await stack.app.inject({ url: '/api/v1.0/configdocs/global', headers: AUTH })
    expect(read.statusCode).toBe(200)
    expect(read.body).toBe('')
  })
})

describe('GET /api/v1.0/configdocs', () => {
  it('compares committed and buffer by default, and accepts version, versions and repeated versions', async () => {
    const stack = await buildTestStack()
    expect((await stack.app.inject({ url: '/api/v1.0/configdocs', headers: AUTH })).json()).toEqual([])
    await post(stack, 'global', GLOBAL_YAML)
    const expected = [{ collection_name: 'global', base_version: 'committed', base_revision: 0, new_version: 'buffer', new_revision: 1, base_status: 'not present', new_status: 'created' }]
    for (const query of ['', '?version=committed,buffer', '?versions=buffer,committed', '?versions=committed&versions=buffer']) {
      const res = await stack.app.inject({ url: `/api/v1.0/configdocs${query}`, headers: AUTH })
      expect(res.statusCode, query).toBe(200)
      expect(res.json()).toEqual(expected)
    }
  })
})

describe('GET /api/v1.0/configdocs/{collection_id} and /renderedconfigdocs', () => {
  it('answers the buffer and committed documents as YAML, with secrets redacted by default', async () => {
    const stack = await buildTestStack()
    await post(stack, 'global', GLOBAL_YAML)
    await post(stack, 'site', SITE_YAML, '?buffermode=append')
    const buffer = await stack.app.inject({ url: '/api/v1.0/configdocs/site', headers: AUTH })
    expect(buffer.statusCode).toBe(200)
    expect(buffer.headers['content-type']).toMatch(/^application\/x-yaml/)
    expect(buffer.body).toContain('schema: drydock/BaremetalNode/v1')
    expect(buffer.body).not.toContain('PRIVATE KEY')
    const clear = await stack.app.inject({ url: '/api/v1.0/configdocs/site?cleartext-secrets=true', headers: AUTH })
    expect(clear.statusCode).toBe(200)
    expect(clear.body).not.toBe(buffer.body)
    const rendered = await stack.app.inject({ url: '/api/v1.0/renderedconfigdocs', headers: AUTH })
    expect(rendered.body).not.toContain('PRIVATE KEY')
    const renderedClear = await stack.app.inject({ url: '/api/v1.0/renderedconfigdocs?cleartext-secrets=true', headers: AUTH })
    expect(renderedClear.body).toContain('PRIVATE KEY')
  })

  it('renders the buffer, and answers 404 when there is none', async () => {
    const stack = await buildTestStack()
    expect((await stack.app.inject({ url: '/api/v1.0/renderedconfigdocs', headers: AUTH })).statusCode).toBe(404)
    await post(stack, 'global', GLOBAL_YAML)
    await post(stack, 'site', SITE_YAML, '?buffermode=append')
    const res = await stack.app.inject({ url: '/api/v1.0/renderedconfigdocs', headers: AUTH })
    expect(res.statusCode).toBe(200)
    // the site network merged over its abstract global parent; abstract documents left out
    expect(res.body).toContain('10.0.0.53')
    expect(res.body).not.toContain('name: kubernetes-network-global')
  })
})

describe('POST /api/v1.0/commitconfigdocs', () => {
  it('commits when validations pass (200, empty messages) and the buffer empties', async () => {
    const stack = await buildTestStack()
    await post(stack, 'global', GLOBAL_YAML)
    await post(stack, 'site', SITE_YAML, '?buffermode=append')
    const res = await commit(stack)
    expect(res.statusCode).toBe(200)
    expect(res.json()).toMatchObject({ status: 'Success', message: 'Validations succeeded', details: { errorCount: 0 } })
    expect(stack.validator.calls[0]).toMatchObject({ rel: 'design', type: 'application/x-yaml' })
    expect(String((stack.validator.calls[0] as { href: string }).href)).toMatch(/^deckhand\+http:\/\/127\.0\.0\.1:\d+\/api\/v1\.0\/revisions\/2\/rendered-documents$/)
    expect((await stack.app.inject({ url: '/api/v1.0/configdocs/site?version=committed', headers: AUTH })).statusCode).toBe(200)
    const nothing = await commit(stack)
    expect(nothing.statusCode).toBe(409)
    expect(nothing.json()).toMatchObject({ message: 'Unable to commit configuration documents', retry: true })
  })

  it('answers 400 with the aggregation when a validator fails, 200 FORCED SUCCESS with force, 200 DRYRUN with dryrun', async () => {
    const stack = await buildTestStack()
    await post(stack, 'global', GLOBAL_YAML)
    stack.validatorMode.current = 'fail'
    const dry = await commit(stack, '?dryrun=true')
    expect(dry.statusCode).toBe(200)
    expect(dry.json()).toMatchObject({ message: 'Validations failed DRYRUN', code: '200 OK' })
    const failed = await commit(stack)
    expect(failed.statusCode).toBe(400)
    expect(failed.json()).toMatchObject({ kind: 'Status', status: 'Failure', message: 'Validations failed', reason: 'Validation', code: '400 Bad Request', details: { errorCount: 1 } })
    expect(failed.json().details.messageList[0]).toMatchObject({ name: 'Promenade', error: true, source: 'Promenade' })
    expect((await stack.app.inject({ url: '/api/v1.0/configdocs/global?version=committed', headers: AUTH })).statusCode).toBe(404)
    const forced = await commit(stack, '?force=true')
    expect(forced.statusCode).toBe(200)
    expect(forced.json()).toMatchObject({ message: 'Validations failed FORCED SUCCESS', code: '200 OK' })
    expect((await stack.app.inject({ url: '/api/v1.0/configdocs/global?version=committed', headers: AUTH })).statusCode).toBe(200)
  })

  it.each(['down', 'garbage', 'slow'] as const)('turns a validator that is %s into an error entry naming it, never a 500', async (mode) => {
    const stack = await buildTestStack({ validatorTimeoutMs: 300 })
    await post(stack, 'global', GLOBAL_YAML)
    stack.validatorMode.current = mode
    const res = await commit(stack)
    expect(res.statusCode).toBe(400)
    expect(res.json().details.messageList[0]).toMatchObject({ name: 'Promenade', error: true, message: 'Promenade unable to validate configdocs or an invalid response has been returned' })
  })

  it('releases the lock when the store fails in the middle of a commit', async () => {
    const stack = await buildTestStack()
    await post(stack, 'global', GLOBAL_YAML)
    await stack.store.close()
    const res = await commit(stack)
    expect(res.statusCode).toBeGreaterThanOrEqual(500)
    expect(res.json()).toMatchObject({ message: 'Downstream failure: store' })
    const taken = await stack.repos.locks.acquire({ id: newUlid(), lock_type: 'configdocs_update', user: 'next', reference_id: 'y', leaseS: 60, now: new Date() })
    expect(taken).toBeDefined()
  })

  it('takes over a lock whose holder died once its lease has expired', async () => {
    const stack = await buildTestStack({ leaseS: 1 })
    await stack.repos.locks.acquire({ id: newUlid(), lock_type: 'configdocs_update', user: 'dead', reference_id: 'z', leaseS: 1, now: new Date(Date.now() - 5000) })
    await post(stack, 'global', GLOBAL_YAML)
    expect((await commit(stack)).statusCode).toBe(200)
  })

  it('lets exactly one of concurrent commits proceed; the others get 409', async () => {
    const stack = await buildTestStack()
    await post(stack, 'global', GLOBAL_YAML)
    const answers = await Promise.all(Array.from({ length: 8 }, async () => await commit(stack)))
    const codes = answers.map((a) => a.statusCode).sort()
    expect(codes.filter((c) => c === 200)).toHaveLength(1)
    expect(codes.filter((c) => c === 409)).toHaveLength(7)
  })
})

describe('a store that fails while rendering', () => {
  it('makes the commit a 400 carrying the store\'s answer as a validation error, and nothing is committed', async () => {
    let failRender = false
    const stack = await buildTestStack({
      wrap: async (component, url) => {
        if (component !== 'store') return url
        // a pass-through in front of the store that answers 500 for rendered documents on demand
        const proxy = await startPassThrough(new URL(url).origin, (path) =>
          failRender && path.includes('/rendered-documents') ? { status: 500, text: 'render crashed: KeyError substitution source' } : undefined)
        return `${proxy.url}${new URL(url).pathname}`
      }
    })
    expect((await post(stack, 'global', GLOBAL_YAML)).statusCode).toBe(201)
    failRender = true
    const res = await commit(stack)
    expect(res.statusCode).toBe(400)
    expect(res.json()).toMatchObject({ status: 'Failure', message: 'Validations failed', details: { errorCount: 1 } })
    expect(res.json().details.messageList[0]).toMatchObject({ name: 'Deckhand', error: true, source: 'Deckhand' })
    expect(res.json().details.messageList[0].message).toContain('render crashed')
    failRender = false
    const status = (await stack.app.inject({ url: '/api/v1.0/configdocs', headers: AUTH })).json() as Array<{ new_status: string }>
    expect(status.map((c) => c.new_status)).toEqual(['created'])
  })
})
