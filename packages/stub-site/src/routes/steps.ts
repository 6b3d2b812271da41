// POST /_stub/steps/{step}: one workflow step's site work, for whichever engine runs the site workflows. A step that
// fails is a 200 whose outcome says so; only a request that is not a step call (unknown step, bad body) is a 400.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { CallContext } from '@slipway/common'
import type { FastifyRequest } from 'fastify'
import { runStep } from '../domain/steps.ts'
import type { StepTargets } from '../domain/steps-context.ts'
import { StepAnswerSchema, StepParamsSchema, StepRequestSchema } from '../schemas/steps.ts'

/** The caller's context headers, forwarded to the store and the bootstrap service. */
function headerContext (request: FastifyRequest): CallContext {
  const header = (name: string): string | undefined => {
    const value = request.headers[name]
    return typeof value === 'string' && value.trim() !== '' ? value : undefined
  }
  return { contextMarker: header('x-context-marker'), user: header('x-end-user') }
}

export const stepRoutes: FastifyPluginAsyncTypebox<{ targets: StepTargets }> = async (app, { targets }) => {
  app.post('/steps/:step', {
    schema: { params: StepParamsSchema, body: StepRequestSchema, response: { 200: StepAnswerSchema } }
  }, async (request) => await runStep(request.params.step, request.body, headerContext(request), targets))
}
