// Every route of the orchestrator, taken from its route table: no token, a bad token and an expired token → 401
// with WWW-Authenticate; a valid token without the role → 403. Public routes answer without a token.
import { describe, expect, it } from 'vitest'
import { TEST_TOKENS, concretePath, isErrorBody } from '@slipway/common/testing'
import { buildTestStack } from '../helpers/stack.ts'

describe('authentication and authorization on every orchestrator route', () => {
  it('guards every non-public route and leaves the public ones open', async () => {
    const { app } = await buildTestStack()
    await app.ready()
    const routes = app.routeTable()
    expect(routes.length).toBeGreaterThanOrEqual(17)
    for (const route of routes) {
      const url = concretePath(route.url)
      if (route.public) {
        const res = await app.inject({ method: route.method as 'GET', url })
        expect(res.statusCode, `${route.method} ${route.url}`).toBeLessThan(300)
        continue
      }
      expect(route.policy, `${route.method} ${route.url} names a policy rule`).toMatch(/^workflow_orchestrator:/)
      for (const headers of [{}, { 'x-auth-token': 'not-a-token' }, { 'x-auth-token': TEST_TOKENS.expired }]) {
        const res = await app.inject({ method: route.method as 'GET', url, headers })
        expect(res.statusCode, `${route.method} ${route.url} ${JSON.stringify(headers)}`).toBe(401)
        expect(res.headers['www-authenticate']).toMatch(/^Keystone uri='/)
        expect(isErrorBody(res.json())).toBe(true)
      }
      const reader = await app.inject({ method: route.method as 'GET', url, headers: { 'x-auth-token': TEST_TOKENS.reader } })
      expect(reader.statusCode, `${route.method} ${route.url} as reader`).toBe(403)
      expect(reader.json()).toMatchObject({ message: 'Forbidden' })
    }
  })
})
