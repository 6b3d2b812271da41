// The validators of route schemas. Bodies are JSON and keep their types (a label value of 1 is not the string
// '1'); path and query parameters arrive as text and are coerced, a single value into a list where the schema
// has one. Both report verbosely, so that a failure carries the schema whose wording answers it (./input.ts).
import { Ajv, type Options } from 'ajv'
import addFormatsModule from 'ajv-formats'
import type { FastifyInstance } from 'fastify'
import { WORDING_KEYWORDS } from './input.ts'

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv

// Fastify's own defaults (no allErrors: one error is enough, and all of them can be made expensive)
const BASE: Options = { useDefaults: true, removeAdditional: true, allErrors: false, verbose: true }

function validator (options: Options, formats: Record<string, (value: string) => boolean>): Ajv {
  const ajv = new Ajv({ ...BASE, ...options })
  addFormats(ajv)
  for (const keyword of WORDING_KEYWORDS) ajv.addKeyword(keyword)
  for (const [name, check] of Object.entries(formats)) ajv.addFormat(name, check)
  return ajv
}

/** Installs the validator compiler of the service app; `formats` are the service's own string formats. */
export function installValidators (app: FastifyInstance, formats: Record<string, (value: string) => boolean> = {}): void {
  const body = validator({ coerceTypes: false }, formats)
  const text = validator({ coerceTypes: 'array' }, formats)
  app.setValidatorCompiler(({ schema, httpPart }) => (httpPart === 'body' ? body : text).compile(schema))
}
