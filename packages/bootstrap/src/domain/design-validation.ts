// The design-validation use case, as Promenade answers POST /validatedesign: every outcome after the policy check is
// a validation Status body, 200 when the design validates and 400 otherwise (Shipyard reads any status up to 400),
// even a failed fetch or an unexpected failure of our own, each one validation message.
import { DownstreamError, validationStatusBody, type ValidationMessage, type ValidationStatusBody } from '@slipway/common'
import { DesignError } from '../errors.ts'
import type { CallerContext, Log } from '../types.ts'
import type { DesignSource } from './design-source.ts'
import { validateDesign } from './validate-design.ts'

/** The message Promenade answers a failed validation with (also the wording of a request it cannot read). */
export const VALIDATION_FAILED = 'Promenade validations failed'

function failure (message: string, name: string, diagnostic: string | null = null): ValidationMessage[] {
  return [{ kind: 'ValidationMessage', name, message, error: true, level: 'Error', documents: [], diagnostic }]
}

export function createDesignValidation (deps: { design: DesignSource }) {
  /** The validation messages of the design at `href`; a design that cannot be had is one message saying why. */
  async function messagesOf (href: string, ctx: CallerContext, log: Log): Promise<ValidationMessage[]> {
    try {
      return await validateDesign(await deps.design.read(href, ctx, ctx.token))
    } catch (error) {
      if (error instanceof DownstreamError) {
        return failure(`Unable to fetch the design from the store: ${error.reason}`, 'Design fetch', error.component)
      }
      if (error instanceof DesignError) return failure(error.message, error.errorType)
      log.error({ err: error }, 'design validation failed unexpectedly')
      return failure('The design could not be validated because of an unexpected error', 'Unexpected error')
    }
  }
  return {
    /** The status code and validation Status body for the design at `href`. */
    async validate (href: string, ctx: CallerContext, log: Log): Promise<{ statusCode: 200 | 400, body: ValidationStatusBody }> {
      const messages = await messagesOf(href, ctx, log)
      const failed = messages.some((m) => m.error)
      const body = validationStatusBody(messages, { message: failed ? VALIDATION_FAILED : 'Promenade validations succeeded' })
      return { statusCode: failed ? 400 : 200, body }
    }
  }
}

export type DesignValidation = ReturnType<typeof createDesignValidation>
