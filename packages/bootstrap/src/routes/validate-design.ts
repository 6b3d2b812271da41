// POST /v1.0/validatedesign (seed 001 §4.3, spec/bootstrap.md §7): every outcome after the policy check is a
// validation Status body, 200 when the design validates, 400 otherwise — Shipyard reads any status ≤ 400.
import type { FastifyInstance } from 'fastify'
import { DownstreamError, validationStatusBody, type ValidationMessage } from '@slipway/common'
import { DesignError } from '../domain/documents.ts'
import { validateDesign } from '../domain/validate-design.ts'
import type { DesignFetcher } from '../clients/design.ts'

function failure (message: string, name: string, diagnostic: string | null = null): ValidationMessage[] {
  return [{ kind: 'ValidationMessage', name, message, error: true, level: 'Error', documents: [], diagnostic }]
}

function hrefOf (body: unknown, contentType: string | undefined): string | ValidationMessage[] {
  if (body === undefined || body === null || body === '') return failure('Missing input: a JSON body with href is required', 'Missing body')
  if (contentType === undefined || !contentType.toLowerCase().startsWith('application/json')) {
    return failure(`Content type must be application/json, got ${contentType ?? '(none)'}`, 'Invalid content type')
  }
  let parsed: unknown
  try {
    parsed = JSON.parse(String(body))
  } catch (error) {
    return failure(`Invalid JSON Format: ${(error as Error).message}`, 'JSON could not be decoded')
  }
  const href = (parsed as { href?: unknown } | null)?.href
  if (typeof href !== 'string' || href === '') return failure('The body must be an object with a string href', 'Missing href')
  return href
}

export async function validateDesignRoutes (app: FastifyInstance, options: { fetchDesign: DesignFetcher }): Promise<void> {
  app.post('/validatedesign', { config: { policy: 'kubernetes_provisioner:post_validatedesign' } }, async (request, reply) => {
    const href = hrefOf(request.body, request.headers['content-type'])
    let messages: ValidationMessage[]
    if (typeof href !== 'string') {
      messages = href
    } else {
      try {
        messages = validateDesign(await options.fetchDesign(href, request.ctx, request.ctx.token))
      } catch (error) {
        if (error instanceof DownstreamError) messages = failure(`Unable to fetch the design from the store: ${error.reason}`, 'Design fetch', error.component)
        else if (error instanceof DesignError) messages = failure(error.message, error.errorType)
        else {
          // spec §7.4: after the policy check, even our own failure is answered as one validation message
          request.log.error({ err: error }, 'design validation failed unexpectedly')
          messages = failure('The design could not be validated because of an unexpected error', 'Unexpected error')
        }
      }
    }
    const failed = messages.some((m) => m.error)
    const body = validationStatusBody(messages, { message: failed ? 'Promenade validations failed' : 'Promenade validations succeeded' })
    return await reply.code(failed ? 400 : 200).send(body)
  })
}
