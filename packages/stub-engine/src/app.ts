// buildApp: the Airflow-shaped HTTP surface (`/api/v2`, `/auth/token`) over the engine; never listens.
import { randomUUID } from 'node:crypto'
import Fastify, { LogController, type FastifyInstance } from 'fastify'
import { loggerOptions, schemaCompilers } from '@slipway/common'
import type { Engine } from './domain/engine.ts'
import { addAuthHook, type AuthSettings } from './http/auth.ts'
import { sendError } from './http/errors.ts'
import { pythonJsonProblem } from './http/json-errors.ts'
import { RawBody } from './http/validate.ts'
import { Unprocessable } from './domain/errors.ts'
import { authRoutes } from './routes/auth.ts'
import { monitorRoutes } from './routes/monitor.ts'
import { dagRoutes } from './routes/dags.ts'
import { dagRunRoutes } from './routes/dag-runs.ts'
import { taskInstanceRoutes } from './routes/task-instances.ts'

export type { Access, AuthSettings } from './http/auth.ts'

export interface AppDeps {
  engine: Engine
  auth: AuthSettings
  logLevel?: string
  /** false: no logging (tests). */
  logger?: boolean
  bodyLimitBytes?: number
}

export function buildApp (deps: AppDeps): FastifyInstance {
  const app = Fastify({
    logger: deps.logger === false ? false : loggerOptions({ service: 'stub-engine', level: deps.logLevel }),
    // requests are logged at debug (below): the orchestrators poll the engine every second (their engine watch, the
    // site-action tags), and an idle stack prints nothing at info
    logController: new LogController({ disableRequestLogging: true }),
    genReqId: () => randomUUID(),
    bodyLimit: deps.bodyLimitBytes ?? 1024 * 1024,
    exposeHeadRoutes: false,
    routerOptions: { ignoreTrailingSlash: true },
    // no route declares a schema (bodies are checked by http/validate.ts): Fastify's own schema compilers need not be loaded
    schemaController: schemaCompilers()
  })

  // JSON bodies read as FastAPI reads them: one that is not JSON is a 422 naming where and why, as Python's decoder
  // words it; an empty one is no body at all
  app.removeContentTypeParser('application/json')
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = body as string
    if (text === '') { done(null, undefined); return }
    try {
      done(null, JSON.parse(text))
    } catch {
      const problem = pythonJsonProblem(text) ?? { message: 'Expecting value', position: 0 }
      done(new Unprocessable([{
        loc: ['body', problem.position], msg: 'JSON decode error', type: 'json_invalid', input: {}, ctx: { error: problem.message }
      }]), undefined)
    }
  })
  // Form bodies for POST /auth/token; any other non-JSON body is kept raw and refused by the route (422/415).
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)))
  })
  app.addContentTypeParser('*', { parseAs: 'string' }, (request, body, done) => {
    done(null, new RawBody(body as string, request.headers['content-type'] ?? ''))
  })

  addAuthHook(app, deps.auth)

  app.setErrorHandler((error, request, reply) => { sendError(request, reply, error) })
  app.addHook('onResponse', async (request, reply) => {
    if (request.url.startsWith('/api/v2/monitor/health')) return
    const line = { method: request.method, url: request.url.split('?')[0], statusCode: reply.statusCode, ms: Math.round(reply.elapsedTime) }
    request.log.debug(line, 'request done')
  })
  app.setNotFoundHandler((_request, reply) => { reply.code(404).send({ detail: 'Not Found' }) })

  app.register(authRoutes, { auth: deps.auth })
  app.register(monitorRoutes, { engine: deps.engine })
  app.register(dagRoutes, { engine: deps.engine })
  app.register(dagRunRoutes, { engine: deps.engine })
  app.register(taskInstanceRoutes, { engine: deps.engine })
  return app
}
