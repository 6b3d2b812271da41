// Keystone under load and with short-lived tokens: logins and validations counted. One service token per
// process, renewed when a quarter of its lifetime is left; one validation per new caller token however many
// requests bring it at once, asked without the catalog.
import { createServer, type IncomingMessage } from 'node:http'
import { MockAgent } from 'undici'
import { describe, expect, it, onTestFinished } from 'vitest'
import { createKeystoneAuthenticator, createKeystoneServiceToken } from '../src/auth/keystone.ts'
import { AuthConfigSchema, authenticatorFromConfig, serviceTokenFromConfig } from '../src/auth/from-config.ts'
import { readConfig } from '../src/config.ts'
import { createServiceApp } from '../src/fastify/service-app.ts'
import { createPolicy } from '../src/auth/policy.ts'

const KEYSTONE = 'http://keystone.test:5000'
const SERVICE_AUTH = { authUrl: `${KEYSTONE}/v3`, username: 'slipway', password: 'secret', projectName: 'service' }

const callerToken = (expiresAt: string) => ({
  token: {
    expires_at: expiresAt,
    user: { id: 'u-1', name: 'operator', domain: { id: 'default' } },
    project: { id: 'p-1', name: 'site', domain: { id: 'default' } },
    roles: [{ name: 'admin' }]
  }
})

/** A mocked Keystone whose service tokens live `lifetimeMs` on the clock `now`; counts logins and validations. */
function mockKeystone (now: () => number, lifetimeMs: number) {
  const agent = new MockAgent()
  agent.disableNetConnect()
  onTestFinished(async () => { await agent.close() })
  const pool = agent.get(KEYSTONE)
  const counts = { logins: 0, validations: 0, paths: new Set<string>() }
  pool.intercept({ path: '/v3/auth/tokens', method: 'POST' }).reply(() => {
    counts.logins++
    const token = { issued_at: new Date(now()).toISOString(), expires_at: new Date(now() + lifetimeMs).toISOString() }
    return { statusCode: 201, data: { token }, responseOptions: { headers: { 'x-subject-token': `svc-${counts.logins}` } } }
  }).persist()
  pool.intercept({ path: (path) => path.startsWith('/v3/auth/tokens'), method: 'GET' }).reply((request) => {
    counts.validations++
    counts.paths.add(request.path)
    return { statusCode: 200, data: callerToken(new Date(now() + 3_600_000).toISOString()) }
  }).persist()
  return { agent, counts }
}

describe('service token renewal', () => {
  it('logs in once for 5 requests with 60 s tokens, each request validating a new caller token and making 2 outbound calls', async () => {
    let now = Date.parse('2030-01-01T00:00:00Z')
    const { agent, counts } = mockKeystone(() => now, 60_000)
    const serviceToken = createKeystoneServiceToken({ ...SERVICE_AUTH, dispatcher: agent, now: () => now })
    const auth = createKeystoneAuthenticator({ ...SERVICE_AUTH, dispatcher: agent, now: () => now, serviceToken })
    const sent: Array<string | undefined> = []
    for (let request = 0; request < 5; request++) {
      expect(await auth.authenticate(`caller-${request}`)).toMatchObject({ userName: 'operator' })
      sent.push(await serviceToken.token(), await serviceToken.token())
      now += 2_000
    }
    expect(counts.logins).toBe(1)
    expect(counts.validations).toBe(5)
    expect(new Set(sent)).toEqual(new Set(['svc-1']))
  })

  it('renews once less than a quarter of the lifetime is left, not a fixed minute before expiry', async () => {
    let now = Date.parse('2030-01-01T00:00:00Z')
    const { agent, counts } = mockKeystone(() => now, 40_000)
    const source = createKeystoneServiceToken({ ...SERVICE_AUTH, dispatcher: agent, now: () => now })
    expect(await source.token()).toBe('svc-1')
    now += 29_000
    expect(await source.token()).toBe('svc-1')
    now += 2_000 // 9 s of 40 s left
    expect(await source.token()).toBe('svc-2')
    expect(counts.logins).toBe(2)
  })

  it('counts the lifetime from when it asked, so a clock hours apart from Keystone\'s neither renews every call nor keeps an expired token', async () => {
    let now = Date.parse('2030-01-01T00:00:00Z')
    const keystoneClock = () => now + 3 * 3_600_000
    const { agent, counts } = mockKeystone(keystoneClock, 60_000)
    const source = createKeystoneServiceToken({ ...SERVICE_AUTH, dispatcher: agent, now: () => now })
    for (let call = 0; call < 10; call++) { await source.token(); now += 1_000 }
    expect(counts.logins).toBe(1)
    now += 40_000
    await source.token()
    expect(counts.logins).toBe(2)
  })
})

describe('caller token validation', () => {
  it('validates one new token once for 20 simultaneous requests, with ?nocatalog', async () => {
    const now = Date.parse('2030-01-01T00:00:00Z')
    const { agent, counts } = mockKeystone(() => now, 3_600_000)
    const auth = createKeystoneAuthenticator({ ...SERVICE_AUTH, dispatcher: agent, now: () => now })
    const app = createServiceApp({ service: 'test', logger: false, authenticator: auth, policy: createPolicy({ 'svc:get': 'role:admin' }) })
    app.get('/thing', { config: { policy: 'svc:get' } }, async (request) => ({ user: request.ctx.user }))
    onTestFinished(async () => { await app.close() })
    const answers = await Promise.all(Array.from({ length: 20 }, async () => await app.inject({ url: '/thing', headers: { 'x-auth-token': 'fresh' } })))
    expect(answers.map((a) => a.statusCode)).toEqual(Array(20).fill(200))
    expect(counts.validations).toBe(1)
    expect([...counts.paths]).toEqual(['/v3/auth/tokens?nocatalog'])
  })

  it('lets simultaneous callers share a failure, then asks again', async () => {
    const agent = new MockAgent()
    agent.disableNetConnect()
    onTestFinished(async () => { await agent.close() })
    const pool = agent.get(KEYSTONE)
    pool.intercept({ path: '/v3/auth/tokens', method: 'POST' }).reply(201, { token: { expires_at: '2999-01-01T00:00:00Z' } }, { headers: { 'x-subject-token': 'svc' } }).persist()
    let validations = 0
    pool.intercept({ path: (path) => path.startsWith('/v3/auth/tokens'), method: 'GET' }).reply(() => { validations++; return { statusCode: 500, data: 'down' } }).times(1)
    pool.intercept({ path: (path) => path.startsWith('/v3/auth/tokens'), method: 'GET' }).reply(() => { validations++; return { statusCode: 200, data: callerToken('2999-01-01T00:00:00Z') } })
    const auth = createKeystoneAuthenticator({ ...SERVICE_AUTH, dispatcher: agent })
    const first = await Promise.allSettled(Array.from({ length: 5 }, async () => await auth.authenticate('t')))
    expect(first.map((r) => r.status)).toEqual(Array(5).fill('rejected'))
    expect(await auth.authenticate('t')).toMatchObject({ userName: 'operator' })
    expect(validations).toBe(2)
  })
})

/** A Keystone on 127.0.0.1 (port 0) counting logins and validations, for the configuration path. */
async function startKeystone () {
  const counts = { logins: 0, validations: 0 }
  const validationUrls = new Set<string>()
  const server = createServer((request: IncomingMessage, response) => {
    request.resume()
    request.on('end', () => {
      if (request.method === 'POST') {
        counts.logins++
        response.writeHead(201, { 'content-type': 'application/json', 'x-subject-token': `svc-${counts.logins}` })
        response.end(JSON.stringify({ token: { expires_at: new Date(Date.now() + 3_600_000).toISOString() } }))
        return
      }
      counts.validations++
      validationUrls.add(request.url ?? '')
      response.writeHead(200, { 'content-type': 'application/json' })
      response.end(JSON.stringify(callerToken(new Date(Date.now() + 3_600_000).toISOString())))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  onTestFinished(async () => { await new Promise((resolve) => server.close(resolve)) })
  const address = server.address()
  return { url: `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}/v3`, counts, validationUrls }
}

describe('one service token per process', () => {
  it('shares one login between the authenticator and the outbound calls given the same service token', async () => {
    const keystone = await startKeystone()
    const config = readConfig(AuthConfigSchema, { AUTH_PROVIDER: 'keystone', KEYSTONE_AUTH_URL: keystone.url, KEYSTONE_USERNAME: 'slipway', KEYSTONE_PASSWORD: 'secret' })
    const outbound = serviceTokenFromConfig(config)
    const auth = authenticatorFromConfig(config, { serviceToken: outbound })
    expect(await auth.authenticate('caller')).toMatchObject({ userName: 'operator' })
    const token = await outbound.token()
    expect(keystone.counts).toEqual({ logins: 1, validations: 1 })
    expect(token).toBe('svc-1')
    expect([...keystone.validationUrls]).toEqual(['/v3/auth/tokens?nocatalog'])
  })
})
