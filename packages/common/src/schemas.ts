// Wire shapes and query atoms both services share: the error and validation bodies, version names, the
// interface's boolean spellings and verbosity, each with the wording its bad values are answered with.
import { Type, type TSchema, type TUnsafe } from 'typebox'
import type { Decode, Wording } from './fastify/input.ts'

/** A pattern that matches `word` in any letter case (JSON Schema patterns have no case-insensitive flag). */
export function caseless (word: string): string {
  return [...word]
    .map((c) => /[a-z]/i.test(c) ? `[${c.toUpperCase()}${c.toLowerCase()}]` : c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('')
}

/** A pattern matching exactly one of `words`, in any letter case when `anyCase`. */
export function oneOfPattern (words: readonly string[], anyCase = false): string {
  return `^(?:${words.map((w) => anyCase ? caseless(w) : w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})$`
}

/** One entry of an error body's lists; entries may carry more fields (`documents`, `parameter`, ...). */
export const ErrorEntrySchema = Type.Object({ message: Type.String(), error: Type.Boolean() })

/** The interface's error body, with the upstream `messageList` and `retry` its clients read. */
export const ErrorBodySchema = Type.Object({
  apiVersion: Type.String({ description: 'Interface version, e.g. v1.0 (N/A outside a versioned path)' }),
  status: Type.Literal('Failure'),
  kind: Type.String(),
  metadata: Type.Object({}),
  message: Type.String({ description: 'Summary: the error\'s title' }),
  reason: Type.String({ description: 'Cause; for a single error equal to its message' }),
  code: Type.String({ description: 'Status with its phrase, e.g. 409 Conflict' }),
  details: Type.Object({
    errorCount: Type.Integer({ minimum: 0 }),
    errorList: Type.Array(ErrorEntrySchema),
    messageList: Type.Array(ErrorEntrySchema),
    errorType: Type.String()
  }),
  retry: Type.Boolean()
}, { description: 'Error body' })

/** One validating component's message (one entry per failing component at least, named after it). */
export const ValidationMessageSchema = Type.Object({
  name: Type.Union([Type.String(), Type.Null()]),
  error: Type.Boolean(),
  message: Type.String()
})

/** The validation aggregate (a commit's, a validatedesign's): Success or Failure with one message per finding. */
export const ValidationStatusBodySchema = Type.Object({
  kind: Type.Literal('Status'),
  apiVersion: Type.String(),
  metadata: Type.Object({}),
  status: Type.Union([Type.Literal('Success'), Type.Literal('Failure')]),
  message: Type.String(),
  reason: Type.Literal('Validation'),
  details: Type.Object({ errorCount: Type.Integer({ minimum: 0 }), messageList: Type.Array(ValidationMessageSchema) }),
  code: Type.String()
}, { description: 'Validation status' })

/** A query string that the service app decodes after validation; typed as what the route then reads. */
function decoded<T> (schema: Record<string, unknown>, decode: Decode, invalid: Wording): TUnsafe<T> {
  return Type.Unsafe<T>({ type: 'string', ...schema, 'x-decode': decode, 'x-invalid': invalid })
}

const TRUE_SPELLINGS = ['true', 't', 'yes', 'y', '1', 'on']
const FALSE_SPELLINGS = ['false', 'f', 'no', 'n', '0', 'off']

/**
 * A boolean query parameter of the orchestrator, as Shipyard parses it: true|t|yes|y|1|on and
 * false|f|no|n|0|off in any case, absent is false; anything else is 400 `Invalid <name> parameter`.
 */
export function SeedBooleanSchema (name: string, description: string) {
  return decoded<boolean>({
    pattern: oneOfPattern([...TRUE_SPELLINGS, ...FALSE_SPELLINGS], true),
    default: 'false',
    description: `${description} (true|t|yes|y|1|on or false|f|no|n|0|off, any case)`
  }, { trueValues: TRUE_SPELLINGS, caseless: true }, {
    message: `Invalid ${name} parameter`,
    reason: `${name} must be one of true, false (or t/f, yes/no, y/n, 1/0, on/off), got '{value}'`
  })
}

/** `verbosity`, which every resource accepts: 0 (none) to 5 (most), default 1. */
export const VerbositySchema = decoded<number>({
  pattern: '^[0-5]$',
  default: '1',
  description: 'Optional data in the answer: 0 (none) to 5 (most)'
}, 'integer', { message: 'Invalid verbosity parameter', reason: 'If specified, verbosity parameter should be a value from 0 to 5' })

/** The document versions a caller names: the buffer, the committed one and those of the last site actions. */
export const VERSION_NAMES = ['buffer', 'committed', 'last_site_action', 'successful_site_action'] as const
export type VersionName = (typeof VERSION_NAMES)[number]

/** One version name in any letter case; `Invalid version query parameter specified` otherwise. */
export const VersionNameSchema = decoded<VersionName>({
  pattern: oneOfPattern(VERSION_NAMES, true),
  default: 'buffer',
  description: `Version: ${VERSION_NAMES.join(', ')} (any case)`
}, 'lowercase', { message: 'Invalid version query parameter specified', reason: `version must be ${VERSION_NAMES.join(', ')}` })

/** A body read as text in any content type (configdocs take YAML however they are labelled), or none. */
export const TextBodySchema = Type.Union([Type.String(), Type.Null()])

/**
 * A response of another media type than JSON (YAML documents, logs, scripts), for one status: declared per
 * status, so that the route's error bodies stay JSON in the OpenAPI document.
 */
export function textAnswer<T extends TSchema> (mediaType: string, schema: T) {
  return { description: (schema as { description?: string }).description ?? mediaType, content: { [mediaType]: { schema } } }
}
