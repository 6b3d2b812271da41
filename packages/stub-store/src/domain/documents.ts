// Document structure: the checks every PUT runs, the metadata defaults applied on storage and the identities
// documents are known by.
import { isMapping, WholeFloat, type Mapping } from './values.ts'

export const SCHEMA_PATTERN = /^[A-Za-z]+\/[A-Za-z]+\/v\d+$/
const DOCUMENT_METADATA = /^metadata\/Document\/v\d+$/
const CONTROL_METADATA = /^metadata\/Control\/v\d+$/

export const LAYERING_POLICY = 'deckhand/LayeringPolicy'
export const VALIDATION_POLICY = 'deckhand/ValidationPolicy'
export const DATA_SCHEMA = 'deckhand/DataSchema'

/** A document body as PUT and returned: `schema`, `metadata`, `data`. */
export interface DocumentBody {
  schema: string
  metadata: Mapping
  data: unknown
}

/** One D001/D002 entry of an `InvalidDocumentFormat` error (D001: structure, D002: a DataSchema). */
export interface ValidationEntry {
  kind: 'ValidationMessage'
  name: 'D001' | 'D002'
  message: string
  error: true
  level: 'Error'
  documents: Array<{ schema: string, name: string, layer: string }>
  diagnostic: unknown
  [field: string]: unknown
}

export function layerOf (metadata: Mapping): string {
  const ld = metadata.layeringDefinition
  return isMapping(ld) && typeof ld.layer === 'string' ? ld.layer : ''
}

export function isControl (metadata: Mapping): boolean {
  return typeof metadata.schema === 'string' && metadata.schema.startsWith('metadata/Control')
}

export function isAbstract (metadata: Mapping): boolean {
  const ld = metadata.layeringDefinition
  return isMapping(ld) && ld.abstract === true
}

export function isEncrypted (metadata: Mapping): boolean {
  return metadata.storagePolicy === 'encrypted'
}

/** The stored identity (schema, layer, name) as one string key. */
export function metaKey (schema: string, layer: string, name: string): string {
  return `${schema}\u0000${layer}\u0000${name}`
}

/** Python's repr of a value as jsonschema quotes it in messages (`'x'`, `1`, `True`, `{...}`). */
function repr (value: unknown): string {
  if (typeof value === 'string') return `'${value}'`
  if (value === null || value === undefined) return 'None'
  if (typeof value === 'boolean') return value ? 'True' : 'False'
  if (typeof value === 'number' || value instanceof WholeFloat) return String(value)
  try {
    return JSON.stringify(value).replace(/"/g, "'").replace(/\btrue\b/g, 'True').replace(/\bfalse\b/g, 'False').replace(/\bnull\b/g, 'None')
  } catch {
    return String(value)
  }
}

function typeName (value: unknown): string {
  if (value === null || value === undefined) return 'null'
  if (Array.isArray(value)) return 'array'
  if (isMapping(value)) return 'object'
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number'
  // draft 4 (upstream's validator): a float is never an integer, even 1.0
  if (value instanceof WholeFloat) return 'number'
  return typeof value
}

/** Collects jsonschema-style problems for one document. */
class Checker {
  readonly problems: string[] = []

  required (obj: Mapping, keys: string[]): void {
    for (const k of keys) if (!(k in obj) || obj[k] === undefined) this.problems.push(`'${k}' is a required property`)
  }

  only (obj: Mapping, keys: string[]): void {
    const extra = Object.keys(obj).filter((k) => !keys.includes(k))
    if (extra.length > 0) {
      const listed = extra.map((k) => `'${k}'`).join(', ')
      this.problems.push(`Additional properties are not allowed (${listed} ${extra.length === 1 ? 'was' : 'were'} unexpected)`)
    }
  }

  type (value: unknown, wanted: 'string' | 'object' | 'array' | 'boolean' | 'integer'): boolean {
    const actual = typeName(value)
    const ok = actual === wanted || (wanted === 'integer' && actual === 'integer')
    if (!ok) this.problems.push(`${repr(value)} is not of type '${wanted}'`)
    return ok
  }

  pattern (value: unknown, re: RegExp): void {
    if (this.type(value, 'string') && !re.test(value as string)) {
      this.problems.push(`${repr(value)} does not match '${re.source.replace(/\\\//g, '/')}'`)
    }
  }
}

function checkDest (c: Checker, dest: unknown): void {
  if (!c.type(dest, 'object')) return
  const d = dest as Mapping
  c.only(d, ['path', 'pattern', 'recurse'])
  c.required(d, ['path'])
  if ('path' in d) c.type(d.path, 'string')
  if ('pattern' in d) c.type(d.pattern, 'string')
  if ('recurse' in d && c.type(d.recurse, 'object')) {
    const r = d.recurse as Mapping
    c.required(r, ['depth'])
    if ('depth' in r && c.type(r.depth, 'integer') && (r.depth as number) < -1) {
      c.problems.push(`${String(r.depth)} is less than the minimum of -1`)
    }
  }
}

function checkDocumentMetadata (c: Checker, m: Mapping): void {
  c.only(m, ['schema', 'name', 'labels', 'storagePolicy', 'layeringDefinition', 'substitutions', 'replacement'])
  c.required(m, ['schema', 'name', 'storagePolicy', 'layeringDefinition'])
  if ('labels' in m) c.type(m.labels, 'object')
  if ('replacement' in m) c.type(m.replacement, 'boolean')
  if ('storagePolicy' in m && c.type(m.storagePolicy, 'string') && m.storagePolicy !== 'encrypted' && m.storagePolicy !== 'cleartext') {
    c.problems.push(`${repr(m.storagePolicy)} is not one of ['encrypted', 'cleartext']`)
  }
  if ('layeringDefinition' in m && c.type(m.layeringDefinition, 'object')) {
    const ld = m.layeringDefinition as Mapping
    c.only(ld, ['layer', 'abstract', 'parentSelector', 'actions'])
    c.required(ld, ['layer'])
    if ('layer' in ld) c.type(ld.layer, 'string')
    if ('abstract' in ld) c.type(ld.abstract, 'boolean')
    if ('parentSelector' in ld) {
      if (c.type(ld.parentSelector, 'object') && Object.keys(ld.parentSelector as Mapping).length === 0) {
        c.problems.push('{} does not have enough properties')
      }
      if (!('actions' in ld)) c.problems.push("'actions' is a dependency of 'parentSelector'")
    }
    if ('actions' in ld) {
      if (!('parentSelector' in ld)) c.problems.push("'parentSelector' is a dependency of 'actions'")
      if (c.type(ld.actions, 'array')) {
        const actions = ld.actions as unknown[]
        if (actions.length === 0) c.problems.push('[] is too short')
        for (const a of actions) {
          if (!c.type(a, 'object')) continue
          const action = a as Mapping
          c.only(action, ['method', 'path'])
          c.required(action, ['method', 'path'])
          if ('method' in action && !['replace', 'delete', 'merge'].includes(action.method as string)) {
            c.problems.push(`${repr(action.method)} is not one of ['replace', 'delete', 'merge']`)
          }
          if ('path' in action) c.type(action.path, 'string')
        }
      }
    }
  }
  if ('substitutions' in m && c.type(m.substitutions, 'array')) {
    for (const s of m.substitutions as unknown[]) {
      if (!c.type(s, 'object')) continue
      const sub = s as Mapping
      c.only(sub, ['src', 'dest'])
      c.required(sub, ['dest', 'src'])
      if ('src' in sub && c.type(sub.src, 'object')) {
        const src = sub.src as Mapping
        c.only(src, ['schema', 'name', 'path', 'pattern', 'match_group', 'deepcopy'])
        c.required(src, ['schema', 'name', 'path'])
        if ('schema' in src) c.pattern(src.schema, SCHEMA_PATTERN)
        if ('name' in src) c.type(src.name, 'string')
        if ('path' in src) c.type(src.path, 'string')
        if ('pattern' in src) c.type(src.pattern, 'string')
        if ('match_group' in src) c.type(src.match_group, 'integer')
        if ('deepcopy' in src) c.type(src.deepcopy, 'boolean')
      }
      if ('dest' in sub) {
        if (Array.isArray(sub.dest)) {
          if (sub.dest.length === 0) c.problems.push('[] is not valid under any of the given schemas')
          for (const d of sub.dest) checkDest(c, d)
        } else {
          checkDest(c, sub.dest)
        }
      }
    }
  }
}

function checkControlMetadata (c: Checker, m: Mapping): void {
  c.required(m, ['schema', 'name'])
  if ('labels' in m && c.type(m.labels, 'object')) {
    for (const v of Object.values(m.labels as Mapping)) c.type(v, 'string')
  }
}

/** Problems with one document's structure (empty when it is well formed). */
export function structureProblems (doc: Mapping): string[] {
  const c = new Checker()
  c.required(doc, ['schema', 'metadata'])
  if ('schema' in doc) c.pattern(doc.schema, SCHEMA_PATTERN)
  if (!('metadata' in doc) || !c.type(doc.metadata, 'object')) return c.problems
  const m = doc.metadata as Mapping
  c.required(m, ['schema', 'name'])
  if ('name' in m) c.type(m.name, 'string')
  if (!('schema' in m)) return c.problems
  if (!c.type(m.schema, 'string')) return c.problems
  const ms = m.schema as string
  if (ms === 'metadata/Document/v1') checkDocumentMetadata(c, m)
  else if (ms === 'metadata/Control/v1') checkControlMetadata(c, m)
  else if (DOCUMENT_METADATA.test(ms) || CONTROL_METADATA.test(ms)) c.problems.push(`Invalid metadata schema ${ms} specified.`)
  else c.problems.push(`${repr(ms)} is not valid under any of the given schemas`)
  return c.problems
}

/** A D001 entry for one structure problem. */
export function d001 (doc: Mapping, message: string): ValidationEntry {
  const m = isMapping(doc.metadata) ? doc.metadata : {}
  return {
    kind: 'ValidationMessage',
    name: 'D001',
    message,
    error: true,
    level: 'Error',
    documents: [{
      schema: typeof doc.schema === 'string' ? doc.schema : '',
      name: typeof m.name === 'string' ? m.name : '',
      layer: layerOf(m)
    }],
    diagnostic: 'Ensure that each document has a metadata, schema and data section, and that its metadata section follows metadata/Document/v1 or metadata/Control/v1.'
  }
}

/** Storage defaults (those Deckhand fills in when it stores a document), applied to a copy of the metadata. */
export function withDefaults (metadata: Mapping): Mapping {
  const m: Mapping = { ...metadata }
  if (m.storagePolicy === undefined || m.storagePolicy === null || m.storagePolicy === '') m.storagePolicy = 'cleartext'
  const ld: Mapping = isMapping(m.layeringDefinition) ? { ...m.layeringDefinition } : {}
  if (!('abstract' in ld)) ld.abstract = false
  m.layeringDefinition = ld
  if (!('replacement' in m)) m.replacement = false
  return m
}
