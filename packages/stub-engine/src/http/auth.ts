// Who may call the API: the auth settings of the simple auth manager and the hook that checks each request's
// bearer token against its route's access level, as Airflow 3's simple auth manager does.
import type { FastifyInstance } from 'fastify'
import { Forbidden, Unauthenticated } from '../domain/errors.ts'
import { checkJwt, type AccessClaims } from '../domain/tokens.ts'
import { mayWrite, type User } from '../domain/users.ts'

/** Who may call a route: anyone, any valid token, or a token whose role may change things. */
export type Access = 'public' | 'read' | 'write'

declare module 'fastify' {
  interface FastifyContextConfig { access?: Access }
  interface FastifyRequest { claims: AccessClaims | null }
}

export interface AuthSettings {
  users: User[]
  jwtSecret: string
  jwtTtlS: number
  jwtCliTtlS: number
  /** `simple_auth_manager_all_admins`: the credential-less GET /auth/token answers. */
  allAdmins: boolean
}

/**
 * Checks the bearer token of every non-public route as Airflow 3.1 answers: no token → 401 `Not authenticated`;
 * a token of this server past its `exp` → 401 `Token Expired`; any other token it cannot verify (a bad signature,
 * another server's secret) → 403 `Invalid JWT token`; a read-only role on a write route → 403 `Forbidden`.
 */
export function addAuthHook (app: FastifyInstance, auth: AuthSettings): void {
  app.decorateRequest('claims', null)
  app.addHook('onRequest', async (request) => {
    const access = request.routeOptions.config.access
    if (access === undefined || access === 'public') return
    const header = request.headers.authorization
    const match = typeof header === 'string' ? /^Bearer\s+(\S+)$/i.exec(header) : null
    if (match === null) throw new Unauthenticated('Not authenticated')
    const checked = checkJwt(auth.jwtSecret, match[1]!)
    if ('problem' in checked) {
      if (checked.problem === 'expired') throw new Unauthenticated('Token Expired')
      throw new Forbidden('Invalid JWT token')
    }
    if (access === 'write' && !mayWrite(checked.claims.role)) throw new Forbidden('Forbidden')
    request.claims = checked.claims
  })
}
