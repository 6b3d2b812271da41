// GET /v1.0/join-scripts: HTTP only — schema, policy, one use-case call.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyReply } from 'fastify'
import { ErrorBodySchema, textAnswer } from '@slipway/common'
import type { JoinScripts } from '../domain/join-scripts.ts'
import { JoinQuerySchema, JoinScriptTextSchema } from '../schemas/join-scripts.ts'

export const joinScriptRoutes: FastifyPluginAsyncTypebox<{ joinScripts: JoinScripts }> = async (app, options) => {
  app.get('/join-scripts', {
    config: { policy: 'kubernetes_provisioner:get_join_scripts' },
    schema: {
      querystring: JoinQuerySchema,
      response: {
        200: textAnswer('text/x-shellscript', JoinScriptTextSchema),
        400: ErrorBodySchema,
        500: ErrorBodySchema,
        502: ErrorBodySchema,
        503: ErrorBodySchema
      }
    }
  }, async (request, reply) => {
    const script = await options.joinScripts.script(request.query, request.ctx, request.log)
    // a stream: sent as it is written (chunked); one that fails midway breaks the connection off, so a client never
    // takes a cut-off script for a whole one. The schema documents the text it adds up to
    return await (reply as FastifyReply).type('text/x-shellscript').send(script)
  })
}
