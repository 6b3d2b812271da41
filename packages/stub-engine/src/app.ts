// buildApp: the Airflow-shaped HTTP surface (`/api/v2`, `/auth/token`) over the engine; never listens.
import { randomUUID } from 'node:crypto'
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify'
import { loggerOptions } from '@slipway/common'
import type { Engine } from './domain/engine.ts'
import { EngineError, Unprocessable, NotFound, BadRequest, Conflict, Forbidden, Unauthenticated, UnsupportedMediaType } from './domain/errors.ts'
import { verifyJwt, type AccessClaims } from './domain/tokens.ts'
import { mayWrite, type User } from './domain/users.ts'
import { RawBody } from './http/validate.ts'
import { authRoutes } from './routes/auth.ts'
import { monitorRoutes } from './routes/monitor.ts'
import { dagRoutes } from './routes/dags.ts'
import { dagRunRoutes } from './routes/dag-runs.ts'
import { taskInstanceRoutes } from './routes/task-instances.ts'

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

export interface AppDeps {
  engine: Engine
  auth: AuthSettings
  logLevel?: string
  /** false: no logging (tests). */
  logger?: boolean
  bodyLimitBytes?: number
}

function statusOf (error: EngineError): number {
  if (error instanceof NotFound) return 404
  if (error instanceof BadRequest) return 400
  if (error instanceof Conflict) return 409
  if (error instanceof Forbidden) return 403
  if (error instanceof Unauthenticated) return 401
  if (error instanceof UnsupportedMediaType) return 415
  return 400
}

function sendError (request: FastifyRequest, reply: FastifyReply, error: unknown): void {
  if (error instanceof Unprocessable) { reply.code(422).send({ detail: error.errors }); return }
  if (error instanceof EngineError) {
    const status = statusOf(error)
    if (status === 401) reply.header('www-authenticate', 'Bearer')
    reply.code(status).send({ detail: error.detail })
    return
  }
  const e = error as Partial<FastifyError>
  switch (e.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      reply.code(422).send({ detail: [{ loc: ['body', 0], msg: 'JSON decode error', type: 'json_invalid', input: {}, ctx: { error: e.message ?? 'invalid JSON' } }] })
      return
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      reply.code(422).send({ detail: [{ loc: ['body'], msg: 'Field required', type: 'missing', input: null }] })
      return
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      reply.code(413).send({ detail: 'Request body is too large' })
      return
  }
  if (typeof e.statusCode === 'number' && e.statusCode >= 400 && e.statusCode < 500) {
    reply.code(e.statusCode).send({ detail: e.message ?? 'Bad Request' })
    return
  }
  request.log.error({ err: error }, 'unhandled error')
  reply.code(500).send({ detail: 'Internal Server Error' })
}

export function buildApp (deps: AppDeps): FastifyInstance {
  const app = Fastify({
    logger: deps.logger === false ? false : loggerOptions({ service: 'stub-engine', level: deps.logLevel }),
    genReqId: () => randomUUID(),
    bodyLimit: deps.bodyLimitBytes ?? 1024 * 1024,
    exposeHeadRoutes: false,
    routerOptions: { ignoreTrailingSlash: true }
  })

  // Form bodies for POST /auth/token; any other non-JSON body is kept raw and refused by the route (422/415).
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)))
  })
  app.addContentTypeParser('*', { parseAs: 'string' }, (request, body, done) => {
    done(null, new RawBody(body as string, request.headers['content-type'] ?? ''))
  })

  app.decorateRequest('claims', null)
  app.addHook('onRequest', async (request) => {
    const access = request.routeOptions.config.access
    if (access === undefined || access === 'public') return
    const header = request.headers.authorization
    const match = typeof header === 'string' ? /^Bearer\s+(\S+)$/i.exec(header) : null
    if (match === null) throw new Unauthenticated('Not authenticated')
    const claims = verifyJwt(deps.auth.jwtSecret, match[1]!)
    if (claims === null) throw new Unauthenticated('Invalid JWT token')
    if (access === 'write' && !mayWrite(claims.role)) throw new Forbidden('Forbidden')
    request.claims = claims
  })

  app.setErrorHandler((error, request, reply) => { sendError(request, reply, error) })
  app.setNotFoundHandler((_request, reply) => { reply.code(404).send({ detail: 'Not Found' }) })

  app.register(authRoutes, { auth: deps.auth })
  app.register(monitorRoutes, { engine: deps.engine })
  app.register(dagRoutes, { engine: deps.engine })
  app.register(dagRunRoutes, { engine: deps.engine })
  app.register(taskInstanceRoutes, { engine: deps.engine })
  return app
}
