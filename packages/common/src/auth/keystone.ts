// The `keystone` token provider (Keystone v3): the service authenticates itself by password, validates
// callers' tokens with GET /v3/auth/tokens?nocatalog (once per token at a time), and caches each answer until the
// token expires or a TTL passes.
import type { Dispatcher } from 'undici'
import { createHttpClient } from '../http-client.ts'
import { DownstreamError, ServiceUnavailableError } from '../errors.ts'
import { keystoneChallenge, type Authenticator, type Identity, type ServiceTokenSource } from './identity.ts'

export interface KeystoneOptions {
  /** Identity v3 URL, e.g. http://keystone:5000/v3 */
  authUrl: string
  username: string
  password: string
  projectName: string
  userDomainName?: string
  projectDomainName?: string
  timeoutMs?: number
  /** Longest time a validation answer is reused (default 5 minutes). */
  cacheTtlMs?: number
  /**
   * Renew the service's own token at most this long before it expires (default: no bound). The token is renewed
   * once less than a quarter of its lifetime remains, so that short-lived tokens serve many calls each.
   */
  renewBeforeMs?: number
  /** Most cached caller tokens (default 10,000; the oldest entry is dropped first). */
  maxCachedTokens?: number
  dispatcher?: Dispatcher
  now?: () => number
}

interface KeystoneToken {
  expires_at?: string
  issued_at?: string
  user?: { id?: string, name?: string, domain?: { id?: string } }
  project?: { id?: string, name?: string, domain?: { id?: string } }
  roles?: Array<{ name?: string }>
  is_admin_project?: boolean
}

function identityOf (token: KeystoneToken): Identity | undefined {
  if (token.user?.name === undefined) return undefined
  return {
    userName: token.user.name,
    userId: token.user.id ?? token.user.name,
    userDomainId: token.user.domain?.id,
    projectId: token.project?.id,
    projectName: token.project?.name,
    projectDomainId: token.project?.domain?.id,
    roles: (token.roles ?? []).flatMap((r) => r.name === undefined ? [] : [r.name]),
    // Keystone sends is_admin_project only when an admin project is configured; without one every token counts
    // as in it, as keystoneauth and keystonemiddleware read the answer
    isAdminProject: typeof token.is_admin_project === 'boolean' ? token.is_admin_project : true,
    expiresAt: token.expires_at === undefined ? undefined : new Date(token.expires_at)
  }
}

type PasswordAuth = Pick<KeystoneOptions, 'username' | 'password' | 'projectName' | 'userDomainName' | 'projectDomainName'>

/** Keystone v3's password authentication of a user, scoped to a project (the body of POST /auth/tokens). */
export function passwordAuthBody (options: PasswordAuth) {
  return {
    auth: {
      identity: {
        methods: ['password'],
        password: { user: { name: options.username, password: options.password, domain: { name: options.userDomainName ?? 'Default' } } }
      },
      scope: { project: { name: options.projectName, domain: { name: options.projectDomainName ?? 'Default' } } }
    }
  }
}

/** Share of a service token's lifetime left when it is renewed. */
const RENEW_WHEN_LEFT = 0.25

/** The service's own Keystone token, obtained by password auth and renewed when a quarter of its lifetime is left. */
export function createKeystoneServiceToken (options: KeystoneOptions): ServiceTokenSource {
  const now = options.now ?? Date.now
  const http = createHttpClient({
    component: 'identity',
    baseUrl: options.authUrl,
    timeoutMs: options.timeoutMs ?? 10_000,
    dispatcher: options.dispatcher
  })
  let current: { token: string, renewAt: number } | undefined
  let pending: Promise<string> | undefined

  async function obtain (): Promise<string> {
    const askedAt = now()
    const response = await http.request('POST', '/auth/tokens', {
      anonymous: true,
      json: passwordAuthBody(options)
    })
    const subject = response.headers['x-subject-token']
    if (response.statusCode !== 201 || typeof subject !== 'string') {
      throw new DownstreamError(
        'identity',
        `Keystone refused the service credentials (${response.statusCode})`,
        { upstreamStatus: response.statusCode }
      )
    }
    const body = http.parseJson<{ token?: KeystoneToken }>(response, 'POST /auth/tokens')
    const expiresAt = Date.parse(body.token?.expires_at ?? '')
    const issuedAt = Date.parse(body.token?.issued_at ?? '')
    // the lifetime is Keystone's (issued_at to expires_at, both its clock) and is counted from when we asked, so
    // that a clock apart from Keystone's neither renews every call nor keeps an expired token
    const lifetimeMs = Number.isNaN(expiresAt) ? 3_600_000 : expiresAt - (Number.isNaN(issuedAt) ? askedAt : issuedAt)
    const marginMs = Math.min(lifetimeMs * RENEW_WHEN_LEFT, options.renewBeforeMs ?? Number.POSITIVE_INFINITY)
    current = { token: subject, renewAt: askedAt + lifetimeMs - marginMs }
    return subject
  }

  return {
    async token () {
      if (current !== undefined && current.renewAt > now()) return current.token
      pending ??= obtain().finally(() => { pending = undefined })
      return await pending
    },
    invalidate () { current = undefined }
  }
}

/** Validates callers' tokens against Keystone. Keystone unreachable → 503, never 401. */
export function createKeystoneAuthenticator (options: KeystoneOptions & {
  /** The process's service token, shared with its outbound clients (absent: one of its own). */
  serviceToken?: ServiceTokenSource
}): Authenticator {
  const now = options.now ?? Date.now
  const ttlMs = options.cacheTtlMs ?? 300_000
  const maxCached = options.maxCachedTokens ?? 10_000
  const serviceToken = options.serviceToken ?? createKeystoneServiceToken(options)
  const http = createHttpClient({
    component: 'identity',
    baseUrl: options.authUrl,
    timeoutMs: options.timeoutMs ?? 10_000,
    dispatcher: options.dispatcher,
    serviceAuth: serviceToken
  })
  const cache = new Map<string, { identity: Identity, until: number }>()
  // one validation per token at a time: callers arriving while it runs wait for its answer, failures included
  const inFlight = new Map<string, Promise<Identity | undefined>>()

  async function validate (token: string): Promise<Identity | undefined> {
    // nocatalog: the answer without the service catalog, which nothing here reads (Keystone v3 API)
    const response = await http.request('GET', '/auth/tokens?nocatalog', { headers: { 'x-subject-token': token } })
    if (response.statusCode === 404 || response.statusCode === 401) return undefined
    if (response.statusCode !== 200) {
      throw new DownstreamError(
        'identity',
        `Keystone answered token validation with ${response.statusCode}`,
        { upstreamStatus: response.statusCode }
      )
    }
    const body = http.parseJson<{ token?: KeystoneToken }>(response, 'GET /auth/tokens')
    return body.token === undefined ? undefined : identityOf(body.token)
  }

  return {
    wwwAuthenticate: keystoneChallenge(options.authUrl),
    async authenticate (token) {
      const cached = cache.get(token)
      if (cached !== undefined) {
        if (cached.until > now()) return cached.identity
        cache.delete(token)
      }
      let pending = inFlight.get(token)
      if (pending === undefined) {
        pending = validateAndCache(token).finally(() => inFlight.delete(token))
        inFlight.set(token, pending)
      }
      return await pending
    }
  }

  async function validateAndCache (token: string): Promise<Identity | undefined> {
    let identity: Identity | undefined
    try {
      identity = await validate(token)
    } catch (error) {
      if (error instanceof DownstreamError) {
        throw new ServiceUnavailableError(
          'Identity service unavailable',
          `Keystone could not validate the token: ${error.reason}`,
          { cause: error }
        )
      }
      throw error
    }
    if (identity === undefined) return undefined
    const expiresAt = identity.expiresAt?.getTime() ?? Number.POSITIVE_INFINITY
    if (expiresAt <= now()) return undefined
    if (cache.size >= maxCached) cache.delete(cache.keys().next().value as string)
    cache.set(token, { identity, until: Math.min(expiresAt, now() + ttlMs) })
    return identity
  }
}
