// Outbound HTTP on undici: base URL, a timeout per call, context headers forwarded, the service's own
// token attached, and every transport failure or 5xx turned into a DownstreamError naming the component.
import { createRequire } from 'node:module'
import type { Dispatcher } from 'undici'
import { stringify as stringifyYaml } from 'yaml'
import { parseYamlDocument } from './yaml.ts'
import { DownstreamError } from './errors.ts'
import type { ServiceTokenSource } from './auth/identity.ts'
import type { Metrics } from './metrics.ts'

// undici is loaded by the first call a client makes, not with this package: a process that has called nothing yet
// (an idle stand-in, an orchestrator nobody has asked anything) carries none of it (bench/startup.ts)
const load = createRequire(import.meta.url)
let undiciRequest: typeof import('undici').request | undefined

/** The per-request facts a downstream call forwards. */
export interface CallContext {
  contextMarker?: string | undefined
  /** Forwarded as `X-End-User`. */
  user?: string | null | undefined
}

export interface HttpClientOptions {
  /** Component name used in errors and logs: `store`, `engine`, `bootstrap`, `provisioner`, ... */
  component: string
  baseUrl: string
  timeoutMs: number
  dispatcher?: Dispatcher | undefined
  /** How the service authenticates itself; absent: no `X-Auth-Token`. */
  serviceAuth?: ServiceTokenSource | undefined
  /** Largest response body read, in bytes (default 16 MiB). */
  maxResponseBytes?: number
  /** Where each call's latency and outcome is counted. */
  metrics?: Pick<Metrics, 'outbound'> | undefined
  /** Headers sent with every call (a call's own headers win), e.g. a bearer token. */
  defaultHeaders?: Record<string, string> | undefined
}

export interface CallOptions {
  ctx?: CallContext | undefined
  query?: Record<string, string | number | boolean | Array<string | number> | undefined>
  headers?: Record<string, string>
  /** Raw body; with `json` or `yaml` the body is serialised and the content type set. */
  body?: string | Buffer
  json?: unknown
  yaml?: unknown
  timeoutMs?: number
  /** Send no service token (e.g. obtaining one). */
  anonymous?: boolean
  /** This call's largest body read (instead of the client's maxResponseBytes) and the reason given above it. */
  maxResponseBytes?: { bytes: number, reason: string }
}

export interface HttpResponse {
  statusCode: number
  headers: Record<string, string | string[] | undefined>
  text: string
}

function buildUrl (baseUrl: string, path: string, query: CallOptions['query']): string {
  const url = new URL(baseUrl.replace(/\/+$/, '') + path)
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value === undefined) continue
    for (const item of Array.isArray(value) ? value : [value]) url.searchParams.append(key, String(item))
  }
  return url.toString()
}

const TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT', 'ABORT_ERR', 'ETIMEDOUT'])

function describe (error: unknown): { code: string, text: string } {
  const e = error as { code?: string, name?: string, message?: string, cause?: { code?: string, message?: string } }
  const code = e.code ?? e.cause?.code ?? e.name ?? 'Error'
  return { code, text: e.cause?.message ?? e.message ?? String(error) }
}

// OpenSSL's verification results and Node's host name check: the peer answered, with a certificate not trusted here
const CERTIFICATE_CODES = /CERT|SIGNATURE|^ERR_TLS_CERT_ALTNAME_INVALID$/

/**
 * The reason given for a call refused by TLS, else undefined: a certificate not trusted (the operator adds its CA
 * with TLS_CA_FILE) or a handshake that failed (often an https:// URL naming a plain HTTP port). Not a passing
 * trouble, so a 502 that says what to fix rather than a 503 that invites a retry.
 */
function tlsRefusal (component: string, code: unknown, text: string): string | undefined {
  // an abort's DOMException carries a numeric code
  if (typeof code !== 'string') return undefined
  if (CERTIFICATE_CODES.test(code)) {
    return `The certificate of the ${component} is not trusted (${code}: ${text.split(';')[0] ?? text}); TLS_CA_FILE names the CAs trusted beyond the default ones`
  }
  if (code.startsWith('ERR_SSL_')) return `The ${component} could not be reached over TLS (${code}); does its URL name an HTTPS port?`
  return undefined
}

async function readBody (body: Dispatcher.ResponseData['body'], limit: number, component: string, reason?: string): Promise<string> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of body) {
    size += (chunk as Buffer).length
    if (size > limit) {
      body.destroy()
      throw new DownstreamError(component, reason ?? `The ${component} answered with more than ${limit} bytes`)
    }
    chunks.push(chunk as Buffer)
  }
  return Buffer.concat(chunks).toString('utf8')
}

/** An HTTP client bound to one downstream component. */
export function createHttpClient (options: HttpClientOptions) {
  const { component, baseUrl, dispatcher, serviceAuth } = options
  const maxResponseBytes = options.maxResponseBytes ?? 16 * 1024 * 1024

  /** One call, counted: its status class, or how it failed. */
  async function once (method: Dispatcher.HttpMethod, path: string, call: CallOptions): Promise<HttpResponse> {
    if (options.metrics === undefined) return await send(method, path, call)
    const started = performance.now()
    let outcome = 'unreachable'
    try {
      const response = await send(method, path, call)
      outcome = `${Math.floor(response.statusCode / 100)}xx`
      return response
    } catch (error) {
      if (error instanceof DownstreamError && error.failure === 'timeout') outcome = 'timeout'
      throw error
    } finally {
      options.metrics.outbound(component, method, outcome, (performance.now() - started) / 1000)
    }
  }

  async function send (method: Dispatcher.HttpMethod, path: string, call: CallOptions): Promise<HttpResponse> {
    const headers: Record<string, string> = {
      accept: 'application/json, application/x-yaml;q=0.9, */*;q=0.5', ...options.defaultHeaders, ...call.headers
    }
    if (call.ctx?.contextMarker !== undefined) headers['x-context-marker'] = call.ctx.contextMarker
    if (call.ctx?.user !== undefined && call.ctx.user !== null) headers['x-end-user'] = call.ctx.user
    let body = call.body
    if (call.json !== undefined) {
      body = JSON.stringify(call.json)
      headers['content-type'] = 'application/json'
    } else if (call.yaml !== undefined) {
      body = typeof call.yaml === 'string' ? call.yaml : stringifyYaml(call.yaml)
      headers['content-type'] = 'application/x-yaml'
    }
    if (call.anonymous !== true && serviceAuth !== undefined) {
      const token = await serviceAuth.token()
      if (token !== undefined) headers['x-auth-token'] = token
    }
    const timeoutMs = call.timeoutMs ?? options.timeoutMs
    const url = buildUrl(baseUrl, path, call.query)
    let response: Dispatcher.ResponseData
    try {
      undiciRequest ??= (load('undici') as typeof import('undici')).request
      response = await undiciRequest(url, {
        method,
        headers,
        body,
        dispatcher,
        signal: AbortSignal.timeout(timeoutMs),
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs
      })
    } catch (error) {
      const { code, text } = describe(error)
      const refusedTls = tlsRefusal(component, code, text)
      if (refusedTls !== undefined) throw new DownstreamError(component, refusedTls, { failure: 'bad-response', cause: error })
      const timedOut = TIMEOUT_CODES.has(code) || (error as Error).name === 'TimeoutError'
      throw new DownstreamError(component, timedOut
        ? `The ${component} did not answer ${method} ${path} within ${timeoutMs} ms`
        : `The ${component} could not be reached (${code})`,
      { failure: timedOut ? 'timeout' : 'unreachable', cause: error })
    }
    let text: string
    try {
      text = await readBody(response.body, call.maxResponseBytes?.bytes ?? maxResponseBytes, component, call.maxResponseBytes?.reason)
    } catch (error) {
      if (error instanceof DownstreamError) throw error
      const timedOut = (error as Error).name === 'TimeoutError' || TIMEOUT_CODES.has(describe(error).code)
      throw new DownstreamError(
        component,
        `The ${component} broke off its answer to ${method} ${path}`,
        { failure: timedOut ? 'timeout' : 'unreachable', cause: error }
      )
    }
    return { statusCode: response.statusCode, headers: response.headers, text }
  }

  /**
   * Sends one request; answers any status below 500 to the caller. Transport failures, timeouts and 5xx
   * answers throw DownstreamError. A 401 with a service token renews the token and retries once.
   */
  async function request (method: Dispatcher.HttpMethod, path: string, call: CallOptions = {}): Promise<HttpResponse> {
    let response = await once(method, path, call)
    if (response.statusCode === 401 && serviceAuth !== undefined && call.anonymous !== true) {
      serviceAuth.invalidate()
      response = await once(method, path, call)
    }
    if (response.statusCode >= 500) {
      // the component's own words (a traceback, internal names) stay out of our answer: see upstreamText
      throw new DownstreamError(component, `The ${component} answered ${method} ${path} with ${response.statusCode}`,
        { failure: 'bad-response', upstreamStatus: response.statusCode, upstreamText: response.text.slice(0, 2000) })
    }
    return response
  }

  /** Like `request`, but anything other than 2xx throws DownstreamError carrying `upstreamStatus`. */
  async function expectOk (method: Dispatcher.HttpMethod, path: string, call: CallOptions = {}): Promise<HttpResponse> {
    const response = await request(method, path, call)
    if (response.statusCode < 200 || response.statusCode >= 300) {
      throw new DownstreamError(component, `The ${component} answered ${method} ${path} with ${response.statusCode}`,
        { failure: 'bad-response', upstreamStatus: response.statusCode, upstreamText: response.text.slice(0, 2000) })
    }
    return response
  }

  function parse<T> (response: HttpResponse, format: 'json' | 'yaml', what: string): T {
    try {
      return (format === 'json' ? JSON.parse(response.text) : parseYamlDocument(response.text)) as T
    } catch (error) {
      throw new DownstreamError(component, `The ${component} answered ${what} with unreadable ${format.toUpperCase()}`, { cause: error })
    }
  }

  return {
    component,
    request,
    expectOk,
    /** GET and parse a JSON answer (2xx only). */
    getJson: async <T>(path: string, call: CallOptions = {}): Promise<T> =>
      parse<T>(await expectOk('GET', path, call), 'json', `GET ${path}`),
    /** GET and parse a YAML answer (2xx only). */
    getYaml: async <T>(path: string, call: CallOptions = {}): Promise<T> =>
      parse<T>(await expectOk('GET', path, call), 'yaml', `GET ${path}`),
    /** Send a body and parse the JSON answer (2xx only). */
    sendJson: async <T>(method: Dispatcher.HttpMethod, path: string, call: CallOptions = {}): Promise<T> => {
      const response = await expectOk(method, path, call)
      return (response.text === '' ? undefined : parse<T>(response, 'json', `${method} ${path}`)) as T
    },
    /** Parse an answer already received. */
    parseJson: <T>(response: HttpResponse, what: string): T => parse<T>(response, 'json', what),
    parseYaml: <T>(response: HttpResponse, what: string): T => parse<T>(response, 'yaml', what)
  }
}

export type HttpClient = ReturnType<typeof createHttpClient>
