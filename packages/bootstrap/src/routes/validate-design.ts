// POST /v1.0/validatedesign: HTTP only — schema, policy, one use-case call; the use case answers a validation Status
// body and its status code.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { ValidationStatusBodySchema, readJsonBodies } from '@slipway/common'
import { VALIDATION_FAILED, type DesignValidation } from '../domain/design-validation.ts'
import { ValidateDesignBodySchema } from '../schemas/validate-design.ts'

export const validateDesignRoutes: FastifyPluginAsyncTypebox<{ designValidation: DesignValidation }> = async (app, options) => {
  // the body is read only as JSON; another content type is one validation message (its schema's wording)
  readJsonBodies(app)
  app.post('/validatedesign', {
    config: { policy: 'kubernetes_provisioner:post_validatedesign', invalidInput: { validationMessage: VALIDATION_FAILED } },
    schema: { body: ValidateDesignBodySchema, response: { 200: ValidationStatusBodySchema, 400: ValidationStatusBodySchema } }
  }, async (request, reply) => {
    const { statusCode, body } = await options.designValidation.validate(request.body.href, request.ctx, request.log)
    return await reply.code(statusCode).send(body)
  })
}
