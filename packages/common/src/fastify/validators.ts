// The validators of route schemas. Bodies are JSON and keep their types (a label value of 1 is not the string
// '1'); path and query parameters arrive as text and are coerced, a single value into a list where the schema
// has one. Both report verbosely, so that a failure carries the schema whose wording answers it (./input.ts).
//
// Nothing of this runs at start-up: ajv is loaded when the first request reaches a route with a schema, and each
// schema is compiled when its route is first called, once for every route that declares the same schema; a request
// without a query string needs neither when every empty query is valid (the verbosity every orchestrator route takes,
// its health check's too). A service that starts, answers its health checks and idles never loads ajv or compiles a
// schema (bench/startup.ts).
import { createRequire } from 'node:module'
import type { Ajv, Options, ValidateFunction } from 'ajv'
import type { FastifyInstance } from 'fastify'
import { WORDING_KEYWORDS } from './input.ts'

const load = createRequire(import.meta.url)

// Fastify's own defaults (no allErrors: one error is enough, and all of them can be made expensive)
const BASE: Options = { useDefaults: true, removeAdditional: true, allErrors: false, verbose: true }

type Formats = Record<string, (value: string) => boolean>

function validator (options: Options, formats: Formats): Ajv {
  const { Ajv: AjvClass } = load('ajv') as typeof import('ajv')
  const addFormats = load('ajv-formats') as (ajv: Ajv) => Ajv
  const ajv = new AjvClass({ ...BASE, ...options })
  addFormats(ajv)
  for (const keyword of WORDING_KEYWORDS) ajv.addKeyword(keyword)
  for (const [name, check] of Object.entries(formats)) ajv.addFormat(name, check)
  return ajv
}

type Defaults = Array<[string, string]>
type Node = Record<string, unknown>

const isNode = (value: unknown): value is Node => value !== null && typeof value === 'object' && !Array.isArray(value)
const isEmptyObject = (value: unknown): value is Node => isNode(value) && Object.keys(value).length === 0
/** Keywords that say something of a schema and check nothing. */
const isAnnotation = (key: string): boolean => ['description', 'title', 'examples', '$comment'].includes(key) || key.startsWith('x-')

/**
 * What checking an empty object against `schema` does, when it can be told without ajv: every empty object is valid
 * and gets the defaults of the properties that have one. Only for an object schema of plain properties, nothing
 * required, whose defaults are strings of string properties matching their pattern (ajv would fill them in and find
 * them valid); undefined for anything else, which ajv checks.
 */
export function emptyObjectDefaults (schema: unknown): Defaults | undefined {
  if (!isNode(schema) || schema.type !== 'object') return undefined
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'required' && Array.isArray(value) && value.length === 0) continue
    if (!['type', 'properties', 'additionalProperties'].includes(key) && !isAnnotation(key)) return undefined
  }
  const defaults: Defaults = []
  const properties = schema.properties ?? {}
  if (!isNode(properties)) return undefined
  for (const [name, property] of Object.entries(properties)) {
    if (!isNode(property)) return undefined
    // an absent property without a default is not looked at
    if (!('default' in property)) continue
    if (Object.keys(property).some((key) => !['type', 'pattern', 'default'].includes(key) && !isAnnotation(key))) return undefined
    const { type, pattern, default: value } = property
    if (type !== 'string' || typeof value !== 'string') return undefined
    if (pattern !== undefined && (typeof pattern !== 'string' || !new RegExp(pattern, 'u').test(value))) return undefined
    defaults.push([name, value])
  }
  return defaults
}

/** What Fastify calls: the compiled function's own signature, with `errors` read after a failed call. */
type Validate = ((data: unknown, context?: unknown) => boolean) & { errors?: ValidateFunction['errors'], schemaEnv?: unknown }

/**
 * Compiles schemas on first use and once per distinct schema: routes declaring the same schema (the verbosity
 * query every orchestrator resource takes) share one compiled function, whichever object carries it.
 */
export function lazyValidators (formats: Formats = {}) {
  let body: Ajv | undefined
  let text: Ajv | undefined
  const compiled = new Map<string, ValidateFunction>()
  function compile (schema: unknown, httpPart: string | undefined): ValidateFunction {
    const kind = httpPart === 'body' ? 'body' : 'text'
    const key = `${kind}\u0000${JSON.stringify(schema)}`
    let validate = compiled.get(key)
    if (validate === undefined) {
      const ajv = kind === 'body'
        ? (body ??= validator({ coerceTypes: false }, formats))
        : (text ??= validator({ coerceTypes: 'array' }, formats))
      validate = ajv.compile(schema as object)
      compiled.set(key, validate)
    }
    return validate
  }
  /**
   * The function Fastify keeps for a route's part: it compiles the schema the first time it is called, except for an
   * empty object (a request without a query string) that the schema takes as it is, with its defaults filled in.
   */
  function forRoute (schema: unknown, httpPart: string | undefined): Validate {
    let validate: ValidateFunction | undefined
    let empty: Defaults | undefined | null = null
    const lazy: Validate = (data, context) => {
      if (empty === null) empty = emptyObjectDefaults(schema)
      if (empty !== undefined && isEmptyObject(data)) {
        for (const [name, value] of empty) data[name] = value
        lazy.errors = null
        return true
      }
      validate ??= compile(schema, httpPart)
      const valid = validate(data, context as Parameters<ValidateFunction>[1])
      lazy.errors = validate.errors
      return valid
    }
    // Fastify hands an ajv function the request as the value's parent, so that a coerced top-level value is written back
    lazy.schemaEnv = true
    return lazy
  }
  return { forRoute, compile, compiledCount: () => compiled.size }
}

/** Installs the validator compiler of the service app; `formats` are the service's own string formats. */
export function installValidators (app: FastifyInstance, formats: Formats = {}): void {
  const validators = lazyValidators(formats)
  app.setValidatorCompiler(({ schema, httpPart }) => validators.forRoute(schema, httpPart))
}
