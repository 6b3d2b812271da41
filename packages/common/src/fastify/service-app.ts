// Builds a service's Fastify instance with what every Slipway service shares: request ids and context,
// authentication and the policy rule of each route, and the one error body for every failure.
import { STATUS_CODES } from 'node:http'
import Fastify, {
  LogController, type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest, type FastifyServerOptions
} from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import {
  ApiError, BadRequestError, ForbiddenError, InternalError, MethodNotAllowedError, NotFoundError,
  PayloadTooLargeError, UnauthenticatedError, UnsupportedMediaTypeError, errorBody, statusLine, validationStatusBody, type ErrorBody
} from '../errors.ts'
import { isUuid, newUuid } from '../ids.ts'
import { loggerOptions } from '../logger.ts'
import type { Authenticator, Identity } from '../auth/identity.ts'
import { PolicyError, type Credentials, type Policy, type Target } from '../auth/policy.ts'
import type { Metrics } from '../metrics.ts'
import { lazyValidators } from './validators.ts'
import { installOpenApi, type OpenApiInfo } from './openapi.ts'
import { InputError, JSON_MAX_DEPTH, installInputHooks, wordedValidationError, type SchemaError } from './input.ts'
import { answerPlainHttp, type ServerTls } from '../tls.ts'

/** Per-request facts every handler and downstream call needs (`request.ctx`). */
export interface RequestContext {
  requestId: string
  /** The caller's `X-Context-Marker` when it is a UUID, else the request id. */
  contextMarker: string
  authenticated: boolean
  /** User name from the token; forwarded as `X-End-User`. */
  user: string | null
  userId: string | null
  projectId: string | null
  roles: string[]
  /** The caller's own token, for calls made on the caller's behalf (never logged). */
  token: string | undefined
  /** Throws 401/403 unless `rule` allows the caller; for checks beyond the route's own rule. */
  authorize: (rule: string, target?: Target) => void
}

/** One route as registered: for tests that must cover every route without listing them by hand. */
export interface RouteEntry { method: string, url: string, public: boolean, policy: string | undefined }

declare module 'fastify' {
  interface FastifyRequest { ctx: RequestContext }
  interface FastifyInstance {
    /** Every route registered on the service app, with its method, URL pattern, and auth facts. */
    routeTable: () => RouteEntry[]
    /** Deepest nesting of objects and arrays the service's JSON bodies may have (readJsonBodies). */
    jsonMaxDepth: number
  }
  interface FastifyContextConfig {
    /** Policy rule guarding the route (oslo.policy rule names, as upstream names them). */
    policy?: string
    /** No authentication (health, versions). */
    public?: boolean
    /**
     * Bad input answered as a validation Status body with this message and one validation message, not as an
     * error body (the bootstrap service's validatedesign, as Promenade answers it).
     */
    invalidInput?: { validationMessage: string }
  }
}

export interface ServiceAppOptions {
  /** Service name on every log line. */
  service: string
  logLevel?: string
  /** The level of each request's `request done` line (default info: the services'; the stand-ins' debug). */
  requestLogLevel?: 'info' | 'debug'
  /** Disable logging entirely (tests). */
  logger?: boolean
  bodyLimitBytes?: number
  /** Deepest nesting of objects and arrays in a JSON body (default JSON_MAX_DEPTH); deeper ones are a 400. */
  jsonMaxDepth?: number
  /** Absent: no authentication at all (stand-ins). */
  authenticator?: Authenticator | undefined
  policy?: Policy | undefined
  /** More response headers carrying the request id beside `x-service-req` (the bootstrap service: `x-deckhand-req`). */
  requestIdHeaders?: string[]
  /**
   * Which `X-Context-Marker` values are taken: `uuid` (the orchestrator, as Shipyard takes them; anything else is
   * replaced by the request id) or `any` non-empty value (the bootstrap service, as Promenade takes them).
   */
  contextMarkers?: 'uuid' | 'any'
  /** Echo the caller's `X-End-User` on every response, errors included (as Promenade's middleware does). */
  echoEndUser?: boolean
  /** Counts every request by route and status, and serves the registry at `GET /metrics` (no token). */
  metrics?: Metrics | undefined
  /** The OpenAPI document generated from the route schemas (serve it with `openApiRoutes`); absent: none. */
  openapi?: OpenApiInfo
  /** String formats route schemas may name (`format: 'design-ref'`), checked by these functions. */
  formats?: Record<string, (value: string) => boolean>
  /** Serve HTTPS only, with this certificate and key (readTlsSettings); absent: plain HTTP. */
  https?: ServerTls | undefined
}

export type ServiceApp = FastifyInstance & ReturnType<FastifyInstance['withTypeProvider']>

const HEALTH_PATH = /\/health$/

const serializeAsIs = (data: unknown): string => JSON.stringify(data)

/**
 * Fastify's `schemaController` option of every Slipway app: route schemas checked by our validators (compiled on first
 * use, ./validators.ts), answers serialized as they are (response schemas document them, and the contract tests hold
 * answers to them, but never reshape one). Given as an option, Fastify's own compilers (ajv and fast-json-stringify, a
 * copy of ajv each, about 200 modules) are never loaded, also by an app that declares no schema at all.
 */
export function schemaCompilers (validators = lazyValidators()): FastifyServerOptions['schemaController'] {
  return {
    compilersFactory: {
      buildValidator: () => ({ schema, httpPart }: { schema: unknown, httpPart?: string }) => validators.forRoute(schema, httpPart),
      buildSerializer: () => () => serializeAsIs
    }
  } as unknown as FastifyServerOptions['schemaController']
}

/** A whole HTTP/1.1 answer carrying `failure`'s error body, for a connection no request of Fastify's is made of. */
function rawAnswer (failure: ApiError, idHeaders: string[]): string {
  const body = `${JSON.stringify(errorBody(failure))}\n`
  // no request was made of it, but every answer carries a request id (the interface's x-service-req)
  const ids = idHeaders.map((name) => `${name}: ${newUuid()}\r\n`).join('')
  return `HTTP/1.1 ${statusLine(failure.statusCode)}\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\n${ids}connection: close\r\n\r\n${body}`
}

function routePattern (url: string): RegExp {
  const escaped = url.split('/').map((segment) => {
    if (segment.startsWith(':')) return '[^/]+'
    if (segment === '*') return '.*'
    return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  }).join('/')
  return new RegExp(`^${escaped}$`)
}

/** Maps any error to an ApiError: ours as they are, Fastify's by code, anything else to a bare 500. */
export function toApiError (error: unknown, request?: FastifyRequest): ApiError {
  if (error instanceof ApiError) return error
  const e = error as Partial<FastifyError> & { validation?: unknown[], validationContext?: string }
  if (e.validation !== undefined) {
    const worded = wordedValidationError(e.validation as SchemaError[], e.validationContext ?? 'input', request)
    if (worded !== undefined) return worded
    return new InputError(
      `Invalid ${e.validationContext ?? 'input'}`,
      e.message ?? 'The request does not match the schema',
      { errorType: 'InvalidFormatError' }
    )
  }
  switch (e.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE': return new PayloadTooLargeError(request?.routeOptions.bodyLimit ?? 0)
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new UnsupportedMediaTypeError(request?.headers['content-type'], ['a content type the route accepts'])
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new BadRequestError('Invalid JSON body', 'The body is empty but its content type is JSON', { errorType: 'InvalidFormatError' })
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
    case 'FST_ERR_BAD_URL':
    case 'FST_ERR_ASYNC_CONSTRAINT':
      return new BadRequestError('Bad Request', e.message ?? 'The request is malformed', { errorType: 'InvalidFormatError' })
  }
  if (error instanceof SyntaxError || (e.statusCode === 400 && e.message !== undefined)) {
    return new BadRequestError('Bad Request', e.message ?? 'The request is malformed', { errorType: 'InvalidFormatError' })
  }
  if (typeof e.statusCode === 'number' && e.statusCode >= 400 && e.statusCode < 500) {
    // a plugin's own 4xx: titled by its status phrase, not the error's class name
    return new ApiError(e.statusCode, STATUS_CODES[e.statusCode] ?? 'Client Error', e.message)
  }
  return new InternalError('Unhandled Exception raised', 'An unexpected error occurred; the service log has the details')
}

function credentialsOf (identity: Identity | undefined): Credentials {
  return {
    user_id: identity?.userId ?? null,
    user_domain_id: identity?.userDomainId ?? null,
    project_id: identity?.projectId ?? null,
    project_domain_id: identity?.projectDomainId ?? null,
    // every authenticated caller also has the role `anyone`, as Shipyard's context gives it
    roles: identity === undefined ? [] : ['anyone', ...identity.roles.filter((role) => role !== 'anyone')],
    // oslo.policy's credential from the token (is_admin_project as Keystone says); no token is in no project
    is_admin_project: identity === undefined ? false : identity.isAdminProject ?? true
  }
}

/**
 * A Fastify instance with Slipway's shared behaviour installed. Register routes on it afterwards;
 * `config.policy` names a route's rule, `config.public` skips authentication.
 */
export function createServiceApp (options: ServiceAppOptions) {
  const idHeaders = ['x-service-req', ...(options.requestIdHeaders ?? [])]
  const validators = lazyValidators(options.formats)
  const app = Fastify({
    // typed as the plain HTTP server's options: the app is the same Fastify instance whichever server carries it
    ...(options.https === undefined ? {} : { https: options.https } as unknown as FastifyServerOptions),
    logger: options.logger === false ? false : loggerOptions({ service: options.service, level: options.logLevel }),
    logController: new LogController({ disableRequestLogging: true }),
    genReqId: () => newUuid(),
    requestIdHeader: false,
    bodyLimit: options.bodyLimitBytes ?? 1024 * 1024,
    exposeHeadRoutes: false,
    // Kubernetes node names run to 253 characters; longer path parameters are still refused as 404
    routerOptions: { maxParamLength: 512 },
    // requests Node's HTTP parser refuses before Fastify sees them (oversized headers or request line, bad framing)
    // still get an error body, then the connection is closed
    clientErrorHandler: (error, socket) => {
      if (!socket.writable) { socket.destroy(); return }
      const code = (error as { code?: string }).code
      const failure = code === 'HPE_HEADER_OVERFLOW'
        ? new ApiError(431, 'Request Header Fields Too Large', 'The request line or headers are larger than this service accepts')
        : code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? new ApiError(408, 'Request Timeout', 'The request was not received in time')
          : new BadRequestError('Bad Request', 'The request could not be parsed as HTTP', { errorType: 'InvalidFormatError' })
      socket.end(rawAnswer(failure, idHeaders))
    },
    frameworkErrors: (error, request, reply) => {
      for (const name of idHeaders) reply.header(name, request.id)
      sendError(reply, request, new BadRequestError('Bad Request', error.message, { errorType: 'InvalidFormatError' }))
    },
    schemaController: schemaCompilers(validators)
  }).withTypeProvider<TypeBoxTypeProvider>()

  if (options.https !== undefined) {
    answerPlainHttp(app.server, () => rawAnswer(new BadRequestError(
      'Bad Request', 'This port speaks HTTPS only: the request came in plain HTTP (use https://)', { errorType: 'InvalidFormatError' }
    ), idHeaders))
  }
  if (options.openapi !== undefined) installOpenApi(app, options.openapi)
  installInputHooks(app)

  const routes: Array<{ pattern: RegExp, methods: Set<string> }> = []
  const table: RouteEntry[] = []
  app.decorate('routeTable', () => [...table])
  app.decorate('jsonMaxDepth', options.jsonMaxDepth ?? JSON_MAX_DEPTH)
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method]
    const config = route.config as { public?: boolean, policy?: string } | undefined
    for (const method of methods) table.push({ method, url: route.url, public: config?.public === true, policy: config?.policy })
    const existing = routes.find((r) => r.pattern.source === routePattern(route.url).source)
    if (existing !== undefined) methods.forEach((m) => existing.methods.add(m))
    else routes.push({ pattern: routePattern(route.url), methods: new Set(methods) })
  })

  function sendError (reply: FastifyReply, request: FastifyRequest, error: ApiError): void {
    const asValidation = request.routeOptions.config?.invalidInput
    if (error instanceof InputError && asValidation !== undefined) {
      const message = {
        kind: 'ValidationMessage' as const,
        name: error.validationName ?? error.message,
        message: error.reason,
        error: true,
        level: 'Error',
        documents: [],
        diagnostic: null
      }
      const validationBody = validationStatusBody([message], { message: asValidation.validationMessage })
      reply.code(400).type('application/json; charset=utf-8').send(validationBody)
      return
    }
    const body: ErrorBody = errorBody(error, request.url)
    for (const [name, value] of Object.entries(error.headers)) reply.header(name, value)
    reply.code(error.statusCode).type('application/json; charset=utf-8').send(body)
  }

  app.decorateRequest('ctx', null as unknown as RequestContext)

  app.addHook('onRequest', async (request, reply) => {
    // before authentication, so that 401 and 403 answers carry them too
    for (const name of idHeaders) reply.header(name, request.id)
    const marker = request.headers['x-context-marker']
    const acceptable = typeof marker === 'string' && (options.contextMarkers === 'any' ? marker.trim() !== '' : isUuid(marker))
    const contextMarker = acceptable ? marker : request.id
    reply.header('x-context-marker', contextMarker)
    const endUser = request.headers['x-end-user']
    if (options.echoEndUser === true && typeof endUser === 'string' && endUser !== '') reply.header('x-end-user', endUser)
    const tokenHeader = request.headers['x-auth-token']
    const token = typeof tokenHeader === 'string' && tokenHeader !== '' ? tokenHeader : undefined
    let identity: Identity | undefined
    let checked = false
    const ensureIdentity = async (): Promise<void> => {
      if (checked) return
      checked = true
      if (token !== undefined && options.authenticator !== undefined) identity = await options.authenticator.authenticate(token)
    }
    const ctx: RequestContext = {
      requestId: request.id,
      contextMarker,
      authenticated: false,
      user: null,
      userId: null,
      projectId: null,
      roles: [],
      token,
      authorize (rule, target) {
        const auth = options.authenticator
        if (auth === undefined) return
        let allowed: boolean
        try {
          allowed = options.policy?.allows(
            rule,
            credentialsOf(identity),
            { project_id: ctx.projectId, user_id: ctx.userId, ...target }
          ) ?? ctx.authenticated
        } catch (error) {
          // a rule that cannot be evaluated is the service's fault: 500, not the 417 Expectation Failed upstream
          // answers
          if (error instanceof PolicyError) throw new InternalError('Policy check failed', error.message, { retry: false })
          throw error
        }
        if (allowed) return
        if (!ctx.authenticated) throw new UnauthenticatedError({ headers: { 'www-authenticate': auth.wwwAuthenticate } })
        throw new ForbiddenError()
      }
    }
    request.ctx = ctx
    const config = request.routeOptions.config
    if (request.is404 || config.public === true || options.authenticator === undefined) return
    await ensureIdentity()
    if (identity !== undefined) {
      ctx.authenticated = true
      ctx.user = identity.userName
      ctx.userId = identity.userId
      ctx.projectId = identity.projectId ?? null
      ctx.roles = identity.roles
    }
    // every non-public route needs a valid token whatever its rule says, so that a permissive rule
    // (`@`, `not role:x`) in a policy file cannot open it to anonymous callers; then the route's rule runs, before
    // any input is parsed, as upstream does: no token → 401, not 400
    if (!ctx.authenticated) throw new UnauthenticatedError({ headers: { 'www-authenticate': options.authenticator.wwwAuthenticate } })
    if (config.policy !== undefined) ctx.authorize(config.policy)
  })

  // JSON answers end with a newline, so that what a terminal shows after `curl` starts on a line of its own
  app.addHook('onSend', async (_request, reply, payload) => {
    const type = String(reply.getHeader('content-type') ?? '')
    return typeof payload === 'string' && type.startsWith('application/json') && !payload.endsWith('\n') ? `${payload}\n` : payload
  })

  const metrics = options.metrics
  if (metrics !== undefined) {
    // Prometheus text format for scrapers: no token, as health
    app.get('/metrics', { config: { public: true } }, async (_request, reply) => {
      await reply.type(metrics.registry.contentType).send(await metrics.registry.metrics())
    })
  }

  app.addHook('onResponse', async (request, reply) => {
    // by route pattern, never the raw URL: one series per route, whatever ids it is called with
    metrics?.request(request.method, request.routeOptions.url ?? 'unmatched', reply.statusCode, reply.elapsedTime / 1000)
    if (reply.statusCode === 204 && HEALTH_PATH.test(request.url)) return
    const line = { method: request.method, url: request.url.split('?')[0], statusCode: reply.statusCode, ms: Math.round(reply.elapsedTime) }
    request.log[options.requestLogLevel ?? 'info'](line, 'request done')
  })

  app.setNotFoundHandler(async (request, reply) => {
    const path = request.url.split('?')[0] ?? ''
    const allowed = routes.filter((r) => r.pattern.test(path)).flatMap((r) => [...r.methods])
    if (allowed.length > 0) {
      if (request.method === 'OPTIONS') {
        await reply.code(200).header('allow', [...new Set([...allowed, 'OPTIONS'])].join(', ')).send()
        return
      }
      throw new MethodNotAllowedError(request.method, [...new Set([...allowed, 'OPTIONS'])])
    }
    throw new NotFoundError('Not Found', `The resource ${path} does not exist`, { errorType: 'HTTPRouteNotFound' })
  })

  app.setErrorHandler(async (error, request, reply) => {
    const apiError = toApiError(error, request)
    if (apiError.statusCode >= 500) request.log.error({ err: error, requestId: request.id }, 'request failed')
    sendError(reply, request, apiError)
  })

  return app
}

/** Every body, of whatever content type, reaches the routes as a raw string: each route parses its own. */
export function acceptAllBodiesAsText (app: FastifyInstance): void {
  app.removeAllContentTypeParsers()
  app.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => { done(null, body) })
}

/** Accepts bodies of the given content types as raw strings (the route parses them, e.g. YAML). */
export function acceptTextBodies (app: FastifyInstance, contentTypes: string[]): void {
  app.addContentTypeParser(contentTypes, { parseAs: 'string' }, (_request, body, done) => { done(null, body) })
}
