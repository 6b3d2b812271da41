// buildApp: the store's Fastify instance — Deckhand's transport rules (YAML bodies and replies, content
// types, request ids, context echo), token authentication, policy rules, and Deckhand's error body for
// every failure. Never listens.
import Fastify, { LogController, type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify'
import { acceptAllBodiesAsText, ApiError, loggerOptions, newUuid, schemaCompilers } from '@slipway/common'
import type { StoreAppDeps } from './deps.ts'
import { StoreError, storeErrorBody } from './errors.ts'
import { bucketRoutes } from './routes/buckets.ts'
import { sendYaml, YAML_TYPE } from './routes/http.ts'
import { emitYaml } from './yaml/codec.ts'
import { revisionRoutes } from './routes/revisions.ts'
import { tagRoutes } from './routes/tags.ts'
import { validationRoutes } from './routes/validations.ts'

declare module 'fastify' {
  interface FastifyContextConfig {
    policy?: string
    public?: boolean
  }
}

const API = '/api/v1.0'
const BODYLESS = new Set(['GET', 'DELETE', 'HEAD', 'OPTIONS'])

function toStoreError (error: unknown): ApiError {
  if (error instanceof ApiError) return error
  const e = error as Partial<FastifyError>
  switch (e.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new StoreError(413, 'HTTPRequestEntityTooLarge', 'The request body is larger than this store accepts.')
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
    case 'FST_ERR_BAD_URL':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new StoreError(400, 'HTTPBadRequest', e.message ?? 'The request is malformed.')
  }
  if (typeof e.statusCode === 'number' && e.statusCode >= 400 && e.statusCode < 500) {
    return new StoreError(e.statusCode, 'HTTPError', e.message ?? 'The request could not be processed.')
  }
  return new StoreError(500, 'HTTPInternalServerError', 'Unhandled Exception raised')
}

function routePattern (url: string): RegExp {
  const escaped = url.split('/').map((s) => s.startsWith(':') ? '[^/]+' : s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('/')
  return new RegExp(`^${escaped}/?$`)
}

function tokenOf (request: FastifyRequest): string | undefined {
  const t = request.headers['x-auth-token']
  return typeof t === 'string' && t !== '' ? t : undefined
}

export function buildApp (deps: StoreAppDeps): FastifyInstance {
  const app = Fastify({
    logger: deps.logLevel === 'silent' ? false : loggerOptions({ service: 'stub-store', level: deps.logLevel }),
    logController: new LogController({ disableRequestLogging: true }),
    genReqId: () => newUuid(),
    requestIdHeader: false,
    bodyLimit: deps.bodyLimitBytes,
    exposeHeadRoutes: false,
    frameworkErrors: (error, request, reply) => { sendError(reply, request, new StoreError(400, 'HTTPBadRequest', error.message)) },
    // no route declares a schema: Fastify's own schema compilers need not be loaded at start-up
    schemaController: schemaCompilers()
  })

  // requests at debug (a stand-in: the orchestrators and the site read it all the time), health never
  app.addHook('onResponse', async (request, reply) => {
    if (request.url.endsWith('/health')) return
    const line = { method: request.method, url: request.url.split('?')[0], statusCode: reply.statusCode, ms: Math.round(reply.elapsedTime) }
    request.log.debug(line, 'request done')
  })

  function sendError (reply: FastifyReply, request: FastifyRequest, error: ApiError): void {
    if (error.statusCode >= 500) request.log.error({ errorType: error.errorType }, 'request failed')
    for (const [name, value] of Object.entries(error.headers)) reply.header(name, value)
    reply.code(error.statusCode).type(YAML_TYPE).send(emitYaml(storeErrorBody(error, request.url)))
  }

  // every body is read as text and parsed as YAML by the route; the type itself is checked in preParsing
  acceptAllBodiesAsText(app)

  const routes: Array<{ pattern: RegExp, methods: Set<string> }> = []
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method]
    const pattern = routePattern(route.url)
    const existing = routes.find((r) => r.pattern.source === pattern.source)
    if (existing !== undefined) methods.forEach((m) => existing.methods.add(m))
    else routes.push({ pattern, methods: new Set(methods) })
  })

  const allowAll = { can: () => true }
  app.decorateRequest('storeAccess', null as unknown as typeof allowAll)

  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-deckhand-req', `req-${request.id}`)
    reply.header('x-service-req', request.id)
    const marker = request.headers['x-context-marker']
    if (typeof marker === 'string' && marker !== '') reply.header('x-context-marker', marker)
    const user = request.headers['x-end-user']
    if (typeof user === 'string' && user !== '') reply.header('x-end-user', user)

    request.storeAccess = allowAll
    const config = request.routeOptions.config
    if (request.is404 || config.public === true || deps.tokens === undefined) return
    const token = tokenOf(request)
    const roles = token === undefined ? undefined : deps.tokens.get(token)
    if (roles === undefined) {
      throw new StoreError(401, 'HTTPUnauthorized', 'The request you have made requires authentication.')
    }
    const creds = { roles }
    request.storeAccess = { can: (rule) => deps.policy.allows(rule, creds) }
    if (config.policy !== undefined && !request.storeAccess.can(config.policy)) {
      throw new StoreError(403, 'HTTPForbidden', `Policy doesn't allow ${config.policy} to be performed.`)
    }
  })

  // as in Deckhand, a body needs application/x-yaml; GET/DELETE ignore whatever type they are sent with
  app.addHook('preParsing', async (request, _reply, payload) => {
    if (BODYLESS.has(request.method)) return payload
    const length = request.headers['content-length']
    const hasBody = (length !== undefined && length !== '0') || request.headers['transfer-encoding'] !== undefined
    if (!hasBody) return payload
    const type = request.headers['content-type']
    if (type === undefined || type === '') throw new StoreError(400, 'HTTPMissingHeader', 'The "Content-Type" header is required.')
    const base = type.split(';')[0]?.trim().toLowerCase()
    if (base !== YAML_TYPE) {
      throw new StoreError(415, 'HTTPUnsupportedMediaType',
        `Unexpected content type: ${type}. Expected content types are: ['${YAML_TYPE}'].`)
    }
    return payload
  })

  app.setNotFoundHandler(async (request, reply) => {
    const path = request.url.split('?')[0] ?? ''
    const allowed = [...new Set(routes.filter((r) => r.pattern.test(path)).flatMap((r) => [...r.methods]))]
    if (allowed.length > 0) {
      reply.header('allow', allowed.join(', '))
      throw new StoreError(405, 'HTTPMethodNotAllowed',
        `The method ${request.method} is not allowed on ${path}; allowed: ${allowed.join(', ')}.`)
    }
    throw new StoreError(404, 'HTTPNotFound', `The resource ${path} was not found.`)
  })

  app.setErrorHandler(async (error, request, reply) => {
    if (!(error instanceof ApiError) && (error as Partial<FastifyError>).statusCode === undefined) {
      request.log.error({ err: error }, 'unexpected error')
    }
    sendError(reply, request, toStoreError(error))
  })

  app.get('/versions', { config: { public: true } }, async (_request, reply) =>
    sendYaml(reply, 200, { 'v1.0': { path: API, status: 'stable' } }))
  app.get(`${API}/health`, { config: { public: true } }, async (_request, reply) => reply.code(204).send())
  app.register(async (api) => {
    await api.register(bucketRoutes, { store: deps.store })
    await api.register(revisionRoutes, { store: deps.store })
    await api.register(tagRoutes, { store: deps.store })
    await api.register(validationRoutes, { store: deps.store })
  }, { prefix: API })

  return app
}
