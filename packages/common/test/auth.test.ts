import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { MockAgent } from 'undici'
import { describe, expect, it, onTestFinished } from 'vitest'
import { createStaticAuthenticator } from '../src/auth/static.ts'
import { createKeystoneAuthenticator, createKeystoneServiceToken } from '../src/auth/keystone.ts'
import { errorBody, ServiceUnavailableError } from '../src/errors.ts'
import { AuthConfigSchema, authenticatorFromConfig, serviceTokenFromConfig, type AuthConfig } from '../src/auth/from-config.ts'
import { keystoneChallenge } from '../src/auth/identity.ts'
import { readConfig } from '../src/config.ts'

function tempFile (text: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'tokens-'))
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }))
  const file = join(dir, 'tokens.yaml')
  writeFileSync(file, text)
  return file
}

describe('static token provider', () => {
  it('maps a known token to its user, project and roles', async () => {
    const auth = createStaticAuthenticator({ tokens: { t1: { user: 'shipyard', project: 'service', roles: ['admin'] } }, authUri: 'http://id/v3' })
    expect(await auth.authenticate('t1')).toMatchObject({ userName: 'shipyard', projectId: 'service', roles: ['admin'] })
    expect(await auth.authenticate('t2')).toBeUndefined()
    expect(auth.wwwAuthenticate).toBe('Keystone uri="http://id/v3"')
  })

  it('refuses an expired token', async () => {
    const auth = createStaticAuthenticator({
      tokens: { old: { user: 'a', roles: ['admin'], expires_at: '2030-01-01T00:00:00Z' } },
      authUri: 'http://id/v3',
      now: () => Date.parse('2030-01-01T00:00:01Z')
    })
    expect(await auth.authenticate('old')).toBeUndefined()
  })

  it('reads a token file and re-reads it on SIGHUP', async () => {
    const file = tempFile('tokens:\n  first: {user: a, project: p, roles: [admin]}\n')
    const auth = createStaticAuthenticator({ file, authUri: 'http://id/v3' })
    onTestFinished(() => auth.close?.())
    expect(await auth.authenticate('first')).toMatchObject({ userName: 'a' })
    writeFileSync(file, 'tokens:\n  second: {user: b, project: p, roles: [reader]}\n')
    process.emit('SIGHUP', 'SIGHUP')
    expect(await auth.authenticate('first')).toBeUndefined()
    expect(await auth.authenticate('second')).toMatchObject({ userName: 'b', roles: ['reader'] })
  })

  it('keeps the previous tokens when a reload finds a broken file', async () => {
    const file = tempFile('tokens:\n  first: {user: a, roles: [admin]}\n')
    const errors: unknown[] = []
    const auth = createStaticAuthenticator({ file, authUri: 'http://id/v3', onReloadError: (e) => errors.push(e) })
    onTestFinished(() => auth.close?.())
    writeFileSync(file, 'tokens: [not, a, mapping]\n')
    auth.reload()
    expect(errors).toHaveLength(1)
    expect(await auth.authenticate('first')).toMatchObject({ userName: 'a' })
  })

  it('rejects entries without a user', () => {
    expect(() => createStaticAuthenticator({ file: tempFile('tokens:\n  t: {roles: [admin]}\n'), authUri: 'x' })).toThrow(/no user/)
  })
})

const KEYSTONE = 'http://keystone.test:5000'
// token validation asks for the answer without the catalog
const VALIDATE = '/v3/auth/tokens?nocatalog'
const SERVICE_AUTH = {
  authUrl: `${KEYSTONE}/v3`,
  username: 'slipway',
  password: 'secret',
  projectName: 'service'
}

function keystone () {
  const agent = new MockAgent()
  agent.disableNetConnect()
  onTestFinished(async () => { await agent.close() })
  const pool = agent.get(KEYSTONE)
  const issueServiceToken = (token = 'svc-token', expiresAt = '2999-01-01T00:00:00Z') =>
    pool.intercept({ path: '/v3/auth/tokens', method: 'POST' }).reply(201, { token: { expires_at: expiresAt } }, { headers: { 'x-subject-token': token } })
  return { agent, pool, issueServiceToken }
}

const validToken = (expiresAt = '2999-01-01T00:00:00Z') => ({
  token: {
    expires_at: expiresAt,
    user: { id: 'u-1', name: 'operator', domain: { id: 'default' } },
    project: { id: 'p-1', name: 'site', domain: { id: 'default' } },
    roles: [{ name: 'admin' }, { name: 'member' }]
  }
})

describe('keystone token provider', () => {
  it('validates a caller token with the service token and caches the answer', async () => {
    const { agent, pool, issueServiceToken } = keystone()
    issueServiceToken('svc-1')
    let validations = 0
    pool.intercept({ path: VALIDATE, method: 'GET', headers: { 'x-auth-token': 'svc-1', 'x-subject-token': 'caller' } })
      .reply(() => { validations++; return { statusCode: 200, data: validToken() } })
    const auth = createKeystoneAuthenticator({ ...SERVICE_AUTH, dispatcher: agent })
    const identity = await auth.authenticate('caller')
    expect(identity).toMatchObject({ userName: 'operator', userId: 'u-1', projectId: 'p-1', roles: ['admin', 'member'] })
    expect(await auth.authenticate('caller')).toMatchObject({ userName: 'operator' })
    expect(validations).toBe(1)
    expect(auth.wwwAuthenticate).toBe(`Keystone uri="${KEYSTONE}/v3"`)
  })

  it('answers undefined for a token Keystone does not know', async () => {
    const { agent, pool, issueServiceToken } = keystone()
    issueServiceToken()
    pool.intercept({ path: VALIDATE, method: 'GET' }).reply(404, { error: { code: 404 } })
    const auth = createKeystoneAuthenticator({ ...SERVICE_AUTH, dispatcher: agent })
    expect(await auth.authenticate('bogus')).toBeUndefined()
  })

  it('refuses a token that has expired, and stops reusing a cached one at its expiry', async () => {
    const { agent, pool, issueServiceToken } = keystone()
    issueServiceToken()
    let now = Date.parse('2030-01-01T00:00:00Z')
    pool.intercept({ path: VALIDATE, method: 'GET' }).reply(200, validToken('2030-01-01T00:00:10Z')).times(2)
    const auth = createKeystoneAuthenticator({ ...SERVICE_AUTH, dispatcher: agent, now: () => now })
    expect(await auth.authenticate('short-lived')).toMatchObject({ userName: 'operator' })
    now += 11_000
    expect(await auth.authenticate('short-lived')).toBeUndefined()
  })

  it('answers 503 (ServiceUnavailableError), not 401, when Keystone is unreachable', async () => {
    const { agent, pool } = keystone()
    pool.intercept({ path: '/v3/auth/tokens', method: 'POST' }).replyWithError(new Error('connect ECONNREFUSED'))
    const auth = createKeystoneAuthenticator({ ...SERVICE_AUTH, dispatcher: agent })
    const error = await auth.authenticate('caller').catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ServiceUnavailableError)
    expect((error as ServiceUnavailableError).statusCode).toBe(503)
  })

  it('answers 503, not 401, when token validation fails after the service already holds its token', async () => {
    for (const fail of ['refused', '500'] as const) {
      const { agent, pool, issueServiceToken } = keystone()
      issueServiceToken()
      const validation = pool.intercept({ path: VALIDATE, method: 'GET' })
      if (fail === 'refused') validation.replyWithError(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }))
      else validation.reply(500, 'Traceback: keystone fell over')
      const auth = createKeystoneAuthenticator({ ...SERVICE_AUTH, dispatcher: agent })
      const error = await auth.authenticate('caller').catch((e: unknown) => e)
      expect(error, fail).toBeInstanceOf(ServiceUnavailableError)
      expect(JSON.stringify(errorBody(error as ServiceUnavailableError))).not.toContain('Traceback')
    }
  })

  it('asks Keystone again once the cache TTL has passed, even when the token lives on', async () => {
    const { agent, pool, issueServiceToken } = keystone()
    issueServiceToken()
    let now = Date.parse('2030-01-01T00:00:00Z')
    let validations = 0
    pool.intercept({ path: VALIDATE, method: 'GET' }).reply(() => { validations++; return { statusCode: 200, data: validToken() } }).times(2)
    const auth = createKeystoneAuthenticator({ ...SERVICE_AUTH, dispatcher: agent, now: () => now, cacheTtlMs: 1000 })
    await auth.authenticate('long-lived')
    now += 500
    await auth.authenticate('long-lived')
    expect(validations).toBe(1)
    now += 1000
    await auth.authenticate('long-lived')
    expect(validations).toBe(2)
  })

  it('renews the service token when Keystone rejects it', async () => {
    const { agent, pool, issueServiceToken } = keystone()
    issueServiceToken('stale')
    pool.intercept({ path: VALIDATE, method: 'GET', headers: { 'x-auth-token': 'stale' } }).reply(401, {})
    issueServiceToken('fresh')
    pool.intercept({ path: VALIDATE, method: 'GET', headers: { 'x-auth-token': 'fresh' } }).reply(200, validToken())
    const auth = createKeystoneAuthenticator({ ...SERVICE_AUTH, dispatcher: agent })
    // a 401 on validation first renews the service token, then the retried call succeeds
    expect(await auth.authenticate('caller')).toMatchObject({ userName: 'operator' })
  })

  it('obtains the service token once and renews it shortly before it expires', async () => {
    const { agent, pool } = keystone()
    let now = Date.parse('2030-01-01T00:00:00Z')
    let issued = 0
    pool.intercept({ path: '/v3/auth/tokens', method: 'POST' }).reply(() => {
      issued++
      return { statusCode: 201, data: { token: { expires_at: new Date(now + 120_000).toISOString() } }, responseOptions: { headers: { 'x-subject-token': `svc-${issued}` } } }
    }).times(2)
    const source = createKeystoneServiceToken({ ...SERVICE_AUTH, dispatcher: agent, now: () => now, renewBeforeMs: 30_000 })
    const [a, b] = await Promise.all([source.token(), source.token()])
    expect([a, b]).toEqual(['svc-1', 'svc-1'])
    now += 60_000
    expect(await source.token()).toBe('svc-1')
    now += 31_000
    expect(await source.token()).toBe('svc-2')
    expect(issued).toBe(2)
  })
})

/** The configuration's authenticator over its own service token, as a composition root builds it. */
const fromConfig = (config: AuthConfig) => authenticatorFromConfig(config, { serviceToken: serviceTokenFromConfig(config) })

describe('WWW-Authenticate on a 401', () => {
  it('names the identity service in double quotes (RFC 7235 auth-param, as keystonemiddleware sends it)', () => {
    const keystone = fromConfig(readConfig(AuthConfigSchema, { AUTH_PROVIDER: 'keystone', KEYSTONE_AUTH_URL: 'http://keystone:5000/v3' }))
    expect(keystone.wwwAuthenticate).toBe('Keystone uri="http://keystone:5000/v3"')
  })

  it('names the configured AUTH_URI on the static-token stack, and no identity service when none is configured', () => {
    const named = fromConfig(readConfig(AuthConfigSchema, { AUTH_PROVIDER: 'static', AUTH_URI: 'https://id.example:5000/v3' }))
    expect(named.wwwAuthenticate).toBe('Keystone uri="https://id.example:5000/v3"')
    expect(fromConfig(readConfig(AuthConfigSchema, {})).wwwAuthenticate).toBe('X-Auth-Token realm="slipway"')
  })

  it('escapes a quote or backslash in the URI, so the quoted string stays one parameter', () => {
    expect(keystoneChallenge('http://id/v3"x\\y')).toBe('Keystone uri="http://id/v3\\"x\\\\y"')
  })
})
