// The service's OpenAPI document, generated from its route schemas by @fastify/swagger: every route documents
// the error body for the statuses it does not declare, and its need of a token (none on public routes).
import swagger from '@fastify/swagger'
import type { FastifyInstance, RouteOptions } from 'fastify'
import { ErrorBodySchema } from '../schemas.ts'
import { withQuery, type CommonRouteOptions } from './routes.ts'

/** What the document says of the service. */
export interface OpenApiInfo { title: string, version: string, description?: string }

const TOKEN_SCHEME = 'X-Auth-Token'

/**
 * Registers the generator before any route (so that it sees them all) and gives every route with a schema the
 * common error body for the 4xx and 5xx statuses it does not list itself (401, 403, 405, 413, a
 * downstream's 5xx): an answer the document does not describe is a contract test failure.
 */
export function installOpenApi (app: FastifyInstance, info: OpenApiInfo): void {
  app.addHook('onRoute', (route: RouteOptions) => {
    const schema = route.schema as { response?: Record<string, unknown>, hide?: boolean } | undefined
    if (schema === undefined || schema.hide === true) return
    route.schema = { ...schema, response: { '4xx': ErrorBodySchema, '5xx': ErrorBodySchema, ...schema.response } }
  })
  app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info,
      components: { securitySchemes: { [TOKEN_SCHEME]: { type: 'apiKey', in: 'header', name: 'X-Auth-Token' } } }
    },
    transform: ({ schema, url, route }) => {
      const isPublic = (route.config as { public?: boolean } | undefined)?.public === true
      // the API is the routes that declare their answers; others (metrics, static pages) are not part of it
      const hide = (schema as { hide?: boolean } | undefined)?.hide === true ||
        (schema as { response?: unknown } | undefined)?.response === undefined
      return { schema: { ...schema, hide, security: isPublic ? [] : [{ [TOKEN_SCHEME]: [] }] } as typeof schema, url }
    }
  })
}

/** `GET <prefix>/openapi.json` (register under the API prefix): the document, without a token. */
export async function openApiRoutes (app: FastifyInstance, options: CommonRouteOptions = {}): Promise<void> {
  app.get('/openapi.json', { config: { public: true }, schema: withQuery({ hide: true }, options) }, async () => app.swagger())
}
