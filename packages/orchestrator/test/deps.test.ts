// createDeps builds one service token per orchestrator: with Keystone, the authenticator validating callers and the
// clients calling out share one login.
import { createServer } from 'node:http'
import { describe, expect, it, onTestFinished } from 'vitest'
import { loadConfig } from '../src/config.ts'
import { createDeps } from '../src/deps.ts'
import { buildApp } from '../src/app.ts'

/** Keystone (/v3) and a document store with no revisions (/store) on 127.0.0.1, counting what they are sent. */
async function startKeystoneAndStore () {
  const seen = { logins: 0, validations: 0, storeTokens: [] as string[] }
  const server = createServer((request, response) => {
    request.resume()
    request.on('end', () => {
      if (request.url === '/v3/auth/tokens' && request.method === 'POST') {
        seen.logins++
        response.writeHead(201, { 'content-type': 'application/json', 'x-subject-token': `svc-${seen.logins}` })
        response.end(JSON.stringify({ token: { expires_at: new Date(Date.now() + 3_600_000).toISOString() } }))
        return
      }
      if (request.url?.startsWith('/v3/auth/tokens') === true) {
        seen.validations++
        const token = {
          expires_at: new Date(Date.now() + 3_600_000).toISOString(),
          user: { id: 'u-1', name: 'operator', domain: { id: 'default' } },
          project: { id: 'p-1', name: 'site', domain: { id: 'default' } },
          roles: [{ name: 'admin' }]
        }
        response.writeHead(request.headers['x-auth-token'] === 'svc-1' ? 200 : 401, { 'content-type': 'application/json' })
        response.end(JSON.stringify({ token }))
        return
      }
      seen.storeTokens.push(String(request.headers['x-auth-token']))
      response.writeHead(200, { 'content-type': 'application/x-yaml' })
      // no revisions, hence no documents
      response.end(request.url === '/store/revisions' ? 'results: []\n' : '[]\n')
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  onTestFinished(async () => { await new Promise((resolve) => server.close(resolve)) })
  const address = server.address()
  return { url: `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}`, seen }
}

describe('createDeps', () => {
  it('gives the Keystone authenticator and the outbound clients one service token: one login', async () => {
    const upstream = await startKeystoneAndStore()
    const deps = await createDeps(loadConfig({
      ORCHESTRATOR_DATA_DIR: ':memory:',
      LOG_LEVEL: 'silent',
      METRICS_ENABLED: 'false',
      ENGINE_WATCH_INTERVAL_MS: '0',
      AUTH_PROVIDER: 'keystone',
      KEYSTONE_AUTH_URL: `${upstream.url}/v3`,
      KEYSTONE_USERNAME: 'slipway',
      KEYSTONE_PASSWORD: 'secret',
      STORE_URL: `${upstream.url}/store`
    }))
    const app = await buildApp({ ...deps, logger: false })
    onTestFinished(async () => { await app.close(); await deps.repos.close(); deps.authenticator.close?.() })
    const answer = await app.inject({ url: '/api/v1.0/configdocs', headers: { 'x-auth-token': 'caller' } })
    expect(answer.statusCode).toBe(200)
    expect(answer.json()).toEqual([])
    const { logins, validations, storeTokens } = upstream.seen
    expect({ logins, validations }).toEqual({ logins: 1, validations: 1 })
    // every store call (the list reads more than one revision view) carries the token of that one login
    expect(storeTokens.length).toBeGreaterThan(0)
    expect(new Set(storeTokens)).toEqual(new Set(['svc-1']))
  })
})
