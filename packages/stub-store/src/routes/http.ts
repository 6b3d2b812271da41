// HTTP helpers shared by the route files: YAML replies, YAML bodies, the caller's access and base URL.
import type { FastifyReply, FastifyRequest } from 'fastify'
import { StoreError } from '../errors.ts'
import type { Access } from '../domain/store.ts'
import type { Query } from '../domain/filters.ts'
import { emitYamlBuffer, parseYamlStream, YamlSyntaxError, type ParsedDocument } from '../yaml/codec.ts'

declare module 'fastify' {
  interface FastifyRequest {
    /** What the caller may do (policy rules), set once authenticated. */
    storeAccess: Access
  }
}

export const YAML_TYPE = 'application/x-yaml'

/** A mapping as one YAML document. */
export function sendYaml (reply: FastifyReply, status: number, value: unknown): FastifyReply {
  return reply.code(status).type(YAML_TYPE).send(emitYamlBuffer([value], false))
}

/** A list as a YAML stream; an empty list is an empty body. */
export function sendYamlList (reply: FastifyReply, status: number, values: unknown[]): FastifyReply {
  return reply.code(status).type(YAML_TYPE).send(emitYamlBuffer(values, true))
}

// the bytes emitted for a list, for as long as the list lives: a list the store hands out again (a cached rendering's
// whole answer, kept with the rendering) is sent as it was emitted the first time, not emitted again
const emitted = new WeakMap<unknown[], Buffer>()

/** sendYamlList for a list the store may hand out again unchanged: each list is emitted once. */
export function sendYamlListKept (reply: FastifyReply, status: number, values: unknown[]): FastifyReply {
  let bytes = emitted.get(values)
  if (bytes === undefined) {
    bytes = emitYamlBuffer(values, true)
    emitted.set(values, bytes)
  }
  return reply.code(status).type(YAML_TYPE).send(bytes)
}

export function sendNoContent (reply: FastifyReply): FastifyReply {
  return reply.code(204).send()
}

function bodyText (request: FastifyRequest): string {
  return typeof request.body === 'string' ? request.body : ''
}

/** Every document of the request body (none for an empty body). */
export function bodyDocuments (request: FastifyRequest): ParsedDocument[] {
  try {
    return parseYamlStream(bodyText(request))
  } catch (error) {
    if (error instanceof YamlSyntaxError) {
      throw new StoreError(400, 'HTTPBadRequest', `The request body must be properly formatted YAML. Details: ${error.message}`)
    }
    throw error
  }
}

/** The first document of the body, or undefined when the body holds none. */
export function bodyDocument (request: FastifyRequest): ParsedDocument | undefined {
  return bodyDocuments(request)[0]
}

export function queryOf (request: FastifyRequest): Query {
  return (request.query ?? {}) as Query
}

/** Our own API root as the caller reached it, for `url` fields. */
export function baseUrl (request: FastifyRequest): string {
  return `${request.protocol}://${request.host}/api/v1.0`
}
