// Document values as the store holds them: JSON-like trees plus the YAML 1.1 extras (timestamps, binary,
// non-finite floats, floats with whole-number values), their storage encoding, deep copies, and
// Python-compatible JSON and str() for hashes and messages.
import { createHash } from 'node:crypto'

export type Mapping = Record<string, unknown>

/**
 * A YAML float whose value is a whole number (`1.0`, `1.0e+3`, `1:30.0`). A JS number cannot tell 1.0 from
 * 1, but PyYAML keeps it a float: json.dumps writes `1.0` (so hashes and diffs differ from `1`), str() gives
 * `1.0` and it is emitted as `1.0`. Immutable, shared like a Date.
 */
export class WholeFloat {
  readonly value: number
  constructor (value: number) {
    this.value = value
  }

  /** Python's repr: `1.0`, `-0.0`, `1e+16` (exponent form from 1e16 on). */
  toString (): string {
    const n = this.value
    if (Object.is(n, -0)) return '-0.0'
    return Math.abs(n) < 1e16 ? `${n}.0` : n.toExponential()
  }
}

/** The float a YAML 1.1 float scalar resolved to: whole-number values keep their float type. */
export function yamlFloat (n: number): number | WholeFloat {
  return Number.isInteger(n) ? new WholeFloat(n) : n
}

/** The number a value stands for, for comparisons (a WholeFloat compares as its value, like 1.0 == 1). */
export function numericValue (value: unknown): unknown {
  return value instanceof WholeFloat ? value.value : value
}

/**
 * Sets a mapping's own key. A document may hold any key, `__proto__` too: a plain assignment of that one would set
 * the object's prototype instead, dropping the data (and, into an existing object, reaching Object.prototype).
 */
export function setKey (out: Mapping, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true })
  else out[key] = value
}

/** A mapping's own value of `key`: never one its prototype lends (`__proto__`, `constructor`). */
export function ownValue (m: Mapping, key: string): unknown {
  return Object.hasOwn(m, key) ? m[key] : undefined
}

export function isMapping (value: unknown): value is Mapping {
  return value !== null && typeof value === 'object' && !Array.isArray(value) &&
    !(value instanceof Date) && !(value instanceof Uint8Array) && !(value instanceof WholeFloat)
}

/** True for values JSON cannot carry unchanged (they need the tagged storage form). */
function isSpecialLeaf (value: unknown): boolean {
  return value instanceof Date || value instanceof Uint8Array || value instanceof WholeFloat ||
    (typeof value === 'number' && !Number.isFinite(value))
}

/**
 * A fresh tree from a parsed YAML value: Maps and Sets become mappings (PyYAML has no JS Map), shared
 * (aliased) nodes become independent copies; `special` tells whether a tagged storage form is needed.
 */
export function normalise (value: unknown): { value: unknown, special: boolean } {
  let special = false
  const walk = (v: unknown): unknown => {
    if (v === null || v === undefined) return null
    if (typeof v !== 'object') {
      if (typeof v === 'number' && !Number.isFinite(v)) special = true
      if (typeof v === 'bigint') return Number(v)
      return v
    }
    if (isSpecialLeaf(v)) { special = true; return v }
    if (Array.isArray(v)) return v.map(walk)
    if (v instanceof Map) {
      const out: Mapping = {}
      for (const [k, item] of v) setKey(out, String(k), walk(item))
      return out
    }
    if (v instanceof Set) {
      const out: Mapping = {}
      for (const k of v) setKey(out, String(k), null)
      return out
    }
    const out: Mapping = {}
    for (const k of Object.keys(v)) setKey(out, k, walk((v as Mapping)[k]))
    return out
  }
  const result = walk(value)
  return { value: result, special }
}

/** Deep copy of mappings and lists; leaves (including Date, binary and WholeFloat, never mutated) are shared. */
export function clone<T> (value: T): T {
  if (value === null || typeof value !== 'object') return value
  if (Array.isArray(value)) {
    const out = new Array(value.length)
    for (let i = 0; i < value.length; i++) out[i] = clone(value[i])
    return out as T
  }
  if (value instanceof Date || value instanceof Uint8Array || value instanceof WholeFloat) return value
  const out: Mapping = {}
  for (const k in value as Mapping) setKey(out, k, clone((value as Mapping)[k]))
  return out as T
}

const TAG = '\u0000yaml'
// the tag key as JSON text holds it: JSON.stringify writes the NUL as the six characters \u0000
const TAG_IN_JSON = JSON.stringify(TAG).slice(1, -1)

function tagged (value: unknown): unknown {
  if (value instanceof Date) return { [TAG]: 'timestamp', v: value.toISOString() }
  if (value instanceof Uint8Array) return { [TAG]: 'binary', v: Buffer.from(value).toString('base64') }
  if (value instanceof WholeFloat) return { [TAG]: 'float', v: value.toString() }
  if (typeof value === 'number' && !Number.isFinite(value)) return { [TAG]: 'float', v: String(value) }
  if (Array.isArray(value)) return value.map(tagged)
  if (isMapping(value)) {
    const out: Mapping = {}
    for (const k of Object.keys(value)) setKey(out, k, tagged(value[k]))
    return out
  }
  return value
}

function untag (_key: string, value: unknown): unknown {
  if (value !== null && typeof value === 'object' && !Array.isArray(value) && TAG in value) {
    const v = (value as unknown as { v: string }).v
    switch ((value as Mapping)[TAG]) {
      case 'timestamp': return new Date(v)
      case 'binary': return new Uint8Array(Buffer.from(v, 'base64'))
      case 'float': {
        // NaN and ±Infinity stay numbers; a finite stored float is a whole-number one
        const n = Number(v)
        return Number.isFinite(n) ? new WholeFloat(n) : n
      }
    }
  }
  return value
}

/** Storage text of a value; `special` (from normalise) selects the tagged form. */
export function encodeValue (value: unknown, special: boolean): string {
  return JSON.stringify(special ? tagged(value) : value) ?? 'null'
}

export function decodeValue (text: string, special: boolean): unknown {
  return special ? JSON.parse(text, untag) : JSON.parse(text)
}

/**
 * Storage text whose `special` flag was not kept (tag data, validation errors, metadata): the tagged form is
 * recognised in the text itself. A false positive only costs the slower parse; untag leaves other values alone.
 */
export function decodeStoredValue (text: string): unknown {
  return decodeValue(text, text.includes(TAG_IN_JSON))
}

/** Storage text of any value, tagged only when it needs to be (read back with decodeStoredValue). */
export function encodeStoredValue (value: unknown): string {
  return encodeValue(value, hasSpecial(value))
}

export function hasSpecial (value: unknown): boolean {
  if (value === null || typeof value !== 'object') return typeof value === 'number' && !Number.isFinite(value)
  if (isSpecialLeaf(value)) return true
  if (Array.isArray(value)) return value.some(hasSpecial)
  for (const k in value as Mapping) if (hasSpecial((value as Mapping)[k])) return true
  return false
}

const NON_ASCII = /[\u0080-\uffff]/
const NON_ASCII_ALL = /[\u0080-\uffff]/g

function pyString (s: string): string {
  // Python's json.dumps escapes every non-ASCII character as \uXXXX (lower-case hex); most strings have none
  const json = JSON.stringify(s)
  return NON_ASCII.test(json) ? json.replace(NON_ASCII_ALL, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`) : json
}

function pyNumber (n: number): string {
  if (Number.isNaN(n)) return 'NaN'
  if (n === Infinity) return 'Infinity'
  if (n === -Infinity) return '-Infinity'
  if (Number.isInteger(n)) return Math.abs(n) < 1e21 ? String(n) : BigInt(n).toString()
  return String(n)
}

/** `json.dumps(value, sort_keys=sortKeys)` as CPython writes it (", " and ": " separators, ASCII only). */
export function pyJsonDumps (value: unknown, sortKeys = false): string {
  if (value === null || value === undefined) return 'null'
  if (typeof value === 'string') return pyString(value)
  if (typeof value === 'number') return pyNumber(value)
  if (typeof value === 'boolean') return value ? 'true' : 'false'
  if (value instanceof WholeFloat) return value.toString()
  if (value instanceof Date) return pyString(value.toISOString())
  if (value instanceof Uint8Array) return pyString(Buffer.from(value).toString('base64'))
  if (Array.isArray(value)) return `[${value.map((v) => pyJsonDumps(v, sortKeys)).join(', ')}]`
  if (typeof value === 'object') {
    const keys = Object.keys(value)
    if (sortKeys) keys.sort()
    return `{${keys.map((k) => `${pyString(k)}: ${pyJsonDumps((value as Mapping)[k], sortKeys)}`).join(', ')}}`
  }
  return pyString(String(value))
}

export function sha256Hex (text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex')
}

/** Deckhand's stored-content hash: SHA-256 of the JSON with sorted keys. */
export function contentHash (value: unknown): string {
  return sha256Hex(pyJsonDumps(value, true))
}

/** Deckhand's redaction hash: SHA-256 of the JSON in stored key order, as Python's json.dumps writes it. */
export function redactionHash (value: unknown): string {
  return sha256Hex(pyJsonDumps(value, false))
}

/** Structural equality of two values (mappings by keys, not key order; 1.0 equals 1 as in Python). */
export function deepEqual (a: unknown, b: unknown): boolean {
  if (a === b) return true
  if (a instanceof WholeFloat || b instanceof WholeFloat) return numericValue(a) === numericValue(b)
  if (typeof a === 'number' && typeof b === 'number') return Number.isNaN(a) && Number.isNaN(b)
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false
  if (a instanceof Date || b instanceof Date) return a instanceof Date && b instanceof Date && a.getTime() === b.getTime()
  if (a instanceof Uint8Array || b instanceof Uint8Array) {
    return a instanceof Uint8Array && b instanceof Uint8Array && Buffer.from(a).equals(Buffer.from(b))
  }
  if (Array.isArray(a) !== Array.isArray(b)) return false
  if (Array.isArray(a)) {
    const bb = b as unknown[]
    return a.length === bb.length && a.every((v, i) => deepEqual(v, bb[i]))
  }
  const ka = Object.keys(a)
  const kb = Object.keys(b)
  return ka.length === kb.length && ka.every((k) => Object.hasOwn(b, k) && deepEqual((a as Mapping)[k], (b as Mapping)[k]))
}

/**
 * Python's `str()` of a value, used when a non-string is spliced into a string by a pattern, as Deckhand splices it.
 */
export function pyStr (value: unknown, nested = false): string {
  if (value === null || value === undefined) return 'None'
  if (typeof value === 'boolean') return value ? 'True' : 'False'
  if (typeof value === 'number') {
    if (Number.isNaN(value)) return 'nan'
    if (!Number.isFinite(value)) return value > 0 ? 'inf' : '-inf'
    return String(value)
  }
  if (typeof value === 'string') return nested ? pyRepr(value) : value
  if (value instanceof WholeFloat) return value.toString()
  if (value instanceof Date) return value.toISOString()
  if (Array.isArray(value)) return `[${value.map((v) => pyStr(v, true)).join(', ')}]`
  if (isMapping(value)) return `{${Object.keys(value).map((k) => `${pyRepr(k)}: ${pyStr(value[k], true)}`).join(', ')}}`
  return String(value)
}

function pyRepr (s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'"
  const body = s.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/\r/g, '\\r').replace(/\t/g, '\\t')
  return quote + (quote === "'" ? body.replace(/'/g, "\\'") : body) + quote
}
