// Note details: the text behind a note's URL, fetched for the caller. HTTP only — schema, policy, one domain call.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { ErrorBodySchema, textAnswer } from '@slipway/common'
import type { Notes } from '../domain/notes.ts'
import { NoteParamsSchema, NoteTextSchema } from '../schemas/notes.ts'
import { VerbosityOnlySchema } from '../schemas/query.ts'
import { rule } from '../policy.ts'

export const noteRoutes: FastifyPluginAsyncTypebox<{ notes: Notes }> = async (app, { notes }) => {
  app.get('/notedetails/:note_id', {
    config: { policy: rule('get_notedetails') },
    schema: {
      params: NoteParamsSchema,
      querystring: VerbosityOnlySchema,
      response: { 200: textAnswer('text/plain', NoteTextSchema), 400: ErrorBodySchema, 404: ErrorBodySchema, 500: ErrorBodySchema }
    }
  }, async (request, reply) => {
    const text = await notes.detailText(request.params.note_id, request.ctx)
    return await reply.type('text/plain; charset=utf-8').send(text)
  })
}
