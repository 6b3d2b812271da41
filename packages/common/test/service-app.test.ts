import { Type } from 'typebox'
import { connect } from 'node:net'
import type { InjectOptions } from 'fastify'
import { describe, expect, it, onTestFinished } from 'vitest'
import { createServiceApp, acceptTextBodies } from '../src/fastify/service-app.ts'
import { apiIndexRoutes, healthRoutes, versionsRoutes } from '../src/fastify/routes.ts'
import { createPolicy } from '../src/auth/policy.ts'
import { ConflictError, DownstreamError, ServiceUnavailableError } from '../src/errors.ts'
import type { Authenticator } from '../src/auth/identity.ts'
import { AUTH, TEST_AUTH_URI, TEST_TOKENS, testAuthenticator } from '../src/testing/index.ts'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

async function buildTestApp (options: { authenticator?: Authenticator } = {}) {
  const app = createServiceApp({
    service: 'test',
    logger: false,
    bodyLimitBytes: 256,
    authenticator: options.authenticator ?? testAuthenticator(),
    policy: createPolicy({ admin_required: 'role:admin', 'svc:get': 'rule:admin_required', 'svc:secret': 'role:auditor', 'svc:broken': 'rule:admin_required', 'svc:open': '@', 'svc:not-admin': 'not role:admin', 'svc:anyone': 'role:anyone' })
  })
  await app.register(healthRoutes, { prefix: '/api/v1.0' })
  await app.register(apiIndexRoutes, { prefix: '/api/v1.0', service: 'test' })
  await app.register(versionsRoutes)
  acceptTextBodies(app, ['application/x-yaml'])
  app.get('/api/v1.0/things/:id', {
    config: { policy: 'svc:get' },
    schema: { params: Type.Object({ id: Type.String({ pattern: '^[0-9]+$' }) }), querystring: Type.Object({ verbosity: Type.Optional(Type.Integer({ minimum: 0, maximum: 5 })) }) }
  }, async (request) => {
    if (request.params.id === '409') throw new ConflictError('Unable to pause action', 'The run is failed')
    if (request.params.id === '503') throw new DownstreamError('store', 'connection refused', { failure: 'unreachable' })
    if (request.params.id === '500') throw new Error('database password is hunter2')
    return { id: request.params.id, user: request.ctx.user, marker: request.ctx.contextMarker }
  })
  app.get('/api/v1.0/secret', { config: { policy: 'svc:get' } }, async (request) => {
    request.ctx.authorize('svc:secret')
    return { ok: true }
  })
  app.get('/api/v1.0/teapot', { config: { policy: 'svc:get' } }, async () => { throw Object.assign(new Error('short and stout'), { statusCode: 418 }) })
  app.get('/api/v1.0/anyone', { config: { policy: 'svc:anyone' } }, async () => ({ ok: true }))
  app.get('/api/v1.0/open', { config: { policy: 'svc:open' } }, async () => ({ ok: true }))
  app.get('/api/v1.0/not-admin', { config: { policy: 'svc:not-admin' } }, async () => ({ ok: true }))
  app.get('/api/v1.0/misconfigured', { config: { policy: 'svc:unregistered' } }, async () => ({ ok: true }))
  app.post('/api/v1.0/things', { config: { policy: 'svc:get' } }, async (request) => ({ got: request.body }))
  onTestFinished(async () => { await app.close() })
  return app
}

describe('request context', () => {
  it('puts a fresh UUID in x-service-req on every response, errors and health included', async () => {
    const app = await buildTestApp()
    for (const url of ['/api/v1.0/health', '/api/v1.0/things/1', '/nowhere', '/api/v1.0/things/500']) {
      const res = await app.inject({ url, headers: AUTH })
      expect(res.headers['x-service-req'], url).toMatch(UUID)
    }
  })
  it('accepts a UUID context marker and echoes it; replaces anything else with the request id', async () => {
    const app = await buildTestApp()
    const marker = '123e4567-e89b-12d3-a456-426614174000'
    const ok = await app.inject({ url: '/api/v1.0/things/1', headers: { ...AUTH, 'x-context-marker': marker } })
    expect(ok.json().marker).toBe(marker)
    expect(ok.headers['x-context-marker']).toBe(marker)
    const bad = await app.inject({ url: '/api/v1.0/things/1', headers: { ...AUTH, 'x-context-marker': 'DROP TABLE' } })
    expect(bad.json().marker).toBe(bad.headers['x-service-req'])
  })
  it('takes the user from the token', async () => {
    const app = await buildTestApp()
    const res = await app.inject({ url: '/api/v1.0/things/1', headers: { ...AUTH, 'x-end-user': 'mallory' } })
    expect(res.json().user).toBe('admin')
  })
})

describe('authentication and policy', () => {
  const unauthenticated = {
    status: 'Failure',
    message: 'Unauthenticated',
    reason: 'Credentials are not established',
    code: '401 Unauthorized',
    details: { errorCount: 1, errorType: 'ApiError' }
  }
  it('answers 401 with WWW-Authenticate when the token is missing', async () => {
    const app = await buildTestApp()
    const res = await app.inject({ url: '/api/v1.0/things/1' })
    expect(res.statusCode).toBe(401)
    expect(res.headers['www-authenticate']).toBe(`Keystone uri="${TEST_AUTH_URI}"`)
    expect(res.json()).toMatchObject(unauthenticated)
  })
  it('answers 401 for an unknown token and for an expired one', async () => {
    const app = await buildTestApp()
    for (const token of ['nope', TEST_TOKENS.expired]) {
      const res = await app.inject({ url: '/api/v1.0/things/1', headers: { 'x-auth-token': token } })
      expect(res.statusCode).toBe(401)
      expect(res.json()).toMatchObject(unauthenticated)
    }
  })
  it('checks the token before parsing input: a bad parameter without a token is a 401', async () => {
    const app = await buildTestApp()
    const res = await app.inject({ url: '/api/v1.0/things/abc?verbosity=9' })
    expect(res.statusCode).toBe(401)
  })
  it('answers 401 without a valid token even where a permissive rule (@, not role:x) would let anyone in', async () => {
    const app = await buildTestApp()
    for (const url of ['/api/v1.0/open', '/api/v1.0/not-admin']) {
      for (const headers of [{}, { 'x-auth-token': 'not-a-token' }, { 'x-auth-token': TEST_TOKENS.expired }]) {
        const res = await app.inject({ url, headers })
        expect(res.statusCode, `${url} ${JSON.stringify(headers)}`).toBe(401)
        expect(res.headers['www-authenticate']).toBe(`Keystone uri="${TEST_AUTH_URI}"`)
      }
    }
    expect((await app.inject({ url: '/api/v1.0/open', headers: { 'x-auth-token': TEST_TOKENS.reader } })).statusCode).toBe(200)
    expect((await app.inject({ url: '/api/v1.0/not-admin', headers: { 'x-auth-token': TEST_TOKENS.reader } })).statusCode).toBe(200)
    expect((await app.inject({ url: '/api/v1.0/not-admin', headers: AUTH })).statusCode).toBe(403)
  })

  it('gives every authenticated caller the role anyone, as Shipyard does', async () => {
    const app = await buildTestApp()
    expect((await app.inject({ url: '/api/v1.0/anyone', headers: { 'x-auth-token': TEST_TOKENS.reader } })).statusCode).toBe(200)
    expect((await app.inject({ url: '/api/v1.0/anyone' })).statusCode).toBe(401)
  })

  it('answers 403 when the rule denies a valid token', async () => {
    const app = await buildTestApp()
    const res = await app.inject({ url: '/api/v1.0/things/1', headers: { 'x-auth-token': TEST_TOKENS.reader } })
    expect(res.statusCode).toBe(403)
    expect(res.json()).toMatchObject({ message: 'Forbidden', reason: 'Credentials do not permit access', code: '403 Forbidden' })
  })
  it('applies extra rules checked inside a handler', async () => {
    const app = await buildTestApp()
    const res = await app.inject({ url: '/api/v1.0/secret', headers: AUTH })
    expect(res.statusCode).toBe(403)
  })
  it('answers 500 (not 403) when a route names a rule that does not exist', async () => {
    const app = await buildTestApp()
    const res = await app.inject({ url: '/api/v1.0/misconfigured', headers: AUTH })
    expect(res.statusCode).toBe(500)
    expect(res.json()).toMatchObject({ message: 'Policy check failed', code: '500 Internal Server Error' })
  })
  it('answers 503 when the identity service is down', async () => {
    const down: Authenticator = { wwwAuthenticate: 'x', authenticate: async () => { throw new ServiceUnavailableError('Identity service unavailable', 'connection refused') } }
    const app = await buildTestApp({ authenticator: down })
    const res = await app.inject({ url: '/api/v1.0/things/1', headers: AUTH })
    expect(res.statusCode).toBe(503)
    expect(res.json()).toMatchObject({ message: 'Identity service unavailable', code: '503 Service Unavailable', retry: true })
  })
  it('serves health and versions without a token', async () => {
    const app = await buildTestApp()
    const health = await app.inject({ url: '/api/v1.0/health' })
    expect(health.statusCode).toBe(204)
    expect(health.body).toBe('')
    const versions = await app.inject({ url: '/versions' })
    expect(versions.json()).toEqual({ 'v1.0': { path: '/api/v1.0', status: 'stable' } })
  })
  it('ends every JSON answer, errors included, with a newline', async () => {
    const app = await buildTestApp()
    for (const url of ['/versions', '/api/v1.0', '/api/v1.0/things/1', '/api/v1.0/nope']) {
      const res = await app.inject({ url, headers: AUTH })
      expect(res.headers['content-type'], url).toMatch(/^application\/json/)
      expect(res.body.endsWith('}\n'), url).toBe(true)
      expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(res.body))
    }
  })
  it('answers the API root without a token: the service, its versions and every route under the root', async () => {
    const app = await buildTestApp()
    for (const url of ['/api/v1.0', '/api/v1.0/']) {
      const res = await app.inject({ url })
      expect(res.statusCode, url).toBe(200)
      const index = res.json()
      expect(index).toMatchObject({ service: 'test', versions: { 'v1.0': { path: '/api/v1.0', status: 'stable' } } })
      expect(index.routes).toEqual(expect.arrayContaining(['GET /api/v1.0/health (no token)', 'GET /api/v1.0/things/:id', 'POST /api/v1.0/things']))
      expect(index.routes).not.toContain('GET /versions (no token)')
    }
  })
})

describe('error rendering', () => {
  it('renders our errors with their status and body', async () => {
    const app = await buildTestApp()
    const res = await app.inject({ url: '/api/v1.0/things/409', headers: AUTH })
    expect(res.statusCode).toBe(409)
    expect(res.headers['content-type']).toMatch(/^application\/json/)
    expect(res.json()).toEqual({
      apiVersion: 'v1.0',
      status: 'Failure',
      kind: 'status',
      metadata: {},
      message: 'Unable to pause action',
      reason: 'The run is failed',
      code: '409 Conflict',
      details: {
        errorCount: 1,
        errorList: [{ message: 'The run is failed', error: true }],
        messageList: [{ message: 'The run is failed', error: true }],
        errorType: 'ApiError'
      },
      retry: false
    })
  })
  it('names the downstream component in a 5xx', async () => {
    const app = await buildTestApp()
    const res = await app.inject({ url: '/api/v1.0/things/503', headers: AUTH })
    expect(res.statusCode).toBe(503)
    expect(res.json()).toMatchObject({ message: 'Downstream failure: store', reason: 'connection refused' })
  })
  it('answers schema failures with 400', async () => {
    const app = await buildTestApp()
    const res = await app.inject({ url: '/api/v1.0/things/1?verbosity=6', headers: AUTH })
    expect(res.statusCode).toBe(400)
    expect(res.json()).toMatchObject({ message: 'Invalid querystring', code: '400 Bad Request', details: { errorType: 'InvalidFormatError' } })
  })
  it('answers an unknown route with 404', async () => {
    const app = await buildTestApp()
    const res = await app.inject({ url: '/api/v1.0/nothing/here' })
    expect(res.statusCode).toBe(404)
    expect(res.json()).toMatchObject({ code: '404 Not Found', details: { errorType: 'HTTPRouteNotFound' } })
  })
  it('answers a wrong method with 405 and Allow, and OPTIONS with 200 and Allow', async () => {
    const app = await buildTestApp()
    const wrong = await app.inject({ method: 'DELETE', url: '/api/v1.0/things/1', headers: AUTH })
    expect(wrong.statusCode).toBe(405)
    expect(wrong.headers.allow).toBe('GET, OPTIONS')
    expect(wrong.json()).toMatchObject({ code: '405 Method Not Allowed' })
    const options = await app.inject({ method: 'OPTIONS', url: '/api/v1.0/things/1' })
    expect(options.statusCode).toBe(200)
    expect(options.headers.allow).toBe('GET, OPTIONS')
  })
  it('answers a body over the limit with 413', async () => {
    const app = await buildTestApp()
    const res = await app.inject({ method: 'POST', url: '/api/v1.0/things', headers: { ...AUTH, 'content-type': 'application/json' }, payload: JSON.stringify({ a: 'x'.repeat(300) }) })
    expect(res.statusCode).toBe(413)
    expect(res.json()).toMatchObject({ code: '413 Payload Too Large', reason: 'The request body exceeds the limit of 256 bytes' })
  })
  it('answers an unsupported content type with 415', async () => {
    const app = await buildTestApp()
    const res = await app.inject({ method: 'POST', url: '/api/v1.0/things', headers: { ...AUTH, 'content-type': 'text/csv' }, payload: 'a,b' })
    expect(res.statusCode).toBe(415)
    expect(res.json()).toMatchObject({ code: '415 Unsupported Media Type' })
    expect(res.json().reason).toContain('text/csv')
  })
  it('answers malformed JSON and an empty JSON body with 400', async () => {
    const app = await buildTestApp()
    for (const payload of ['{"a":', '']) {
      const res = await app.inject({ method: 'POST', url: '/api/v1.0/things', headers: { ...AUTH, 'content-type': 'application/json' }, payload })
      expect(res.statusCode).toBe(400)
      expect(res.json()).toMatchObject({ status: 'Failure', code: '400 Bad Request' })
    }
  })
  it('passes raw text bodies of accepted types to the handler', async () => {
    const app = await buildTestApp()
    const res = await app.inject({ method: 'POST', url: '/api/v1.0/things', headers: { ...AUTH, 'content-type': 'application/x-yaml' }, payload: 'a: 1\n' })
    expect(res.json()).toEqual({ got: 'a: 1\n' })
  })
  // the error body in full for each condition: status line, message, reason, the one entry, errorType and retry
  const full = (code: string, message: string, reason: string, errorType: string, retry = false) => ({
    apiVersion: 'v1.0',
    status: 'Failure',
    kind: 'status',
    metadata: {},
    message,
    reason,
    code,
    details: { errorCount: 1, errorList: [{ message: reason, error: true }], messageList: [{ message: reason, error: true }], errorType },
    retry
  })
  it.each([
    ['schema failure', { url: '/api/v1.0/things/abc', headers: AUTH }, full('400 Bad Request', 'Invalid params', 'params/id must match pattern "^[0-9]+$"', 'InvalidFormatError')],
    ['no token', { url: '/api/v1.0/things/1' }, full('401 Unauthorized', 'Unauthenticated', 'Credentials are not established', 'ApiError')],
    ['a token without the role', { url: '/api/v1.0/things/1', headers: { 'x-auth-token': TEST_TOKENS.reader } }, full('403 Forbidden', 'Forbidden', 'Credentials do not permit access', 'ApiError')],
    ['an unknown route', { url: '/api/v1.0/nothing', headers: AUTH }, full('404 Not Found', 'Not Found', 'The resource /api/v1.0/nothing does not exist', 'HTTPRouteNotFound')],
    ['a wrong method', { method: 'DELETE', url: '/api/v1.0/things/1', headers: AUTH }, full('405 Method Not Allowed', 'Method Not Allowed', 'DELETE is not allowed here; allowed: GET, OPTIONS', 'HTTPMethodNotAllowed')],
    ['a body over the limit', { method: 'POST', url: '/api/v1.0/things', headers: { ...AUTH, 'content-type': 'application/x-yaml' }, payload: 'x'.repeat(300) }, full('413 Payload Too Large', 'Payload Too Large', 'The request body exceeds the limit of 256 bytes', 'ApiError')],
    ['an unsupported content type', { method: 'POST', url: '/api/v1.0/things', headers: { ...AUTH, 'content-type': 'text/csv' }, payload: 'a' }, full('415 Unsupported Media Type', 'Unsupported Media Type', "Content type 'text/csv' is not supported; use a content type the route accepts", 'ApiError')],
    ['a plugin\'s own 4xx', { url: '/api/v1.0/teapot', headers: AUTH }, full("418 I'm a Teapot", "I'm a Teapot", 'short and stout', 'ApiError')],
    ['an unexpected exception', { url: '/api/v1.0/things/500', headers: AUTH }, full('500 Internal Server Error', 'Unhandled Exception raised', 'An unexpected error occurred; the service log has the details', 'ApiError', true)],
    ['a downstream failure', { url: '/api/v1.0/things/503', headers: AUTH }, full('503 Service Unavailable', 'Downstream failure: store', 'connection refused', 'DownstreamError', true)]
  ])('answers %s with the whole error body', async (_name, request, body) => {
    const app = await buildTestApp()
    const res = await app.inject(request as InjectOptions)
    expect(res.statusCode).toBe(Number(body.code.slice(0, 3)))
    expect(res.headers['content-type']).toMatch(/^application\/json/)
    expect(res.json()).toEqual(body)
  })

  it('answers an unexpected exception with 500 and no internals', async () => {
    const app = await buildTestApp()
    const res = await app.inject({ url: '/api/v1.0/things/500', headers: AUTH })
    expect(res.statusCode).toBe(500)
    expect(res.json()).toMatchObject({ message: 'Unhandled Exception raised', code: '500 Internal Server Error', retry: true })
    expect(res.body).not.toContain('hunter2')
    expect(res.body).not.toContain('.ts:')
  })

  it('answers requests the HTTP parser refuses with an error body over a real socket: oversized headers 431, garbage 400', async () => {
    const app = await buildTestApp()
    await app.listen({ host: '127.0.0.1', port: 0 })
    const address = app.server.address()
    const port = typeof address === 'object' && address !== null ? address.port : 0
    const raw = async (request: string): Promise<string> => await new Promise((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => socket.end(request))
      let answer = ''
      socket.setEncoding('utf8')
      socket.on('data', (chunk: string) => { answer += chunk })
      socket.on('close', () => resolve(answer))
      socket.on('error', reject)
    })
    const huge = await raw(`GET /api/v1.0/health HTTP/1.1\r\nhost: x\r\nx-junk: ${'a'.repeat(20_000)}\r\n\r\n`)
    expect(huge).toMatch(/^HTTP\/1.1 431 Request Header Fields Too Large\r\n/)
    expect(huge).toMatch(/\r\nx-service-req: [0-9a-f-]{36}\r\n/)
    expect(JSON.parse(huge.slice(huge.indexOf('\r\n\r\n') + 4))).toMatchObject({ kind: 'status', status: 'Failure', code: '431 Request Header Fields Too Large' })
    const garbage = await raw('NOT HTTP AT ALL\r\n\r\n')
    expect(garbage).toMatch(/^HTTP\/1.1 400 Bad Request\r\n/)
    expect(JSON.parse(garbage.slice(garbage.indexOf('\r\n\r\n') + 4))).toMatchObject({ code: '400 Bad Request', details: { errorType: 'InvalidFormatError' } })
  })
})
