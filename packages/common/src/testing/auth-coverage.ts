// Authentication and authorization of every route a service's route table lists (none hand-listed): public routes
// answer without a token; every other one answers 401 with WWW-Authenticate and an error body for no token, a bad
// token and an expired one, and 403 for a valid token without the role. For vitest; both services use it.
import { expect } from 'vitest'
import type { FastifyInstance } from 'fastify'
import { TEST_TOKENS, concretePath, isErrorBody } from './index.ts'

/** `rule` is the pattern every guarded route's policy name must match; `param` fills path parameters. */
export async function expectEveryRouteGuarded (
  app: FastifyInstance,
  options: { rule: RegExp, minRoutes: number, param?: string }
): Promise<void> {
  await app.ready()
  const routes = app.routeTable()
  expect(routes.length).toBeGreaterThanOrEqual(options.minRoutes)
  for (const route of routes) {
    const url = concretePath(route.url, options.param)
    if (route.public) {
      const res = await app.inject({ method: route.method as 'GET', url })
      expect(res.statusCode, `${route.method} ${route.url}`).toBeLessThan(300)
      continue
    }
    expect(route.policy, `${route.method} ${route.url} names a policy rule`).toMatch(options.rule)
    for (const headers of [{}, { 'x-auth-token': 'not-a-token' }, { 'x-auth-token': TEST_TOKENS.expired }]) {
      const res = await app.inject({ method: route.method as 'GET', url, headers })
      expect(res.statusCode, `${route.method} ${route.url} ${JSON.stringify(headers)}`).toBe(401)
      expect(res.headers['www-authenticate']).toMatch(/^Keystone uri="/)
      expect(isErrorBody(res.json())).toBe(true)
    }
    const reader = await app.inject({ method: route.method as 'GET', url, headers: { 'x-auth-token': TEST_TOKENS.reader } })
    expect(reader.statusCode, `${route.method} ${route.url} as reader`).toBe(403)
    expect(reader.json()).toMatchObject({ message: 'Forbidden' })
  }
}
