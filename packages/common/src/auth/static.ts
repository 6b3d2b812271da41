// The `static` token provider: a YAML file mapping token → user, project, roles; re-read on SIGHUP.
import { readFileSync } from 'node:fs'
import { parse as parseYaml } from 'yaml'
import { keystoneChallenge, type Authenticator, type Identity } from './identity.ts'

/** One token's entry in the file. */
export interface StaticTokenEntry {
  user: string
  user_id?: string
  project?: string
  project_id?: string
  roles?: string[]
  /** oslo.policy's `is_admin_project` for this token (default true, as a Keystone without an admin project answers). */
  is_admin_project?: boolean
  /** ISO timestamp after which the token is refused. */
  expires_at?: string
}

function toIdentity (token: string, entry: unknown): [string, Identity] {
  if (entry === null || typeof entry !== 'object') throw new Error(`token entry ${token.slice(0, 4)}… is not a mapping`)
  const e = entry as Partial<StaticTokenEntry>
  if (typeof e.user !== 'string' || e.user === '') throw new Error(`token entry ${token.slice(0, 4)}… has no user`)
  if (e.roles !== undefined && (!Array.isArray(e.roles) || !e.roles.every((r) => typeof r === 'string'))) {
    throw new Error(`token entry ${token.slice(0, 4)}… has roles that are not a list of strings`)
  }
  if (e.is_admin_project !== undefined && typeof e.is_admin_project !== 'boolean') {
    throw new Error(`token entry ${token.slice(0, 4)}… has an is_admin_project that is not true or false`)
  }
  const expiresAt = e.expires_at === undefined ? undefined : new Date(String(e.expires_at))
  if (expiresAt !== undefined && Number.isNaN(expiresAt.getTime())) {
    throw new Error(`token entry ${token.slice(0, 4)}… has an invalid expires_at`)
  }
  return [token, {
    userName: e.user,
    userId: e.user_id ?? e.user,
    projectId: e.project_id ?? e.project,
    projectName: e.project,
    roles: e.roles ?? [],
    isAdminProject: e.is_admin_project ?? true,
    expiresAt
  }]
}

/** Parses the token file's text: `tokens: { <token>: { user, project, roles, is_admin_project, expires_at } }`. */
export function parseTokenFile (text: string): Map<string, Identity> {
  const parsed: unknown = parseYaml(text, { maxAliasCount: 100 })
  const tokens = (parsed as { tokens?: unknown } | null)?.tokens
  if (tokens === null || typeof tokens !== 'object' || Array.isArray(tokens)) throw new Error('token file has no `tokens` mapping')
  return new Map(Object.entries(tokens).map(([token, entry]) => toIdentity(token, entry)))
}

/**
 * Tokens from `file` (or from `tokens` in memory, for tests). With a file, SIGHUP re-reads it; a file that
 * fails to parse on reload keeps the previous tokens (and reports through `onReloadError`).
 */
export function createStaticAuthenticator (options: {
  file?: string
  tokens?: Record<string, StaticTokenEntry>
  /** Named in `WWW-Authenticate: Keystone uri="…"`; empty: the challenge names the header and no identity service. */
  authUri: string
  now?: () => number
  onReloadError?: (error: unknown) => void
}): Authenticator & { reload: () => void } {
  const now = options.now ?? Date.now
  const load = (): Map<string, Identity> => options.file !== undefined
    ? parseTokenFile(readFileSync(options.file, 'utf8'))
    : new Map(Object.entries(options.tokens ?? {}).map(([token, entry]) => toIdentity(token, entry)))
  let tokens = load()
  const reload = (): void => {
    try {
      tokens = load()
    } catch (error) {
      options.onReloadError?.(error)
    }
  }
  const onHangup = (): void => reload()
  if (options.file !== undefined) process.on('SIGHUP', onHangup)
  return {
    // without a Keystone behind it, a Keystone challenge would send clients to an identity service that does not exist
    wwwAuthenticate: options.authUri === '' ? 'X-Auth-Token realm="slipway"' : keystoneChallenge(options.authUri),
    async authenticate (token) {
      const identity = tokens.get(token)
      if (identity === undefined) return undefined
      if (identity.expiresAt !== undefined && identity.expiresAt.getTime() <= now()) return undefined
      return identity
    },
    reload,
    close: () => { process.off('SIGHUP', onHangup) }
  }
}
