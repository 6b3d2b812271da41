// /auth/token (simple auth manager) and bearer checks on /api/v2, as Airflow 3 does them.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it, onTestFinished } from 'vitest'
import { signJwt } from '../../src/domain/tokens.ts'
import { client, startTestEngine, TEST_SECRET } from '../helpers/engine.ts'

const decode = (jwt: string) => JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString('utf8'))

describe('POST /auth/token', () => {
  it('answers 201 with a JWT carrying sub, iat and exp, for JSON and form bodies', async () => {
    const engine = await startTestEngine({ ENGINE_JWT_TTL_S: '600' })
    const anonymous = await client(engine.url, undefined)
    const json = await anonymous('POST', '/auth/token', { username: 'admin', password: 'admin' })
    expect(json.status).toBe(201)
    const claims = decode(json.body.access_token)
    expect(claims).toMatchObject({ sub: 'admin', role: 'ADMIN' })
    expect(claims.exp - claims.iat).toBe(600)
    const form = await anonymous('POST', '/auth/token', 'username=admin&password=admin', { 'content-type': 'application/x-www-form-urlencoded' })
    expect(form.status).toBe(201)
    expect(typeof form.body.access_token).toBe('string')
    const cli = await anonymous('POST', '/auth/token/cli', { username: 'admin', password: 'admin' })
    expect(cli.status).toBe(201)
  })

  it('refuses bad credentials (401), empty fields (400), unknown fields (422) and other content types (415)', async () => {
    const engine = await startTestEngine()
    const anonymous = await client(engine.url, undefined)
    const wrong = await anonymous('POST', '/auth/token', { username: 'admin', password: 'nope' })
    expect(wrong.status).toBe(401)
    expect(wrong.body).toEqual({ detail: 'Invalid credentials' })
    const empty = await anonymous('POST', '/auth/token', { username: '', password: '' })
    expect(empty.status).toBe(400)
    expect(typeof empty.body.detail).toBe('string')
    // as Airflow 3.1's simple auth manager: the 422's detail is the text of pydantic's error, not a list (texts
    // checked against pydantic 2.12 itself)
    const extra = await anonymous('POST', '/auth/token', { username: 'admin', password: 'admin', role: 'x' })
    expect(extra.status).toBe(422)
    expect(extra.body).toEqual({
      detail: '1 validation error for LoginBody\nrole\n  Extra inputs are not permitted [type=extra_forbidden, input_value=\'x\', input_type=str]\n' +
        '    For further information visit https://errors.pydantic.dev/2.12/v/extra_forbidden'
    })
    const missing = await anonymous('POST', '/auth/token', { password: 'a'.repeat(60), role: 1 })
    expect(missing.status).toBe(422)
    expect(missing.body.detail.split('\n')).toEqual([
      '2 validation errors for LoginBody',
      'username',
      '  Field required [type=missing, input_value={\'password\': \'aaaaaaaaaaa...aaaaaaaaaaa\', \'role\': 1}, input_type=dict]',
      '    For further information visit https://errors.pydantic.dev/2.12/v/missing',
      'role',
      '  Extra inputs are not permitted [type=extra_forbidden, input_value=1, input_type=int]',
      '    For further information visit https://errors.pydantic.dev/2.12/v/extra_forbidden'
    ])
    const text = await anonymous('POST', '/auth/token', 'admin:admin', { 'content-type': 'text/plain' })
    expect(text.status).toBe(415)
    expect(text.body).toEqual({ detail: 'Unsupported Media Type' })
  })
})

describe('GET /auth/token', () => {
  it('answers 403 unless all-admins mode is on, then 201 with an ADMIN token', async () => {
    const closed = await startTestEngine()
    const refused = await (await client(closed.url, undefined))('GET', '/auth/token')
    expect(refused.status).toBe(403)
    expect(typeof refused.body.detail).toBe('string')
    const open = await startTestEngine({ ENGINE_ALL_ADMINS: 'true' })
    const granted = await (await client(open.url, undefined))('GET', '/auth/token')
    expect(granted.status).toBe(201)
    expect(decode(granted.body.access_token)).toMatchObject({ role: 'ADMIN' })
  })
})

describe('bearer tokens on /api/v2', () => {
  it('answers as Airflow 3.1: 401 without a token or with an expired one, 403 for any token it cannot verify; health and version stay open', async () => {
    const engine = await startTestEngine()
    const anonymous = await client(engine.url, undefined)
    const missing = await anonymous('GET', '/api/v2/dags')
    expect(missing.status).toBe(401)
    expect(missing.body).toEqual({ detail: 'Not authenticated' })
    expect(missing.headers.get('www-authenticate')).toBe('Bearer')
    const expired = await anonymous('GET', '/api/v2/dags', undefined, { authorization: `Bearer ${signJwt(TEST_SECRET, 'admin', 'ADMIN', 1, Date.now() - 5000)}` })
    expect(expired.status).toBe(401)
    expect(expired.body).toEqual({ detail: 'Token Expired' })
    expect(expired.headers.get('www-authenticate')).toBe('Bearer')
    const expiredForeign = signJwt('another-secret', 'admin', 'ADMIN', 1, Date.now() - 5000)
    for (const token of ['garbage', 'a.b.c', signJwt('another-secret', 'admin', 'ADMIN', 60), expiredForeign]) {
      const reply = await anonymous('GET', '/api/v2/dags', undefined, { authorization: `Bearer ${token}` })
      expect(reply.status, token).toBe(403)
      expect(reply.body).toEqual({ detail: 'Invalid JWT token' })
    }
    const valid = await anonymous('GET', '/api/v2/dags', undefined, { authorization: `Bearer ${signJwt(TEST_SECRET, 'admin', 'ADMIN', 60)}` })
    expect(valid.status).toBe(200)
    expect((await anonymous('GET', '/api/v2/version')).body).toEqual({ version: '3.1.0-stub', git_version: null })
    expect((await anonymous('GET', '/api/v2/monitor/health')).body.scheduler.status).toBe('healthy')
  })

  it('refuses every token of the old secret after a restart with a new one (403), and a fresh token works', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'stub-engine-rotate-'))
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }))
    const first = await startTestEngine({ ENGINE_DATA_DIR: dir, ENGINE_JWT_SECRET: 'first-secret' })
    const oldToken = first.token
    await first.close()
    const second = await startTestEngine({ ENGINE_DATA_DIR: dir, ENGINE_JWT_SECRET: 'second-secret' })
    const stale = await (await client(second.url, oldToken))('GET', '/api/v2/dags')
    expect(stale.status).toBe(403)
    expect(stale.body).toEqual({ detail: 'Invalid JWT token' })
    expect((await second.call('GET', '/api/v2/dags')).status).toBe(200)
  })

  it('lets a VIEWER read but answers 403 when it tries to change anything', async () => {
    const engine = await startTestEngine({ ENGINE_USERS: 'admin:admin,watcher:pw:viewer' })
    const anonymous = await client(engine.url, undefined)
    const login = await anonymous('POST', '/auth/token', { username: 'watcher', password: 'pw' })
    const viewer = await client(engine.url, login.body.access_token)
    expect((await viewer('GET', '/api/v2/dags/deploy_site')).status).toBe(200)
    const patch = await viewer('PATCH', '/api/v2/dags/deploy_site', { is_paused: false })
    expect(patch.status).toBe(403)
    expect(patch.body).toEqual({ detail: 'Forbidden' })
  })
})
