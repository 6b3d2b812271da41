// oslo.policy's `is_admin_project` credential reaches the policy rules from both token providers: Keystone's
// validation answer (absent: true, Keystone's convention without an admin project) and the static token file.
import { MockAgent } from 'undici'
import { describe, expect, it, onTestFinished } from 'vitest'
import { createServiceApp } from '../src/fastify/service-app.ts'
import { createPolicy } from '../src/auth/policy.ts'
import { createKeystoneAuthenticator } from '../src/auth/keystone.ts'
import { createStaticAuthenticator } from '../src/auth/static.ts'
import type { Authenticator } from '../src/auth/identity.ts'

// the shape of upstream policy files: an admin of the cloud is an admin scoped to the admin project
const RULES = { cloud_admin: 'role:admin and is_admin_project:True', 'svc:cloud': 'rule:cloud_admin', 'svc:elsewhere': 'not is_admin_project:True' }

async function appWith (authenticator: Authenticator) {
  const app = createServiceApp({ service: 'test', logger: false, authenticator, policy: createPolicy(RULES) })
  app.get('/cloud', { config: { policy: 'svc:cloud' } }, async () => ({ ok: true }))
  app.get('/elsewhere', { config: { policy: 'svc:elsewhere' } }, async () => ({ ok: true }))
  onTestFinished(async () => { await app.close() })
  return app
}

async function statuses (authenticator: Authenticator, token: string): Promise<[number, number]> {
  const app = await appWith(authenticator)
  const cloud = await app.inject({ url: '/cloud', headers: { 'x-auth-token': token } })
  const elsewhere = await app.inject({ url: '/elsewhere', headers: { 'x-auth-token': token } })
  return [cloud.statusCode, elsewhere.statusCode]
}

const KEYSTONE = 'http://keystone.test:5000'

function keystoneAnswering (answers: Record<string, boolean | undefined>): Authenticator {
  const agent = new MockAgent()
  agent.disableNetConnect()
  onTestFinished(async () => { await agent.close() })
  const pool = agent.get(KEYSTONE)
  pool.intercept({ path: '/v3/auth/tokens', method: 'POST' }).reply(201, { token: { expires_at: '2999-01-01T00:00:00Z' } }, { headers: { 'x-subject-token': 'svc' } }).persist()
  pool.intercept({ path: (path) => path.startsWith('/v3/auth/tokens'), method: 'GET' }).reply((request) => {
    const subject = String((request.headers as Record<string, string>)['x-subject-token'])
    const flag = answers[subject]
    const token = {
      expires_at: '2999-01-01T00:00:00Z',
      user: { id: 'u-1', name: 'operator', domain: { id: 'default' } },
      project: { id: 'p-1', name: 'admin', domain: { id: 'default' } },
      roles: [{ name: 'admin' }],
      ...(flag === undefined ? {} : { is_admin_project: flag })
    }
    return { statusCode: 200, data: { token } }
  }).persist()
  return createKeystoneAuthenticator({ authUrl: `${KEYSTONE}/v3`, username: 'svc', password: 'p', projectName: 'service', dispatcher: agent })
}

describe('is_admin_project from Keystone', () => {
  it('allows a rule using is_admin_project:True for a token Keystone says is in the admin project, and denies one it says is not', async () => {
    const keystone = keystoneAnswering({ inside: true, outside: false })
    expect(await statuses(keystone, 'inside')).toEqual([200, 403])
    expect(await statuses(keystone, 'outside')).toEqual([403, 200])
  })

  it('counts a token as in the admin project when Keystone leaves is_admin_project out (no admin project configured)', async () => {
    expect(await statuses(keystoneAnswering({ plain: undefined }), 'plain')).toEqual([200, 403])
  })
})

describe('is_admin_project from the static token file', () => {
  const auth = () => createStaticAuthenticator({
    authUri: '',
    tokens: {
      inside: { user: 'a', roles: ['admin'], is_admin_project: true },
      outside: { user: 'b', roles: ['admin'], is_admin_project: false },
      plain: { user: 'c', roles: ['admin'] }
    }
  })

  it('takes is_admin_project as the file declares it, true when it says nothing', async () => {
    expect(await statuses(auth(), 'inside')).toEqual([200, 403])
    expect(await statuses(auth(), 'outside')).toEqual([403, 200])
    expect(await statuses(auth(), 'plain')).toEqual([200, 403])
  })

  it('refuses a file whose is_admin_project is not a boolean', () => {
    expect(() => createStaticAuthenticator({ authUri: '', tokens: { t: { user: 'a', is_admin_project: 'yes' as unknown as boolean } } })).toThrow(/is_admin_project/)
  })

  it('gives an anonymous caller no admin project: the rule still answers 401, never 200', async () => {
    const app = await appWith(auth())
    expect((await app.inject({ url: '/cloud' })).statusCode).toBe(401)
  })
})
