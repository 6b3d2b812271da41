// Actions, steps, logs and control (seed 000 §4.6–4.11, §4.15).
import type { FastifyInstance } from 'fastify'
import { BadRequestError } from '@slipway/common'
import type { Actions } from '../domain/actions.ts'
import { queryBoolean, verbosityOf } from '../domain/format.ts'
import { rule } from '../policy.ts'

type Query = Record<string, string | string[] | undefined>
const single = (q: Query, name: string): string | undefined => { const v = q[name]; return Array.isArray(v) ? v.at(-1) : v }
type Params = { action_id: string, step_id: string, validation_id: string, control_verb: string }

/** The keys Fastify's own JSON parser refuses (prototype poisoning): this route parses its body itself. */
function refusePoisoning (key: string, value: unknown): unknown {
  if (key === '__proto__' || (key === 'constructor' && value !== null && typeof value === 'object' && Object.hasOwn(value, 'prototype'))) {
    throw new SyntaxError(`Object key ${key === '__proto__' ? key : 'constructor.prototype'} is not allowed`)
  }
  return value
}

/** The POST /actions body (spec §3.3 step 2): JSON with a string name and an object of parameters. */
function actionBody (raw: unknown, contentType: string | undefined): { name: string, parameters: Record<string, unknown> } {
  if (raw === undefined || raw === null || raw === '' || contentType === undefined || !contentType.toLowerCase().includes('application/json')) {
    throw new BadRequestError('Json body is required', 'The request must have a JSON body (Content-Type: application/json)')
  }
  let body: unknown
  try {
    body = typeof raw === 'string' ? JSON.parse(raw, refusePoisoning) : raw
  } catch (error) {
    throw new BadRequestError('JSON could not be decoded', (error as Error).message)
  }
  const b = body as { name?: unknown, parameters?: unknown } | null
  if (b === null || typeof b !== 'object' || Array.isArray(b)) throw new BadRequestError('JSON validation failed: the body must be an object')
  if (typeof b.name !== 'string' || b.name === '') throw new BadRequestError('JSON validation failed: name is required and must be a string')
  if (b.parameters !== undefined && (b.parameters === null || typeof b.parameters !== 'object' || Array.isArray(b.parameters))) {
    throw new BadRequestError('JSON validation failed: parameters must be an object')
  }
  return { name: b.name, parameters: (b.parameters ?? {}) as Record<string, unknown> }
}

export async function actionRoutes (app: FastifyInstance, options: { actions: Actions }): Promise<void> {
  const { actions } = options

  app.get('/actions', { config: { policy: rule('list_actions') } }, async (request) =>
    await actions.list(verbosityOf(single(request.query as Query, 'verbosity')), request.ctx))

  app.post('/actions', { config: { policy: rule('create_action') } }, async (request, reply) => {
    const input = actionBody(request.body, request.headers['content-type'])
    const allow = queryBoolean('allow-intermediate-commits', single(request.query as Query, 'allow-intermediate-commits'))
    const result = await actions.create(input, allow, request.ctx)
    if (!result.created) return await reply.code(409).send(result.body)
    return await reply.code(201).header('location', `/api/v1.0/actions/${result.body.id}`).send(result.body)
  })

  app.get('/actions/:action_id', { config: { policy: rule('get_action') } }, async (request) =>
    await actions.get((request.params as Params).action_id, verbosityOf(single(request.query as Query, 'verbosity')), request.ctx))

  app.get('/actions/:action_id/validations/:validation_id', { config: { policy: rule('get_action_validation') } }, async (request) => {
    const p = request.params as Params
    return await actions.validation(p.action_id, p.validation_id)
  })

  app.get('/actions/:action_id/steps/:step_id', { config: { policy: rule('get_action_step') } }, async (request) => {
    const p = request.params as Params
    return await actions.step(p.action_id, p.step_id, verbosityOf(single(request.query as Query, 'verbosity')), request.ctx)
  })

  app.get('/actions/:action_id/steps/:step_id/logs', { config: { policy: rule('get_action_step_logs') } }, async (request, reply) => {
    const p = request.params as Params
    if (p.action_id.length !== 26) throw new BadRequestError('Invalid Action ID!', `Action ids are 26 characters, got '${p.action_id}'`)
    const tryText = single(request.query as Query, 'try')
    if (tryText !== undefined && !/^[1-9]\d{0,5}$/.test(tryText)) throw new BadRequestError('Invalid try parameter', 'try must be a positive integer')
    const text = await actions.log(p.action_id, p.step_id, tryText === undefined ? undefined : Number(tryText), request.ctx)
    return await reply.type('text/plain; charset=utf-8').send(text)
  })

  app.post('/actions/:action_id/control/:control_verb', { config: { policy: rule('invoke_action_control') } }, async (request, reply) => {
    const p = request.params as Params
    await actions.control(p.action_id, p.control_verb, request.ctx)
    return await reply.code(202).send()
  })
}
