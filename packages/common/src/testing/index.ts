// Test fakes for services built on common: a static authenticator with well-known tokens.
import { createStaticAuthenticator } from '../auth/static.ts'

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
