// One authenticated call to the workflow engine: a JWT from /auth/token, cached until shortly before its exp and
// renewed on 401; Airflow's 404/409 `detail` bodies mapped to our errors, any other 4xx or 5xx to a DownstreamError.
import type { Dispatcher } from 'undici'
import { ConflictError, createHttpClient, DownstreamError, NotFoundError, type CallContext, type Metrics } from '@slipway/common'

export interface EngineOptions {
  baseUrl: string
  username: string
  password: string
  timeoutMs: number
  dispatcher?: Dispatcher
  now?: () => number
  metrics?: Pick<Metrics, 'outbound'>
}

/** One call: its status, its JSON body (undefined when empty or not JSON) and its text. */
export type EngineCall = <T>(
  method: Dispatcher.HttpMethod, path: string, body?: unknown, ctx?: CallContext, accept?: string
) => Promise<{ status: number, value: T, text: string }>

function expiryOf (jwt: string): number | undefined {
  try {
    const payload = JSON.parse(Buffer.from(jwt.split('.')[1] ?? '', 'base64url').toString('utf8')) as { exp?: number }
    return typeof payload.exp === 'number' ? payload.exp * 1000 : undefined
  } catch {
    return undefined
  }
}

function detailOf (text: string): string {
  try {
    const body = JSON.parse(text) as { detail?: unknown }
    if (typeof body.detail === 'string') return body.detail
    if (body.detail !== undefined) return JSON.stringify(body.detail)
  } catch {
    // not JSON: the raw text says it
  }
  return text.slice(0, 500)
}

const httpOf = (options: EngineOptions) => createHttpClient({
  component: 'engine',
  baseUrl: options.baseUrl,
  timeoutMs: options.timeoutMs,
  dispatcher: options.dispatcher,
  metrics: options.metrics
})

/** The engine's JWTs: one fetched when none is cached or it is about to run out, one fetch shared by the callers. */
function createTokenSource (options: EngineOptions) {
  const now = options.now ?? Date.now
  const auth = httpOf(options)
  let cached: { token: string, renewAt: number } | undefined
  let pending: Promise<string> | undefined

  async function obtain (): Promise<string> {
    const response = options.username === ''
      ? await auth.request('GET', '/auth/token')
      : await auth.request('POST', '/auth/token', { json: { username: options.username, password: options.password } })
    if (response.statusCode !== 200 && response.statusCode !== 201) {
      throw new DownstreamError('engine',
        `Unable to retrieve JWT token (${response.statusCode}: ${detailOf(response.text)})`,
        { failure: 'unreachable', upstreamStatus: response.statusCode }
      )
    }
    const token = auth.parseJson<{ access_token?: string }>(response, 'POST /auth/token').access_token
    if (typeof token !== 'string' || token === '') {
      throw new DownstreamError('engine', 'Unable to retrieve JWT token', { failure: 'unreachable' })
    }
    const exp = expiryOf(token)
    cached = { token, renewAt: exp === undefined ? now() + 300_000 : exp - 30_000 }
    return token
  }

  return {
    /** A token, and whether it came from the cache (a cached token may have been refused since it was issued). */
    token: async (): Promise<{ token: string, cached: boolean }> => {
      if (cached !== undefined && cached.renewAt > now()) return { token: cached.token, cached: true }
      pending ??= obtain().finally(() => { pending = undefined })
      return { token: await pending, cached: false }
    },
    invalidate: () => { cached = undefined }
  }
}

export function createEngineCall (options: EngineOptions): EngineCall {
  const tokenSource = createTokenSource(options)
  const http = httpOf(options)

  return async function call<T> (
    method: Dispatcher.HttpMethod, path: string, body?: unknown, ctx?: CallContext, accept = 'application/json'
  ): Promise<{ status: number, value: T, text: string }> {
    // Airflow reads a Bearer token; the common client sends X-Auth-Token, so put the JWT where Airflow looks
    const send = async (token: string) => await http.request(method, path, {
      ctx, json: body, headers: { authorization: `Bearer ${token}`, accept, 'cache-control': 'no-cache' }
    })
    const first = await tokenSource.token()
    let response = await send(first.token)
    // Airflow 3.1 answers an expired token 401 and one it cannot verify (its secret rotated, the server restarted)
    // 403 `Invalid JWT token`: either way a new token is fetched and the call tried once more. A 403 for a fresh
    // token is a permission the user lacks, and a second refusal is the engine's answer (a 5xx below).
    if (response.statusCode === 401 || (response.statusCode === 403 && (first.cached || /invalid jwt/i.test(response.text)))) {
      tokenSource.invalidate()
      response = await send((await tokenSource.token()).token)
    }
    if (response.statusCode === 404) {
      throw new NotFoundError('Not found in the workflow engine', detailOf(response.text), { errorType: 'AirflowError' })
    }
    if (response.statusCode === 409) {
      throw new ConflictError('Conflict in the workflow engine', detailOf(response.text), { errorType: 'AirflowError' })
    }
    if (response.statusCode >= 400) {
      throw new DownstreamError('engine',
        `The engine answered ${method} ${path} with ${response.statusCode}: ${detailOf(response.text)}`,
        { upstreamStatus: response.statusCode }
      )
    }
    const value = (response.text === '' || !accept.includes('json') ? undefined : http.parseJson<T>(response, `${method} ${path}`)) as T
    return { status: response.statusCode, value, text: response.text }
  }
}
