// Bad input, worded as the seeds and specs word it: route schemas carry their own wording (`x-invalid`,
// `x-missing`, ...) and this file alone turns a failed validation, an absent or undecodable body into that wording.
import secureJson from 'secure-json-parse'
import { Type } from 'typebox'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { BadRequestError, type ApiErrorOptions } from '../errors.ts'

/** Deepest nesting of objects and arrays a JSON body may have, unless the service sets its own. */
export const JSON_MAX_DEPTH = 64

/** The variable a service's ConfigSchema spreads in to make the JSON depth bound a setting. */
export const JsonBodyConfigProperties = {
  JSON_MAX_DEPTH: Type.Integer({
    default: JSON_MAX_DEPTH,
    minimum: 1,
    maximum: 10_000,
    description: 'Deepest nesting of objects and arrays accepted in a JSON request body; deeper bodies are refused with 400 before they are parsed'
  })
}

/**
 * True when `text` nests objects and arrays more than `limit` levels deep. A single pass over the characters that
 * stops at the first level too deep, so a hostile body costs no more than reading it and nothing recursive (a
 * parser, a schema check, another service) ever sees it. Brackets inside strings do not count.
 */
export function jsonNestedDeeperThan (text: string, limit: number): boolean {
  let depth = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (inString) {
      if (c === 0x5c) i++ // a backslash: the next character is escaped
      else if (c === 0x22) inString = false
    } else if (c === 0x22) {
      inString = true
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > limit) return true
    } else if (c === 0x7d || c === 0x5d) {
      depth--
    }
  }
  return false
}

/**
 * How one kind of bad input is answered. In every text `{name}` (the parameter or field), `{value}` (as sent),
 * `{detail}` (the JSON parser's words), `{path}` (the request path) and `{contentType}` are filled in.
 */
export interface Wording {
  /** The error body's `message` (its title). */
  message: string
  /** The error body's `reason`; default: the message. */
  reason?: string
  /** `details.errorType`; default `ApiError`. */
  errorType?: string
  /** List one entry `{ message, parameter }` naming the parameter, as Promenade lists parameter errors. */
  listParameter?: boolean
  /** The validation message's `name`, on routes that answer bad input as a validation Status body. */
  name?: string
}

/** Schema keywords that carry wording; they stay in the OpenAPI document as extensions. */
export const WORDING_KEYWORDS = ['x-invalid', 'x-missing', 'x-undecodable', 'x-unsupported', 'x-decode'] as const

/** How a validated query string becomes a typed value: `integer`, `lowercase`, or a boolean by its true spellings. */
export type Decode = 'integer' | 'lowercase' | { trueValues: string[], caseless: boolean }

/** A 400 worded by a route schema; the error handler renders it as an error body or a validation message. */
export class InputError extends BadRequestError {
  readonly validationName: string | undefined
  constructor (message: string, reason: string, options: ApiErrorOptions & { validationName?: string | undefined }) {
    super(message, reason, options)
    this.validationName = options.validationName
  }
}

type Fill = Partial<Record<'name' | 'value' | 'detail' | 'path' | 'contentType', string>>

const fill = (text: string, values: Fill): string =>
  text.replace(/\{(name|value|detail|path|contentType)\}/g, (whole, key: keyof Fill) => values[key] ?? whole)

/** The error a wording describes, its placeholders filled in. */
export function wordedError (wording: Wording, values: Fill): InputError {
  const message = fill(wording.message, values)
  const reason = wording.reason === undefined ? message : fill(wording.reason, values)
  return new InputError(message, reason, {
    errorType: wording.errorType,
    errorList: wording.listParameter === true ? [{ message, parameter: values.name }] : undefined,
    validationName: wording.name === undefined ? undefined : fill(wording.name, values)
  })
}

/** What the service app's ajv (`verbose`) reports of one failed keyword. */
export interface SchemaError {
  keyword: string
  instancePath: string
  params: Record<string, unknown>
  parentSchema?: unknown
  data?: unknown
}

type SchemaNode = Record<string, unknown> & { properties?: Record<string, SchemaNode> }

const wordingOf = (schema: unknown, keyword: (typeof WORDING_KEYWORDS)[number]): Wording | undefined =>
  (schema as Record<string, Wording> | undefined)?.[keyword]

/** The last named segment of a JSON pointer: the field or parameter that failed (array indexes skipped). */
function nameOf (instancePath: string, fallback: string): string {
  const names = instancePath.split('/').slice(1).map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~')).filter((s) => !/^\d+$/.test(s))
  return names.at(-1) ?? fallback
}

// never serialized: a hostile body may nest too deep to print
const textOf = (value: unknown): string => {
  if (typeof value === 'string') return value
  if (value === null || typeof value !== 'object') return String(value)
  return Array.isArray(value) ? '(a list)' : '(an object)'
}

/**
 * The worded error of a failed validation (ajv runs with `verbose`, so each error has its schema), or undefined
 * when the failing schema carries no wording. The last error is the outermost keyword (an `anyOf` after its
 * branches), so it is read first.
 */
export function wordedValidationError (errors: SchemaError[], context: string, request?: FastifyRequest): InputError | undefined {
  const path = request?.url.split('?')[0] ?? ''
  for (const error of [...errors].reverse()) {
    if (error.keyword === 'required') {
      const name = String(error.params.missingProperty ?? '')
      const wording = wordingOf((error.parentSchema as SchemaNode | undefined)?.properties?.[name], 'x-missing') ??
        wordingOf(error.parentSchema, 'x-missing')
      if (wording !== undefined) return wordedError(wording, { name, value: '', path })
      continue
    }
    const wording = wordingOf(error.parentSchema, 'x-invalid')
    if (wording !== undefined) return wordedError(wording, { name: nameOf(error.instancePath, context), value: textOf(error.data), path })
  }
  return undefined
}

const UNSUPPORTED_TYPE = Symbol('body of an unsupported content type')
type MarkedRequest = FastifyRequest & { [UNSUPPORTED_TYPE]?: boolean }

const bodySchemaOf = (request: FastifyRequest): unknown => (request.routeOptions.schema as { body?: unknown } | undefined)?.body

/**
 * The one body reader of routes that take JSON: `application/json` through secure-json-parse, which refuses
 * `__proto__` and `constructor.prototype` keys as Fastify's own parser does; an empty body, or a body of any other
 * content type, is no body (as Shipyard reads a POST /actions body), answered by the body schema's `x-missing` (or
 * `x-unsupported`) wording, and an undecodable one by its `x-undecodable` wording. A body nested deeper than
 * `maxDepth` (default: the service app's `jsonMaxDepth`, else JSON_MAX_DEPTH) is refused with 400 before it is
 * parsed. Call it inside a route plugin: the parsers are that plugin's only.
 */
export function readJsonBodies (app: FastifyInstance, options: { maxDepth?: number } = {}): void {
  const maxDepth = options.maxDepth ?? (app as { jsonMaxDepth?: number }).jsonMaxDepth ?? JSON_MAX_DEPTH
  app.removeAllContentTypeParsers()
  app.addContentTypeParser(/^application\/json/i, { parseAs: 'string' }, (request, text, done) => {
    if (text === '') { done(null, undefined); return }
    const path = request.url.split('?')[0] ?? ''
    if (jsonNestedDeeperThan(String(text), maxDepth)) {
      done(wordedError({
        message: 'JSON nested too deeply',
        reason: `{path}: the body nests objects and arrays more than ${maxDepth} levels deep; at most ${maxDepth} are accepted`,
        errorType: 'InvalidFormatError'
      }, { path }), undefined)
      return
    }
    try {
      done(null, secureJson.parse(String(text), undefined, { protoAction: 'error', constructorAction: 'error' }))
    } catch (error) {
      const wording = wordingOf(bodySchemaOf(request), 'x-undecodable') ?? { message: 'JSON could not be decoded', reason: '{detail}' }
      done(wordedError(wording, { detail: (error as Error).message, path }), undefined)
    }
  })
  app.addContentTypeParser('*', { parseAs: 'string' }, (request, text, done) => {
    if (text !== '') (request as MarkedRequest)[UNSUPPORTED_TYPE] = true
    done(null, undefined)
  })
}

/**
 * Hooks of the service app around validation: a repeated query parameter that is not a list keeps its last value
 * (as Falcon reads them for Promenade); a route whose body schema words an absent body answers that
 * before validation; after validation, query strings with `x-decode` become the typed values routes read.
 */
export function installInputHooks (app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    const query = request.query as Record<string, unknown> | undefined
    const properties = (request.routeOptions.schema?.querystring as SchemaNode | undefined)?.properties
    if (query !== undefined && properties !== undefined) {
      for (const [name, value] of Object.entries(query)) {
        if (Array.isArray(value) && Object.hasOwn(properties, name) && properties[name]?.type !== 'array') query[name] = value.at(-1)
      }
    }
    const body = bodySchemaOf(request)
    if (request.body !== undefined || body === undefined) return
    const unsupported = (request as MarkedRequest)[UNSUPPORTED_TYPE] === true
    const wording = (unsupported ? wordingOf(body, 'x-unsupported') : undefined) ?? wordingOf(body, 'x-missing')
    if (wording !== undefined) {
      throw wordedError(wording, { contentType: request.headers['content-type'] ?? '(none)', path: request.url.split('?')[0] ?? '' })
    }
  })
  app.addHook('preHandler', async (request) => {
    const query = request.query as Record<string, unknown> | undefined
    const properties = (request.routeOptions.schema?.querystring as SchemaNode | undefined)?.properties
    if (query === undefined || properties === undefined) return
    for (const [name, schema] of Object.entries(properties)) {
      const decode = schema['x-decode'] as Decode | undefined
      const value = query[name]
      if (decode === undefined || typeof value !== 'string') continue
      if (decode === 'integer') query[name] = Number(value)
      else if (decode === 'lowercase') query[name] = value.toLowerCase()
      else query[name] = decode.trueValues.includes(decode.caseless ? value.toLowerCase() : value)
    }
  })
}
