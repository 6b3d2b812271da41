// Routes every service has: the public health check and the versions document.
import type { FastifyInstance } from 'fastify'

/** `GET /health` → 204, no authentication (register under the API prefix). */
export async function healthRoutes (app: FastifyInstance): Promise<void> {
  app.get('/health', { config: { public: true } }, async (_request, reply) => {
    await reply.code(204).send()
  })
}

/** `GET /versions` → the API versions the service serves (spec/orchestrator.md §1.1, spec/bootstrap.md §9). */
export async function versionsRoutes (app: FastifyInstance): Promise<void> {
  app.get('/versions', { config: { public: true } }, async () => ({ 'v1.0': { path: '/api/v1.0', status: 'stable' } }))
}
