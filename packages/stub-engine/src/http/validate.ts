// Request checking as FastAPI/pydantic does it for Airflow: strict bodies, zone-aware datetimes, typed query and
// path parameters; every failure becomes a 422 list of {loc, msg, type, input}.
import type { TSchema } from 'typebox'
import { Value } from 'typebox/value'
import { Unprocessable } from '../domain/errors.ts'
import type { ValidationError } from '@slipway/airflow-contract'

/** A body that was not JSON (any other content type): kept raw so that the route can refuse it. */
export class RawBody {
  readonly text: string
  readonly contentType: string
  constructor (text: string, contentType: string) {
    this.text = text
    this.contentType = contentType
  }
}

const TYPE_MESSAGES: Record<string, [string, string]> = {
  string: ['string_type', 'Input should be a valid string'],
  boolean: ['bool_type', 'Input should be a valid boolean'],
  integer: ['int_type', 'Input should be a valid integer'],
  number: ['float_type', 'Input should be a valid number'],
  object: ['dict_type', 'Input should be a valid dictionary'],
  array: ['list_type', 'Input should be a valid list']
}

/** The allowed values as pydantic lists them in an enum error: `'a', 'b' or 'c'`. */
export function pydanticChoices (values: unknown[]): string {
  const quoted = values.map((v) => `'${String(v)}'`)
  return quoted.length < 2 ? quoted.join('') : `${quoted.slice(0, -1).join(', ')} or ${quoted.at(-1)!}`
}

const DATETIME = /^(\d{4})-(\d{2})-(\d{2})(?:[Tt _](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?(?:([Zz])|([+\-\u2212])(\d{2}):?(\d{2}))?)?$/

/**
 * A datetime as pydantic reads one (speedate): `YYYY-MM-DD`, then `T`, `t`, `_` or a space and `HH:MM[:SS[.f]]`
 * (`,` may separate the fraction, digits past the sixth are dropped), then `Z`, `z` or `±HH[:]MM`. Gives the
 * instant as UTC ISO 8601, `'naive'` for a valid datetime without a zone (a bare date reads as midnight, naive),
 * or null for anything else (Airflow requires a zone on every request datetime).
 */
export function readDateTime (text: string): string | 'naive' | null {
  const m = DATETIME.exec(text)
  if (m === null) return null
  const [year, month, day, hour, minute, second] =
    [1, 2, 3, 4, 5, 6].map((i) => Number(m[i] ?? 0)) as [number, number, number, number, number, number]
  const daysInMonth = new Date(Date.UTC(2000, month, 0)).getUTCDate() - (month === 2 && !isLeapYear(year) ? 1 : 0)
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth || hour > 23 || minute > 59 || second > 59) return null
  if (m[4] === undefined || (m[8] === undefined && m[9] === undefined)) return 'naive'
  const offsetMinutes = m[9] === undefined ? 0 : (m[9] === '+' ? 1 : -1) * (Number(m[10]) * 60 + Number(m[11]))
  if (Number(m[11] ?? 0) > 59 || Math.abs(offsetMinutes) >= 24 * 60) return null
  const instant = new Date(0)
  instant.setUTCFullYear(year, month - 1, day)
  instant.setUTCHours(hour, minute - offsetMinutes, second, Number((m[7] ?? '').padEnd(3, '0').slice(0, 3)))
  return instant.toISOString()
}

const isLeapYear = (year: number): boolean => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0

function dateTimeError (loc: Array<string | number>, input: string, read: 'naive' | null): ValidationError {
  return read === 'naive'
    ? { loc, msg: 'Input should have timezone info', type: 'timezone_aware', input }
    : { loc, msg: 'Input should be a valid datetime', type: 'datetime_from_date_parsing', input }
}

const isDateTimeSchema = (schema: unknown): boolean => {
  const s = schema as { type?: unknown, format?: unknown, anyOf?: unknown[] }
  return (s.type === 'string' && s.format === 'date-time') || (Array.isArray(s.anyOf) && s.anyOf.some(isDateTimeSchema))
}

/**
 * Reads the datetime fields of a body (all top-level in Airflow's request bodies) as pydantic does, which takes more
 * spellings than RFC 3339 (`+0000`, no seconds, a space for `T`) and fewer (no leap second, no `[zone]` suffix):
 * each is replaced by its UTC ISO form, or reported and replaced by a stand-in so that the schema check goes on.
 */
function readBodyDateTimes (schema: TSchema, body: Record<string, unknown>): ValidationError[] {
  const errors: ValidationError[] = []
  const properties = (schema as { properties?: Record<string, unknown> }).properties ?? {}
  for (const [key, propertySchema] of Object.entries(properties)) {
    const value = body[key]
    if (typeof value !== 'string' || !isDateTimeSchema(propertySchema)) continue
    const read = readDateTime(value)
    if (read !== null && read !== 'naive') { body[key] = read; continue }
    errors.push(dateTimeError(['body', key], value, read))
    body[key] = '1970-01-01T00:00:00.000Z'
  }
  return errors
}

function segments (pointer: string): Array<string | number> {
  if (pointer === '') return []
  return pointer.slice(1).split('/').map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~')).map((s) => /^\d+$/.test(s) ? Number(s) : s)
}

function valueAt (root: unknown, path: Array<string | number>): unknown {
  let value = root
  for (const s of path) value = (value as Record<string | number, unknown> | undefined)?.[s]
  return value
}

/** Pydantic-style errors for a value that fails `schema`, one per location. */
export function schemaErrors (schema: TSchema, value: unknown, where: string): ValidationError[] {
  const byPath = new Map<string, ValidationError>()
  const add = (path: Array<string | number>, error: Omit<ValidationError, 'loc'>): void => {
    const id = JSON.stringify(path)
    if (!byPath.has(id)) byPath.set(id, { loc: [where, ...path], ...error })
  }
  for (const e of Value.Errors(schema, value)) {
    const path = segments(e.instancePath)
    const input = valueAt(value, path)
    const params = e.params as Record<string, unknown>
    switch (e.keyword) {
      case 'additionalProperties':
        for (const extra of (params.additionalProperties as string[] | undefined) ?? []) {
          add([...path, extra], {
            msg: 'Extra inputs are not permitted', type: 'extra_forbidden', input: (input as Record<string, unknown>)[extra]
          })
        }
        break
      case 'required':
        for (const missing of (params.requiredProperties as string[] | undefined) ?? []) {
          add([...path, missing], { msg: 'Field required', type: 'missing', input })
        }
        break
      case 'format': {
        const naive = typeof input === 'string' && readDateTime(input) === 'naive' ? 'naive' : null
        const { loc, ...error } = dateTimeError(path, String(input), naive)
        add(loc, error)
        break
      }
      case 'type': {
        if (params.type === 'null') break
        const [type, msg] = TYPE_MESSAGES[String(params.type)] ?? ['type_error', e.message]
        add(path, { msg, type, input })
        break
      }
      case 'enum': {
        const expected = pydanticChoices((params.allowedValues ?? params.values) as unknown[] | undefined ?? [])
        add(path, { msg: `Input should be ${expected}`, type: 'enum', input, ctx: { expected } })
        break
      }
      case 'minimum':
        add(path, {
          msg: `Input should be greater than or equal to ${String(params.limit ?? params.minimum)}`, type: 'greater_than_equal', input
        })
        break
      case 'maxLength':
        add(path, {
          msg: `String should have at most ${String(params.limit ?? params.maxLength)} characters`, type: 'string_too_long', input
        })
        break
      case 'boolean':
        break
      default:
        break
    }
  }
  // anyOf and other composite failures that produced no specific message
  if (byPath.size === 0 && !Value.Check(schema, value)) {
    const first = [...Value.Errors(schema, value)][0]
    const path = segments(first?.instancePath ?? '')
    add(path, { msg: first?.message ?? 'Invalid input', type: 'value_error', input: valueAt(value, path) })
  }
  return [...byPath.values()]
}

/** The body checked against a strict schema, with the schema's defaults filled in; 422 otherwise. */
export function checkBody<T> (schema: TSchema, body: unknown): T {
  if (body === undefined || body === null) throw new Unprocessable([{ loc: ['body'], msg: 'Field required', type: 'missing', input: null }])
  if (body instanceof RawBody || typeof body !== 'object' || Array.isArray(body)) {
    const input = body instanceof RawBody ? body.text : body
    throw new Unprocessable([{
      loc: ['body'], msg: 'Input should be a valid dictionary or object to extract fields from', type: 'model_attributes_type', input
    }])
  }
  const read = structuredClone(body) as Record<string, unknown>
  const errors = [...readBodyDateTimes(schema, read), ...schemaErrors(schema, read, 'body')]
  if (errors.length > 0) throw new Unprocessable(errors)
  return Value.Default(schema, read) as T
}

type Query = Record<string, string | string[] | undefined>

/** Reads query parameters with pydantic's coercions; collects every problem and throws one 422 in `done()`. */
export function queryReader (query: Query) {
  const errors: ValidationError[] = []
  const last = (name: string): string | undefined => {
    const v = query[name]
    return Array.isArray(v) ? v[v.length - 1] : v
  }
  const list = (name: string): string[] | undefined => {
    const v = query[name]
    if (v === undefined) return undefined
    return Array.isArray(v) ? v : [v]
  }
  const int = (name: string, raw: string | undefined, min?: number): number | undefined => {
    if (raw === undefined) return undefined
    if (!/^-?\d+$/.test(raw.trim())) {
      errors.push({
        loc: ['query', name], msg: 'Input should be a valid integer, unable to parse string as an integer', type: 'int_parsing', input: raw
      })
      return undefined
    }
    const n = Number(raw)
    if (min !== undefined && n < min) {
      errors.push({
        loc: ['query', name],
        msg: `Input should be greater than or equal to ${min}`,
        type: 'greater_than_equal',
        input: raw,
        ctx: { ge: min }
      })
      return undefined
    }
    return n
  }
  return {
    string: last,
    list,
    int: (name: string, fallback: number, min?: number): number => int(name, last(name), min) ?? fallback,
    optionalInt: (name: string): number | undefined => int(name, last(name)),
    intList: (name: string): number[] | undefined => list(name)?.map((v) => int(name, v)).filter((n): n is number => n !== undefined),
    number (name: string): number | undefined {
      const raw = last(name)
      if (raw === undefined) return undefined
      const n = Number(raw)
      if (raw.trim() === '' || Number.isNaN(n)) {
        errors.push({
          loc: ['query', name], msg: 'Input should be a valid number, unable to parse string as a number', type: 'float_parsing', input: raw
        })
        return undefined
      }
      return n
    },
    bool (name: string): boolean | undefined {
      const raw = last(name)
      if (raw === undefined) return undefined
      const v = raw.toLowerCase()
      if (['true', '1', 'yes', 'on', 't', 'y'].includes(v)) return true
      if (['false', '0', 'no', 'off', 'f', 'n'].includes(v)) return false
      errors.push({
        loc: ['query', name], msg: 'Input should be a valid boolean, unable to interpret input', type: 'bool_parsing', input: raw
      })
      return undefined
    },
    dateTime (name: string): string | undefined {
      const raw = last(name)
      if (raw === undefined) return undefined
      // an offset's `+` sent unencoded arrives as a space
      const read = readDateTime(raw.replace(/(\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?) (\d{2}:?\d{2})$/, '$1+$2'))
      if (read === null || read === 'naive') {
        errors.push(dateTimeError(['query', name], raw, read))
        return undefined
      }
      return read
    },
    /** Every `<field>_gte|_gt|_lte|_lt` given for these fields. */
    ranges (fields: string[], numeric = false): Record<string, string | number | undefined> {
      const out: Record<string, string | number | undefined> = {}
      for (const field of fields) {
        for (const op of ['gte', 'gt', 'lte', 'lt']) {
          const name = `${field}_${op}`
          if (query[name] === undefined) continue
          out[name] = numeric ? this.number(name) : this.dateTime(name)
        }
      }
      return out
    },
    enumList (name: string, allowed: readonly string[]): string[] | undefined {
      const values = list(name)
      if (values === undefined) return undefined
      for (const v of values) {
        if (!allowed.includes(v)) {
          errors.push({ loc: ['query', name], msg: `Input should be ${allowed.map((a) => `'${a}'`).join(', ')}`, type: 'enum', input: v })
        }
      }
      return values
    },
    done (): void {
      if (errors.length > 0) throw new Unprocessable(errors)
    }
  }
}

/** A path segment that must be an integer. */
export function pathInt (name: string, raw: string): number {
  if (!/^-?\d+$/.test(raw)) {
    throw new Unprocessable([{
      loc: ['path', name], msg: 'Input should be a valid integer, unable to parse string as an integer', type: 'int_parsing', input: raw
    }])
  }
  return Number(raw)
}
