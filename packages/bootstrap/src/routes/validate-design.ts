// POST /v1.0/validatedesign (seed 001 §4.3, spec/bootstrap.md §7): every outcome after the policy check is a
// validation Status body, 200 when the design validates, 400 otherwise — Shipyard reads any status ≤ 400.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { DownstreamError, ValidationStatusBodySchema, readJsonBodies, validationStatusBody, type ValidationMessage } from '@slipway/common'
import { DesignError } from '../domain/documents.ts'
import { validateDesign } from '../domain/validate-design.ts'
import type { DesignFetcher } from '../clients/design.ts'
import { ValidateDesignBodySchema } from '../schemas/validate-design.ts'

function failure (message: string, name: string, diagnostic: string | null = null): ValidationMessage[] {
  return [{ kind: 'ValidationMessage', name, message, error: true, level: 'Error', documents: [], diagnostic }]
}

const VALIDATION_FAILED = 'Promenade validations failed'

export const validateDesignRoutes: FastifyPluginAsyncTypebox<{ fetchDesign: DesignFetcher }> = async (app, options) => {
  // spec §7.1: the body is read only as JSON; another content type is one validation message (its schema's wording)
  readJsonBodies(app)
  app.post('/validatedesign', {
    config: { policy: 'kubernetes_provisioner:post_validatedesign', invalidInput: { validationMessage: VALIDATION_FAILED } },
    schema: { body: ValidateDesignBodySchema, response: { 200: ValidationStatusBodySchema, 400: ValidationStatusBodySchema } }
  }, async (request, reply) => {
    const href = request.body.href
    let messages: ValidationMessage[]
    try {
      messages = await validateDesign(await options.fetchDesign(href, request.ctx, request.ctx.token))
    } catch (error) {
      if (error instanceof DownstreamError) messages = failure(`Unable to fetch the design from the store: ${error.reason}`, 'Design fetch', error.component)
      else if (error instanceof DesignError) messages = failure(error.message, error.errorType)
      else {
        // spec §7.4: after the policy check, even our own failure is answered as one validation message
        request.log.error({ err: error }, 'design validation failed unexpectedly')
        messages = failure('The design could not be validated because of an unexpected error', 'Unexpected error')
      }
    }
    const failed = messages.some((m) => m.error)
    const body = validationStatusBody(messages, { message: failed ? VALIDATION_FAILED : 'Promenade validations succeeded' })
    return await reply.code(failed ? 400 : 200).send(body)
  })
}
