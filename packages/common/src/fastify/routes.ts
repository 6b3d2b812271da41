// Routes every service has: the public health check and the versions document.
import type { FastifyInstance } from 'fastify'
import { Type } from 'typebox'

const VersionsSchema = Type.Record(Type.String(), Type.Object({ path: Type.String(), status: Type.String() }), { description: 'API versions' })

/** `GET /health` → 204, no authentication (register under the API prefix). */
export async function healthRoutes (app: FastifyInstance): Promise<void> {
  app.get('/health', { config: { public: true }, schema: { response: { 204: Type.Unsafe<void>({ description: 'Healthy; no body' }) } } }, async (_request, reply) => {
    await reply.code(204).send()
  })
}

const VERSIONS = { 'v1.0': { path: '/api/v1.0', status: 'stable' } }

/** `GET /versions` → the API versions the service serves (spec/orchestrator.md §1.1, spec/bootstrap.md §9). */
export async function versionsRoutes (app: FastifyInstance): Promise<void> {
  app.get('/versions', { config: { public: true }, schema: { response: { 200: VersionsSchema } } }, async () => VERSIONS)
}

/**
 * `GET <prefix>` (register under the API prefix) → the service, its versions and every route it serves under the
 * prefix, without authentication: the API root `npm start` prints answers something useful instead of a 404.
 */
export async function apiIndexRoutes (app: FastifyInstance, options: { service: string }): Promise<void> {
  const IndexSchema = Type.Object({ service: Type.String(), versions: VersionsSchema, routes: Type.Array(Type.String()) })
  app.get('/', { config: { public: true }, schema: { response: { 200: IndexSchema } } }, async () => {
    const routes = app.routeTable()
      .filter((route) => route.url.startsWith(`${app.prefix}/`))
      .map((route) => `${route.method} ${route.url}${route.public ? ' (no token)' : ''}`)
    return { service: options.service, versions: VERSIONS, routes: [...new Set(routes)] }
  })
}
