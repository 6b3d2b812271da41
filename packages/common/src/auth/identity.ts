// What an authenticated caller is, and the interface every token provider implements.

/** The caller behind a valid token: what Keystone's token validation says of it (user name, ids, project, roles). */
export interface Identity {
  userName: string
  userId: string
  userDomainId?: string | undefined
  projectId: string | undefined
  projectName?: string | undefined
  projectDomainId?: string | undefined
  roles: string[]
  /**
   * oslo.policy's `is_admin_project` credential: whether the token is scoped to the admin project. Absent means
   * true, as Keystone leaves it out of tokens when no admin project is configured and its clients then assume it.
   */
  isAdminProject?: boolean | undefined
  /** When the token stops being valid, if the provider knows. */
  expiresAt?: Date | undefined
}

/** Validates `X-Auth-Token` values. */
export interface Authenticator {
  /**
   * The identity behind `token`, or undefined when the token is unknown or expired. Throws ServiceUnavailableError
   * when the identity service cannot answer.
   */
  authenticate: (token: string) => Promise<Identity | undefined>
  /** Value of `WWW-Authenticate` on a 401, e.g. `Keystone uri="http://keystone:5000/v3"`. */
  wwwAuthenticate: string
  close?: () => void
}

/**
 * The 401 challenge naming the identity service at `uri`: `Keystone uri="…"`, its parameter a quoted string as
 * RFC 7235 writes auth-params and keystonemiddleware sends it (double quotes, `"` and `\` escaped).
 */
export function keystoneChallenge (uri: string): string {
  return `Keystone uri="${uri.replace(/["\\]/g, (c) => `\\${c}`)}"`
}

/** How a service authenticates itself on outbound calls. */
export interface ServiceTokenSource {
  /** A token to send as `X-Auth-Token`, or undefined to send none. */
  token: () => Promise<string | undefined>
  /** Forget a token the downstream rejected, so the next call obtains a fresh one. */
  invalidate: () => void
}

/** A fixed service token (empty: send none). */
export function staticServiceToken (token: string | undefined): ServiceTokenSource {
  const value = token === undefined || token === '' ? undefined : token
  return { token: async () => value, invalidate: () => {} }
}
