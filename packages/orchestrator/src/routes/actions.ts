// Actions, steps, logs and control: HTTP only — schema, policy, one domain call.
import { Readable } from 'node:stream'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyReply } from 'fastify'
import { Type } from 'typebox'
import { ErrorBodySchema, readJsonBodies, textAnswer } from '@slipway/common'
import type { ActionCreator } from '../domain/actions/create.ts'
import type { ActionControl } from '../domain/actions/control.ts'
import type { ActionQueries } from '../domain/actions/queries.ts'
import type { ActionList } from '../domain/actions/list.ts'
import {
  ActionDetailSchema, ActionInputSchema, ActionParamsSchema, ActionSchema, ControlParamsSchema, ControlResponses,
  CreateQuerySchema, CreatedActionSchema, ListQuerySchema, LogParamsSchema, LogQuerySchema, LogTextSchema,
  RefusedActionSchema, StepDetailSchema, StepParamsSchema, ValidationFailureSchema, ValidationParamsSchema
} from '../schemas/actions.ts'
import { VerbosityOnlySchema } from '../schemas/query.ts'
import { rule } from '../policy.ts'
import { jsonPiecesOf } from './json-pieces.ts'

// an action's answer the domain hands out again unchanged while its inputs are (domain/kept-answers.ts) is turned into
// JSON once, for as long as it lives; with the newline every JSON answer ends with
const texts = new WeakMap<object, string>()
function serializeKept (answer: unknown): string {
  if (answer === null || typeof answer !== 'object') return `${JSON.stringify(answer)}\n`
  let text = texts.get(answer)
  if (text === undefined) {
    text = `${JSON.stringify(answer)}\n`
    texts.set(answer, text)
  }
  return text
}

/** If-None-Match names `etag` (or is `*`): weak comparison, as a GET's conditional read compares. */
function matchesTag (header: string | undefined, etag: string): boolean {
  if (header === undefined) return false
  const bare = (tag: string): string => tag.trim().replace(/^W\//, '')
  return header.split(',').some((tag) => tag.trim() === '*' || bare(tag) === bare(etag))
}

/** The action use cases the routes call, one each. */
export interface Actions { create: ActionCreator, control: ActionControl, queries: ActionQueries, list: ActionList }

type Api = Parameters<FastifyPluginAsyncTypebox>[0]

/** GET /actions (conditional on its ETag) and POST /actions. */
function listAndCreateRoutes (app: Api, actions: Actions): void {
  app.get('/actions', {
    config: { policy: rule('list_actions') },
    schema: {
      querystring: ListQuerySchema,
      response: {
        200: Type.Array(ActionSchema),
        304: Type.Unsafe<void>({ description: 'Not modified: the list is as the ETag in If-None-Match says; empty body' }),
        400: ErrorBodySchema
      }
    }
  }, async (request, reply) => {
    const { verbosity, limit, since } = request.query
    const etagOf = (version: string): string => `W/"${version}.${verbosity}.${limit ?? ''}.${since?.toUpperCase() ?? ''}"`
    const window = limit === undefined && since === undefined
      ? undefined
      : { limit: limit === undefined ? undefined : Number(limit), since: since?.toUpperCase() }
    // the list's version, read before the list (which is never older than its tag): the tag goes on the answer at
    // once, and says whether the caller holds this list already
    const holdsVersion = (version: string): boolean => {
      reply.header('etag', etagOf(version))
      return matchesTag(request.headers['if-none-match'], etagOf(version))
    }
    const { entries } = await actions.list.read(verbosity, request.ctx, window, holdsVersion)
    if (entries === undefined) return await reply.code(304).send()
    // the whole history, polled by clients: each entry made and written as the answer is sent (json-pieces.ts); the
    // schema documents them
    const pieces = Readable.from(jsonPiecesOf(entries), { objectMode: false })
    return await (reply as FastifyReply).type('application/json; charset=utf-8').send(pieces)
  })

  app.post('/actions', {
    config: { policy: rule('create_action') },
    schema: {
      body: ActionInputSchema,
      querystring: CreateQuerySchema,
      response: { 201: CreatedActionSchema, 400: ErrorBodySchema, 409: Type.Union([RefusedActionSchema, ErrorBodySchema]) }
    }
  }, async (request, reply) => {
    const input = { name: request.body.name, parameters: request.body.parameters ?? {} }
    const result = await actions.create(input, request.query['allow-intermediate-commits'], request.ctx)
    if (!result.created) return await reply.code(409).send(result.body)
    return await reply.code(201).header('location', `/api/v1.0/actions/${result.body.id}`).send(result.body)
  })
}

/** One action, its validations, steps and logs, and its control. */
function oneActionRoutes (app: Api, actions: Actions): void {
  app.get('/actions/:action_id', {
    config: { policy: rule('get_action') },
    schema: {
      params: ActionParamsSchema,
      querystring: VerbosityOnlySchema,
      response: { 200: ActionDetailSchema, 400: ErrorBodySchema, 404: ErrorBodySchema }
    }
  }, async (request, reply) => {
    const answer = await actions.queries.get(request.params.action_id, request.query.verbosity, request.ctx)
    reply.type('application/json; charset=utf-8').serializer(serializeKept)
    return answer
  })

  app.get('/actions/:action_id/validations/:validation_id', {
    config: { policy: rule('get_action_validation') },
    schema: {
      params: ValidationParamsSchema,
      querystring: VerbosityOnlySchema,
      response: { 200: ValidationFailureSchema, 400: ErrorBodySchema, 404: ErrorBodySchema }
    }
  }, async (request) => await actions.queries.validation(request.params.action_id, request.params.validation_id))

  app.get('/actions/:action_id/steps/:step_id', {
    config: { policy: rule('get_action_step') },
    schema: {
      params: StepParamsSchema,
      querystring: VerbosityOnlySchema,
      response: { 200: StepDetailSchema, 400: ErrorBodySchema, 404: ErrorBodySchema }
    }
  }, async (request) => await actions.queries.step(request.params.action_id, request.params.step_id, request.query.verbosity, request.ctx))

  app.get('/actions/:action_id/steps/:step_id/logs', {
    config: { policy: rule('get_action_step_logs') },
    schema: {
      params: LogParamsSchema,
      querystring: LogQuerySchema,
      response: { 200: textAnswer('text/plain', LogTextSchema), 400: ErrorBodySchema, 404: ErrorBodySchema }
    }
  }, async (request, reply) => {
    const { action_id: actionId, step_id: stepId } = request.params
    const tryNumber = request.query.try === undefined ? undefined : Number(request.query.try)
    const text = await actions.queries.log(actionId, stepId, tryNumber, request.ctx)
    return await reply.type('text/plain; charset=utf-8').send(text)
  })

  app.post('/actions/:action_id/control/:control_verb', {
    config: { policy: rule('invoke_action_control') },
    schema: {
      params: ControlParamsSchema,
      querystring: VerbosityOnlySchema,
      response: ControlResponses
    }
  }, async (request, reply) => {
    await actions.control(request.params.action_id, request.params.control_verb, request.ctx)
    return await reply.code(202).send()
  })
}

export const actionRoutes: FastifyPluginAsyncTypebox<{ actions: Actions }> = async (app, { actions }) => {
  // a JSON body, and one of any other content type counts as no body (as Shipyard reads it)
  readJsonBodies(app)
  listAndCreateRoutes(app, actions)
  oneActionRoutes(app, actions)
}
