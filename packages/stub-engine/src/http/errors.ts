// Every error as Airflow's API server answers it: `{"detail": …}` with the status of its
// condition, pydantic's 422 list for bodies that fail validation, a plain 500 for anything unexpected.
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify'
import {
  BadRequest, Conflict, EngineError, Forbidden, NotFound, Unauthenticated, Unprocessable, UnprocessableText, UnsupportedMediaType
} from '../domain/errors.ts'

function statusOf (error: EngineError): number {
  if (error instanceof NotFound) return 404
  if (error instanceof BadRequest) return 400
  if (error instanceof Conflict) return 409
  if (error instanceof Forbidden) return 403
  if (error instanceof Unauthenticated) return 401
  if (error instanceof UnsupportedMediaType) return 415
  if (error instanceof UnprocessableText) return 422
  return 400
}

export function sendError (request: FastifyRequest, reply: FastifyReply, error: unknown): void {
  if (error instanceof Unprocessable) { reply.code(422).send({ detail: error.errors }); return }
  if (error instanceof EngineError) {
    const status = statusOf(error)
    if (status === 401) reply.header('www-authenticate', 'Bearer')
    reply.code(status).send({ detail: error.detail })
    return
  }
  const e = error as Partial<FastifyError>
  switch (e.code) {
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
