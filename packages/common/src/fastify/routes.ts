// Routes every service has: the public health check and the versions document. A service whose every route takes
// the same query parameters (the orchestrator's verbosity) gives their schema as `query`; without it these routes
// declare no query.
import type { FastifyInstance } from 'fastify'
import { Type, type TSchema } from 'typebox'

/** What a service may ask of its common routes. */
export interface CommonRouteOptions {
  /** The query string schema of the route(s); default none. */
  query?: TSchema | undefined
}

/** `schema` with `query` as its query string schema when one is given; else `schema` itself. */
export const withQuery = <S extends object>(schema: S, options: CommonRouteOptions = {}): S =>
  options.query === undefined ? schema : { ...schema, querystring: options.query }

const VersionsSchema = Type.Record(
  Type.String(),
  Type.Object({ path: Type.String(), status: Type.String() }),
  { description: 'API versions' }
)

/** `GET /health` → 204, no authentication (register under the API prefix). */
export async function healthRoutes (app: FastifyInstance, options: CommonRouteOptions = {}): Promise<void> {
  const schema = withQuery({ response: { 204: Type.Unsafe<void>({ description: 'Healthy; no body' }) } }, options)
  app.get('/health', { config: { public: true }, schema }, async (_request, reply) => {
    await reply.code(204).send()
  })
}

const VERSIONS = { 'v1.0': { path: '/api/v1.0', status: 'stable' } }

/** `GET /versions` → the API versions the service serves (unauthenticated, outside /api, as upstream serves it). */
export async function versionsRoutes (app: FastifyInstance, options: CommonRouteOptions = {}): Promise<void> {
  const schema = withQuery({ response: { 200: VersionsSchema } }, options)
  app.get('/versions', { config: { public: true }, schema }, async () => VERSIONS)
}

/**
 * `GET <prefix>` (register under the API prefix) → the service, its versions and every route it serves under the
 * prefix, without authentication: the API root `npm start` prints answers something useful instead of a 404.
 */
export async function apiIndexRoutes (app: FastifyInstance, options: { service: string } & CommonRouteOptions): Promise<void> {
  const IndexSchema = Type.Object({ service: Type.String(), versions: VersionsSchema, routes: Type.Array(Type.String()) })
  app.get('/', { config: { public: true }, schema: withQuery({ response: { 200: IndexSchema } }, options) }, async () => {
    const routes = app.routeTable()
      .filter((route) => route.url.startsWith(`${app.prefix}/`))
      .map((route) => `${route.method} ${route.url}${route.public ? ' (no token)' : ''}`)
    return { service: options.service, versions: VERSIONS, routes: [...new Set(routes)] }
  })
}
