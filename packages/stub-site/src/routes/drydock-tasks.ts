// Drydock's task API (tasks, node filter, design validation) under /api/v1.0. Errors answer the stand-in's error
// body with Drydock's own `type: 'error'` beside `message` and `retry`, the fields Drydock's error answers carry.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { BadRequestError, errorBody, toApiError, type CallContext } from '@slipway/common'
import type { FastifyRequest } from 'fastify'
import { Type } from 'typebox'
import type { DesignFetcher } from '../clients/design.ts'
import type { DrydockTasks } from '../domain/drydock/tasks.ts'
import { designValidation, validateDesignDocuments } from '../domain/drydock/validate.ts'
import {
  DesignValidationSchema, TaskQuerySchema, TaskSchema, type NodeFilterRequest, type TaskCreate, type ValidateDesignRequest
} from '../schemas/drydock.ts'

/**
 * The JSON body as Drydock reads it: every field optional and checked by the handler, so that a missing one gets
 * Drydock's message; no body, or one that is not an object, reads as an empty one.
 */
function bodyOf<T> (request: FastifyRequest): Partial<T> {
  const body = request.body
  return typeof body === 'object' && body !== null && !Array.isArray(body) ? body as Partial<T> : {}
}

/** The caller's context headers, forwarded to the store and the bootstrap service. */
function headerContext (request: FastifyRequest): CallContext {
  const header = (name: string): string | undefined => {
    const value = request.headers[name]
    return typeof value === 'string' && value.trim() !== '' ? value : undefined
  }
  return { contextMarker: header('x-context-marker'), user: header('x-end-user') }
}

type DrydockTaskOptions = { tasks: DrydockTasks, fetchDesign: DesignFetcher }

export const drydockTaskRoutes: FastifyPluginAsyncTypebox<DrydockTaskOptions> = async (app, { tasks, fetchDesign }) => {
  app.setErrorHandler(async (error, request, reply) => {
    const apiError = toApiError(error, request)
    if (apiError.statusCode >= 500) request.log.error({ err: error }, 'request failed')
    for (const [name, value] of Object.entries(apiError.headers)) reply.header(name, value)
    await reply.code(apiError.statusCode).send({ ...errorBody(apiError, request.url), type: 'error' })
  })

  app.post('/tasks', {
    config: { faultable: true },
    schema: { response: { 201: TaskSchema } }
  }, async (request, reply) => {
    const task = tasks.create(bodyOf<TaskCreate>(request), headerContext(request))
    await reply.code(201).header('location', `/api/v1.0/tasks/${task.task_id}`).send(task)
  })

  app.get('/tasks', {
    config: { faultable: true },
    schema: { response: { 200: Type.Array(TaskSchema) } }
  }, async () => tasks.list())

  // no response schema: with `layers` the answer is the tasks keyed by id, not one task
  app.get('/tasks/:task_id', {
    config: { faultable: true },
    schema: { params: Type.Object({ task_id: Type.String() }), querystring: TaskQuerySchema }
  }, async (request) => tasks.get(request.params.task_id, request.query))

  app.post('/nodefilter', {
    config: { faultable: true },
    schema: { response: { 200: Type.Array(Type.String()) } }
  }, async (request) => {
    const body = bodyOf<NodeFilterRequest>(request)
    if (typeof body.design_ref !== 'string' || body.design_ref === '') {
      throw new BadRequestError('Missing input required value: design_ref')
    }
    return await tasks.nodesForFilter(body.node_filter ?? null, body.design_ref, headerContext(request))
  })

  app.post('/validatedesign', {
    config: { faultable: true },
    schema: { response: { 200: DesignValidationSchema, 400: Type.Unknown() } }
  }, async (request, reply) => {
    if (request.body === undefined || request.body === null) throw new BadRequestError('Request body must not be empty for validation.')
    const href = bodyOf<ValidateDesignRequest>(request).href
    if (typeof href !== 'string' || href === '') throw new BadRequestError('The "href" key must be provided in the request body.')
    const documents = await fetchDesign(href, headerContext(request))
    const answer = designValidation(validateDesignDocuments(documents))
    await reply.code(answer.code === 200 ? 200 : 400).send(answer)
  })
}
