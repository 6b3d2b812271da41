// Transport and the error body: versions and health, content types, request ids and context echo,
// authentication and policy, error bodies for unknown routes and methods, body limits, bad YAML.
import { describe, expect, it } from 'vitest'
import { bodyOf, buildTestApp, del, docsOf, expectError, get, post, put } from './helpers/app.ts'

const WIDGET = `schema: acme/Widget/v1
metadata:
  schema: metadata/Document/v1
  name: w
  storagePolicy: cleartext
  layeringDefinition: {layer: site}
data: {a: 1}
`

describe('GET /versions and /api/v1.0/health', () => {
  it('answers the versions document without a token even when tokens are required', async () => {
    const app = await buildTestApp({ STORE_AUTH_TOKENS: 'secret' })
    const res = await app.inject({ url: '/versions' })
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toBe('application/x-yaml')
    expect(bodyOf(res)).toEqual({ 'v1.0': { path: '/api/v1.0', status: 'stable' } })
  })

  it('answers health with 204 and no body', async () => {
    const app = await buildTestApp({ STORE_AUTH_TOKENS: 'secret' })
    const res = await get(app, '/health')
    expect(res.statusCode).toBe(204)
    expect(res.body).toBe('')
    expect(res.headers['content-type']).toBeUndefined()
  })
})

describe('request ids and context', () => {
  it('adds X-Deckhand-Req and echoes X-Context-Marker and X-End-User', async () => {
    const app = await buildTestApp()
    const res = await get(app, '/revisions', { 'x-context-marker': 'marker-1', 'x-end-user': 'alice' })
    expect(res.statusCode).toBe(200)
    expect(res.headers['x-deckhand-req']).toMatch(/^req-[0-9a-f-]{36}$/)
    expect(res.headers['x-context-marker']).toBe('marker-1')
    expect(res.headers['x-end-user']).toBe('alice')
  })

  it('ignores a content type sent on GET and DELETE (the orchestrator sends one)', async () => {
    const app = await buildTestApp()
    expect((await get(app, '/revisions', { 'content-type': 'application/x-yaml' })).statusCode).toBe(200)
    expect((await del(app, '/revisions', { 'content-type': 'text/plain' })).statusCode).toBe(204)
  })
})

describe('authentication and policy', () => {
  it('accepts any caller when no tokens are configured, with or without a token', async () => {
    const app = await buildTestApp()
    expect((await get(app, '/revisions')).statusCode).toBe(200)
    expect((await get(app, '/revisions', { 'x-auth-token': 'anything' })).statusCode).toBe(200)
  })

  it('answers 401 with the error body without a token or with an unknown one', async () => {
    const app = await buildTestApp({ STORE_AUTH_TOKENS: 'good,other' })
    const body = expectError(await get(app, '/revisions'), 401, 'HTTPUnauthorized')
    expect(body.code).toBe('401 Unauthorized')
    expectError(await get(app, '/revisions', { 'x-auth-token': 'bad' }), 401, 'HTTPUnauthorized')
    expect((await get(app, '/revisions', { 'x-auth-token': 'other' })).statusCode).toBe(200)
  })

  it('answers 403 when the token lacks the role a rule needs', async () => {
    const app = await buildTestApp({ STORE_AUTH_TOKENS: 'admin,viewer:reader' })
    const body = expectError(await put(app, 'b', WIDGET, { 'x-auth-token': 'viewer' }), 403, 'HTTPForbidden')
    expect(body.message).toContain('deckhand:create_cleartext_documents')
    expect((await put(app, 'b', WIDGET, { 'x-auth-token': 'admin' })).statusCode).toBe(200)
  })
})

describe('unknown routes and methods', () => {
  it('answers 404 with the error body naming the path', async () => {
    const app = await buildTestApp()
    const body = expectError(await get(app, '/nothing/here'), 404, 'HTTPNotFound')
    expect(body.message).toContain('/api/v1.0/nothing/here')
  })

  it('answers 405 with Allow for a known path', async () => {
    const app = await buildTestApp()
    const res = await app.inject({ method: 'PATCH', url: '/api/v1.0/revisions' })
    const body = expectError(res, 405, 'HTTPMethodNotAllowed')
    expect(res.headers.allow).toBe('GET, DELETE')
    expect(body.message).toContain('PATCH')
  })
})

describe('request bodies', () => {
  it('answers 415 for another content type, naming it', async () => {
    const app = await buildTestApp()
    const res = await app.inject({ method: 'PUT', url: '/api/v1.0/buckets/b/documents', headers: { 'content-type': 'application/json' }, payload: '{}' })
    const body = expectError(res, 415, 'HTTPUnsupportedMediaType')
    expect(body.message).toBe("Unexpected content type: application/json. Expected content types are: ['application/x-yaml'].")
  })

  it('accepts parameters after the media type', async () => {
    const app = await buildTestApp()
    const res = await app.inject({ method: 'PUT', url: '/api/v1.0/buckets/b/documents', headers: { 'content-type': 'application/x-yaml; charset=utf-8' }, payload: WIDGET })
    expect(res.statusCode).toBe(200)
  })

  it('answers 400 HTTPMissingHeader for a body without a content type', async () => {
    const app = await buildTestApp()
    const res = await app.inject({ method: 'PUT', url: '/api/v1.0/buckets/b/documents', payload: Buffer.from(WIDGET) })
    const body = expectError(res, 400, 'HTTPMissingHeader')
    expect(body.message).toBe('The "Content-Type" header is required.')
  })

  it('needs no content type for a POST without a body', async () => {
    const app = await buildTestApp()
    await put(app, 'b', WIDGET)
    const res = await post(app, '/revisions/1/tags/t')
    expect(res.statusCode).toBe(201)
  })

  it('answers 413 with the error body when the body is over the limit', async () => {
    const app = await buildTestApp({ STORE_BODY_LIMIT_BYTES: '1000' })
    const big = WIDGET + `  filler: "${'x'.repeat(2000)}"\n`
    expectError(await put(app, 'b', big), 413, 'HTTPRequestEntityTooLarge')
    expect(bodyOf(await get(app, '/revisions')).count).toBe(0)
  })

  it('answers 400 for malformed YAML and stores nothing', async () => {
    const app = await buildTestApp()
    const body = expectError(await put(app, 'b', 'schema: [unclosed\n'), 400, 'HTTPBadRequest')
    expect(body.message).toMatch(/^The request body must be properly formatted YAML\. Details: /)
    expect(bodyOf(await get(app, '/revisions')).count).toBe(0)
  })

  it('answers 400 for an alias bomb, quickly', async () => {
    const app = await buildTestApp()
    const lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    const names = 'abcdefghij'
    for (let i = 1; i < names.length; i++) lines.push(`${names[i]}: &${names[i]} [${Array(9).fill(`*${names[i - 1]}`).join(',')}]`)
    const started = Date.now()
    const res = await put(app, 'b', lines.join('\n') + '\n')
    expect(Date.now() - started).toBeLessThan(2000)
    const body = expectError(res, 400, 'HTTPBadRequest')
    expect(body.message).toContain('alias')
  })

  it('answers 400 listing the 1-based positions of entries that are not non-empty mappings', async () => {
    const app = await buildTestApp()
    const res = await put(app, 'b', `${WIDGET}---\n- a list\n---\n${WIDGET.replace('name: w', 'name: w2')}---\n{}\n`)
    const body = expectError(res, 400, 'HTTPBadRequest')
    expect(body.message).toBe('Expected a list of valid objects. Invalid entries found at following indexes: 2,4.')
  })

  it('rejects a stream ending in a bare --- but accepts one ending in ...', async () => {
    const app = await buildTestApp()
    const bad = expectError(await put(app, 'b', `${WIDGET}---\n`), 400, 'HTTPBadRequest')
    expect(bad.message).toContain('indexes: 2.')
    expect((await put(app, 'b', `${WIDGET}...\n`)).statusCode).toBe(200)
  })
})

describe('YAML 1.1 values', () => {
  it('reads on, 0777, 1:20, 1_000 and dates the PyYAML way and writes them back so they read the same', async () => {
    const app = await buildTestApp()
    const res = await put(app, 'b', `schema: acme/Widget/v1
metadata:
  schema: metadata/Document/v1
  name: w
  storagePolicy: cleartext
  layeringDefinition: {layer: site}
data:
  enabled: on
  disabled: Off
  quoted: "on"
  yes_word: 'yes'
  letter: y
  mode: 0777
  sexagesimal: 1:20
  thousand: 1_000
  day: 2026-05-01
  stamp: 2026-05-01T10:00:00.5Z
  dot: .
  exp_string: 1e5
  float: 1.5e+3
  leading_zero: "09"
  inf: .inf
  anchored: &shared {k: v}
  alias: *shared
  multiline: "line one\\nline two\\n"
`)
    expect(res.statusCode).toBe(200)
    const listed = docsOf(await get(app, '/revisions/1/documents'))[0]
    expect(listed.data).toEqual({
      enabled: true,
      disabled: false,
      quoted: 'on',
      yes_word: 'yes',
      letter: 'y',
      mode: 511,
      sexagesimal: 80,
      thousand: 1000,
      day: new Date('2026-05-01T00:00:00Z'),
      stamp: new Date('2026-05-01T10:00:00.500Z'),
      dot: '.',
      exp_string: '1e5',
      float: 1500,
      leading_zero: '09',
      inf: Infinity,
      anchored: { k: 'v' },
      alias: { k: 'v' },
      multiline: 'line one\nline two\n'
    })
    // strings that YAML 1.1 would otherwise read as booleans stay quoted on the wire
    expect(res.body).toContain("quoted: 'on'")
    expect(res.body).toContain("letter: 'y'")
    expect(res.body).toContain('day: 2026-05-01\n')
  })

  it('keeps floats with whole-number values floats: 1.0 and 1.0e+3 come back as 1.0 and 1000.0', async () => {
    const app = await buildTestApp()
    const res = await put(app, 'b', `schema: acme/Widget/v1
metadata:
  schema: metadata/Document/v1
  name: w
  labels: {version: 2.0}
  storagePolicy: cleartext
  layeringDefinition: {layer: site}
data:
  one: 1.0
  thousand: 1.0e+3
  int: 1
  half: 0.5
  big: 1.0e+20
  list: [1.0, 2]
`)
    expect(res.statusCode).toBe(200)
    const listed = await get(app, '/revisions/1/documents')
    expect(listed.statusCode).toBe(200)
    for (const body of [res.body, listed.body]) {
      expect(body).toContain('data:\n  one: 1.0\n  thousand: 1000.0\n  int: 1\n  half: 0.5\n  big: 1.0e+20\n  list:\n  - 1.0\n  - 2\n')
      expect(body).toContain('version: 2.0\n')
    }
    expect(docsOf(listed)[0].metadata.labels).toEqual({ version: 2 })
  })

  it('keeps revision timestamps strings for a YAML 1.1 reader', async () => {
    const app = await buildTestApp()
    await put(app, 'b', WIDGET)
    const res = await get(app, '/revisions')
    expect(typeof bodyOf(res).results[0].createdAt).toBe('string')
    expect(bodyOf(res).results[0].createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}$/)
  })
})

describe('headers on responses', () => {
  it('sends YAML for lists and an empty body for an empty list', async () => {
    const app = await buildTestApp()
    await put(app, 'b', WIDGET)
    await put(app, 'b', '')
    const res = await get(app, '/revisions/2/documents')
    expect(res.statusCode).toBe(200)
    expect(res.body).toBe('')
    expect(res.headers['content-type']).toBe('application/x-yaml')
  })
})
