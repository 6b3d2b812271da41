// Test fakes for services built on common: a static authenticator with well-known tokens, and the tests' PostgreSQL.
import { createStaticAuthenticator } from '../auth/static.ts'

export { testPostgres, type TestPostgres } from './postgres.ts'

/** Tokens known to `testAuthenticator()`. */
export const TEST_TOKENS = {
  admin: 'test-admin-token',
  reader: 'test-reader-token',
  expired: 'test-expired-token'
} as const

/** Headers carrying the admin test token. */
export const AUTH = { 'x-auth-token': TEST_TOKENS.admin }

export const TEST_AUTH_URI = 'http://127.0.0.1:5000/v3'

/** An authenticator knowing an admin (role admin), a reader (role reader) and an expired admin token. */
export function testAuthenticator () {
  return createStaticAuthenticator({
    authUri: TEST_AUTH_URI,
    tokens: {
      [TEST_TOKENS.admin]: { user: 'admin', project: 'service', roles: ['admin'] },
      [TEST_TOKENS.reader]: { user: 'reader', project: 'service', roles: ['reader'] },
      [TEST_TOKENS.expired]: { user: 'admin', project: 'service', roles: ['admin'], expires_at: '2000-01-01T00:00:00Z' }
    }
  })
}

/** A route URL pattern with each `:param` replaced by `value` (a well-formed ULID by default). */
export function concretePath (url: string, value = '01ARZ3NDEKTSV4RRFFQ69G5FAV'): string {
  return url.split('/').map((segment) => segment.startsWith(':') ? value : segment).join('/')
}

/** True when `body` is the error body every Slipway service answers with. */
export function isErrorBody (body: unknown): boolean {
  const b = body as { status?: unknown, code?: unknown, message?: unknown, details?: { errorCount?: unknown } } | null
  return b !== null && typeof b === 'object' && b.status === 'Failure' && typeof b.code === 'string' &&
    typeof b.message === 'string' && typeof b.details?.errorCount === 'number'
}
export {
  PLAIN_HTTP_REFUSAL, askHttpsAndPlain, createTestPki, runServiceProcess, startHttpsPeer, useTlsFixture, type ServiceRun, type TestPki
} from './tls.ts'
