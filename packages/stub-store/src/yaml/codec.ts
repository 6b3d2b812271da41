// YAML in and out with YAML 1.1 (PyYAML) semantics: parsing request bodies with an alias bound, and a fast
// block-style emitter whose output any YAML 1.1 or 1.2 reader turns back into the same values.
import { isScalar, parseAllDocuments, type Tags } from 'yaml'
import { PYYAML_OPTIONS, pyyamlTags } from '@slipway/common'
import { normalise, WholeFloat, yamlFloat } from '../domain/values.ts'
import { createFastParser } from './fast-parse.ts'

/** Bound on alias expansion per document (billion-laughs). */
export const MAX_ALIAS_COUNT = 100

export class YamlSyntaxError extends Error {
  constructor (message: string) {
    super(message)
    this.name = 'YamlSyntaxError'
  }
}

export interface ParsedDocument {
  value: unknown
  /** Needs the tagged storage form (timestamps, binary, non-finite or whole-number floats). */
  special: boolean
}

const FLOAT_TAG = 'tag:yaml.org,2002:float'

type ScalarResolve = (value: string, onError: (message: string) => void, options: object) => unknown

/** PyYAML's resolvers, with every float (`1.0`, `1.0e+3`, `1:30.0`) kept a float even when its value is whole. */
function storeTags (tags: Tags): Tags {
  return pyyamlTags(tags).map((tag) => {
    if (typeof tag !== 'object' || !('resolve' in tag) || tag.tag !== FLOAT_TAG) return tag
    const resolve = tag.resolve as ScalarResolve
    return {
      ...tag,
      resolve: (value: string, onError: (message: string) => void, options: object): unknown => {
        const res = resolve(value, onError, options)
        const n = isScalar(res) ? res.value : res
        return typeof n === 'number' ? yamlFloat(n) : res
      }
    }
  }) as Tags
}

const PARSE_OPTIONS = { ...PYYAML_OPTIONS, customTags: storeTags, uniqueKeys: false }

const fastParse = createFastParser(storeTags)

/** The fast path's reading of a stream it takes on (see fast-parse.ts), else undefined. */
export function parseFast (text: string): ParsedDocument[] | undefined {
  return fastParse(text)?.map(normalise)
}

/** Every document of a YAML stream, in order; an empty or comment-only stream gives none. */
export function parseYamlStream (text: string): ParsedDocument[] {
  return parseFast(text) ?? parseSlowly(text)
}

/** The yaml package's reading, with the alias bound: every stream the fast path does not take, and every error. */
export function parseSlowly (text: string): ParsedDocument[] {
  let docs
  try {
    docs = parseAllDocuments(text, PARSE_OPTIONS)
  } catch (error) {
    throw new YamlSyntaxError((error as Error).message)
  }
  const list = Array.isArray(docs) ? docs : []
  const out: ParsedDocument[] = []
  for (const doc of list) {
    const first = doc.errors[0]
    if (first !== undefined) throw new YamlSyntaxError(first.message)
    let value: unknown
    try {
      value = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT })
    } catch (error) {
      throw new YamlSyntaxError((error as Error).message)
    }
    out.push(normalise(value))
  }
  return out
}

// YAML 1.1 resolves these bare words to booleans or null; they must be quoted to stay strings
// (and `e5`-like words, which the yaml package's 1.1 schema reads as NaN)
const RESERVED_WORD = /^(?:y|n|yes|no|on|off|true|false|null|~|e[-+]?[0-9]+)$/i
const PLAIN = /^[A-Za-z_][A-Za-z0-9_\-./]*(?: [A-Za-z0-9_\-./]+)*$/
const SINGLE_QUOTABLE = /^[\x20-\x7e]*$/
// characters YAML either forbids raw or reads as line breaks (NEL, LS, PS), plus the BOM
const UNSAFE_IN_DOUBLE = /[\u007f-\u009f\u2028\u2029\ufeff\ufffe\uffff]/g
const LITERAL_OK = /^[\x20-\x7e\n\u00a0-\u2027\u202a-\ud7ff\ue000-\ufefe\uff00-\ufffd]*$/

function doubleQuoted (s: string): string {
  return JSON.stringify(s).replace(UNSAFE_IN_DOUBLE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
}

function quoteUncached (s: string): string {
  if (s.length > 0 && s.length <= 512 && PLAIN.test(s) && !RESERVED_WORD.test(s)) return s
  if (SINGLE_QUOTABLE.test(s)) return `'${s.replace(/'/g, "''")}'`
  return doubleQuoted(s)
}

// keys and short values repeat across thousands of documents (schema names, layers, policies)
const quoted = new Map<string, string>()

function quoteString (s: string): string {
  if (s.length > 64) return quoteUncached(s)
  let q = quoted.get(s)
  if (q === undefined) {
    q = quoteUncached(s)
    if (quoted.size >= 50_000) quoted.clear()
    quoted.set(s, q)
  }
  return q
}

/** A literal block (`|`) keeps certificates and scripts readable; only when it round-trips exactly. */
function literalBlock (s: string, indent: string): string | undefined {
  if (!s.includes('\n') || !LITERAL_OK.test(s)) return undefined
  let body = s
  let header = '|'
  if (s.endsWith('\n')) {
    body = s.slice(0, -1)
    if (body.endsWith('\n')) return undefined
  } else {
    header = '|-'
  }
  const lines = body.split('\n')
  const firstText = lines.find((l) => l !== '')
  if (firstText === undefined || firstText.startsWith(' ')) return undefined
  if (lines.some((l) => l !== '' && /^\s*$/.test(l))) return undefined
  return header + '\n' + lines.map((l) => l === '' ? '' : indent + l).join('\n')
}

function isEmptyMapping (value: object): boolean {
  for (const k in value) if (Object.hasOwn(value, k)) return false
  return true
}

function formatNumber (n: number): string {
  if (Number.isNaN(n)) return '.nan'
  if (n === Infinity) return '.inf'
  if (n === -Infinity) return '-.inf'
  if (Number.isInteger(n)) return Math.abs(n) < 1e21 ? String(n) : BigInt(n).toString()
  const s = String(n)
  const e = s.indexOf('e')
  if (e < 0) return s
  // YAML 1.1 floats need a dot in the mantissa and a signed exponent
  const mantissa = s.slice(0, e)
  return (mantissa.includes('.') ? mantissa : `${mantissa}.0`) + s.slice(e)
}

/** PyYAML's float: repr, with `.0` added to an exponent form that has no dot (`1e+16` → `1.0e+16`). */
function formatWholeFloat (f: WholeFloat): string {
  const s = f.toString()
  return s.includes('.') ? s : s.replace('e', '.0e')
}

function formatDate (d: Date): string {
  if (Number.isNaN(d.getTime())) return 'null'
  const iso = d.toISOString()
  return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : iso
}

const INDENTS: string[] = ['']
function indentOf (depth: number): string {
  let s = INDENTS[depth]
  if (s === undefined) {
    s = '  '.repeat(depth)
    INDENTS[depth] = s
  }
  return s
}

/** Scalar text, or undefined when the value needs block structure; `depth` places literal block lines. */
function scalar (value: unknown, depth: number): string | undefined {
  if (typeof value === 'string') {
    if (value.includes('\n')) return literalBlock(value, indentOf(depth)) ?? quoteString(value)
    return quoteString(value)
  }
  if (value === null || value === undefined) return 'null'
  switch (typeof value) {
    case 'number': return formatNumber(value)
    case 'boolean': return value ? 'true' : 'false'
    case 'bigint': return value.toString()
    case 'object':
      if (Array.isArray(value)) return value.length === 0 ? '[]' : undefined
      if (value instanceof WholeFloat) return formatWholeFloat(value)
      if (value instanceof Date) return formatDate(value)
      if (value instanceof Uint8Array) return `!!binary ${Buffer.from(value).toString('base64')}`
      return isEmptyMapping(value) ? '{}' : undefined
    default: return doubleQuoted(String(value))
  }
}

// YAML limits implicit keys to 1024 characters; longer ones take the explicit `? ` form
const LONG_KEY = 1000

/** Writes block-style YAML straight into a growing UTF-8 buffer (no multi-megabyte string is ever built). */
class Writer {
  private buf = Buffer.allocUnsafe(64 * 1024)
  private pos = 0

  private w (s: string): void {
    const n = s.length
    if (this.buf.length - this.pos < n * 3) {
      const bigger = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.pos + n * 3))
      this.buf.copy(bigger, 0, 0, this.pos)
      this.buf = bigger
    }
    if (n < 48) {
      // short ASCII tokens (most of them) are copied here, saving a native call each
      const buf = this.buf
      let pos = this.pos
      let i = 0
      for (; i < n; i++) {
        const c = s.charCodeAt(i)
        if (c > 0x7f) break
        buf[pos++] = c
      }
      if (i === n) {
        this.pos = pos
        return
      }
    }
    this.pos += this.buf.write(s, this.pos, 'utf8')
  }

  mapping (obj: Record<string, unknown>, depth: number, inline: boolean): void {
    const indent = indentOf(depth)
    let first = true
    for (const key in obj) {
      if (!first || !inline) this.w(indent)
      first = false
      if (key.length > LONG_KEY) this.w(`? ${doubleQuoted(key)}\n${indent}`)
      else this.w(quoteString(key))
      const value = obj[key]
      const s = scalar(value, depth + 1)
      if (s !== undefined) {
        this.w(': ')
        this.w(s)
        this.w('\n')
      } else if (Array.isArray(value)) {
        this.w(':\n')
        this.sequence(value, depth, false)
      } else {
        this.w(':\n')
        this.mapping(value as Record<string, unknown>, depth + 1, false)
      }
    }
  }

  sequence (list: unknown[], depth: number, inline: boolean): void {
    const indent = indentOf(depth)
    for (let i = 0; i < list.length; i++) {
      const item = list[i]
      if (i > 0 || !inline) this.w(indent)
      this.w('- ')
      const s = scalar(item, depth + 1)
      if (s !== undefined) {
        this.w(s)
        this.w('\n')
      } else if (Array.isArray(item)) {
        this.sequence(item, depth + 1, true)
      } else {
        this.mapping(item as Record<string, unknown>, depth + 1, true)
      }
    }
  }

  node (value: unknown): void {
    const s = scalar(value, 1)
    if (s !== undefined) {
      this.w(s)
      this.w('\n')
    } else if (Array.isArray(value)) {
      this.sequence(value, 0, false)
    } else {
      this.mapping(value as Record<string, unknown>, 0, false)
    }
  }

  separator (): void { this.w('---\n') }

  bytes (): Buffer { return this.buf.subarray(0, this.pos) }
}

/** One YAML document (a mapping response, an error body). */
export function emitYaml (value: unknown): string {
  return emitYamlBuffer([value], false).toString('utf8')
}

/** A YAML stream of documents separated by `---` (a list response); an empty list is an empty body. */
export function emitYamlStream (values: unknown[]): string {
  return emitYamlBuffer(values, true).toString('utf8')
}

/** The UTF-8 bytes of one document (`stream` false) or of a stream; what the routes send. */
export function emitYamlBuffer (values: unknown[], stream: boolean): Buffer {
  const w = new Writer()
  for (let i = 0; i < values.length; i++) {
    if (stream && i > 0) w.separator()
    w.node(values[i])
  }
  return w.bytes()
}
