// DataSchema validation of rendered documents, as Deckhand does it: built-in schemas for Deckhand's own kinds,
// `deckhand/DataSchema/v1` documents for everything else, failures as D002 entries.
import type { ErrorObject, ValidateFunction } from 'ajv'
import AjvDraft04 from 'ajv-draft-04'
import { getAt, parsePath } from './paths.ts'
import { SCHEMA_PATTERN, type ValidationEntry } from './documents.ts'
import { clone, isMapping, pyStr, WholeFloat, type Mapping } from './values.ts'

const SECRET_KINDS = [
  'Certificate', 'CertificateKey', 'CertificateAuthority', 'CertificateAuthorityKey', 'Passphrase', 'PrivateKey', 'PublicKey'
]

const BUILT_IN: Record<string, Mapping> = {
  'deckhand/LayeringPolicy/v1': {
    type: 'object',
    properties: { layerOrder: { type: 'array', items: { type: 'string' } } },
    required: ['layerOrder'],
    additionalProperties: false
  },
  'deckhand/ValidationPolicy/v1': {
    type: 'object',
    properties: {
      validations: {
        type: 'array',
        items: {
          type: 'object',
          properties: { name: { type: 'string', pattern: '^.*-(validation|verification)$' }, expiresAfter: { type: 'string' } },
          additionalProperties: false,
          required: ['name']
        }
      }
    },
    required: ['validations'],
    additionalProperties: false
  },
  'deckhand/DataSchema/v1': { type: 'object' },
  ...Object.fromEntries(SECRET_KINDS.map((k) => [`deckhand/${k}/v1`, { type: 'string' }]))
}

// DataSchemas are JSON Schema draft 4, as Deckhand reads them
const Ajv04 = AjvDraft04.default
const ajv = new Ajv04({
  strict: false,
  allErrors: true,
  validateSchema: false,
  validateFormats: false,
  logger: false,
  unicodeRegExp: false
})
const compiled = new Map<string, ValidateFunction | Error>()

/** Without `$schema`: DataSchemas name meta-schema URIs (`http://json-schema.org/schema#`) ajv does not hold. */
function withoutMetaSchema (schema: Mapping): Mapping {
  const { $schema: _ignored, ...rest } = schema
  return rest
}

function validatorFor (schema: Mapping): ValidateFunction | Error {
  const text = JSON.stringify(schema)
  const cached = compiled.get(text)
  if (cached !== undefined) return cached
  let v: ValidateFunction | Error
  try {
    v = ajv.compile(withoutMetaSchema(schema))
  } catch (error) {
    v = error as Error
  }
  if (compiled.size > 500) compiled.clear()
  compiled.set(text, v)
  return v
}

const repr = (value: unknown): string => pyStr(value, true)

/** jsonschema (Python) wording for an ajv error. */
function messageOf (e: ErrorObject, value: unknown): string {
  const p = e.params as Record<string, unknown>
  switch (e.keyword) {
    case 'required': return `'${String(p.missingProperty)}' is a required property`
    case 'type': return `${repr(value)} is not of type '${String(p.type).split(',').join("', '")}'`
    case 'pattern': return `${repr(value)} does not match '${String(p.pattern)}'`
    case 'enum': return `${repr(value)} is not one of ${repr(p.allowedValues)}`
    case 'additionalProperties': return `Additional properties are not allowed ('${String(p.additionalProperty)}' was unexpected)`
    case 'minItems': return `${repr(value)} is too short`
    case 'maxItems': return `${repr(value)} is too long`
    case 'minLength': return `${repr(value)} is too short`
    case 'maxLength': return `${repr(value)} is too long`
    case 'minimum': return `${repr(value)} is less than the minimum of ${String(p.limit)}`
    case 'maximum': return `${repr(value)} is greater than the maximum of ${String(p.limit)}`
    case 'anyOf': case 'oneOf': return `${repr(value)} is not valid under any of the given schemas`
    default: return `${repr(value)} ${e.message ?? 'is invalid'}`
  }
}

export interface SchemaTarget {
  schema: string
  name: string
  layer: string
  metadata: Mapping
  data: unknown
}

/** Registered schemas: built-ins first, then the first live DataSchema per name with a usable body. */
export function schemaRegistry (dataSchemas: Array<{ name: string, data: unknown }>): Map<string, Mapping> {
  const registry = new Map<string, Mapping>(Object.entries(BUILT_IN))
  for (const ds of dataSchemas) {
    if (!SCHEMA_PATTERN.test(ds.name) || !isMapping(ds.data) || Object.keys(ds.data).length === 0) continue
    if (!registry.has(ds.name)) registry.set(ds.name, ds.data)
  }
  return registry
}

const SANITIZED = 'Sanitized to avoid exposing secret.'

/**
 * The mapping holding the failing value, every substituted destination in it masked (substituted values may
 * be secrets). `metadata.substitutions` must hold the real paths: validation runs before redaction hashes them.
 */
function sanitizedSection (doc: SchemaTarget, sectionPath: Array<string | number>): unknown {
  const section = clone(getAt(doc.data, sectionPath))
  const subs = doc.metadata.substitutions
  if (!Array.isArray(subs)) return section
  for (const s of subs) {
    if (!isMapping(s)) continue
    for (const d of Array.isArray(s.dest) ? s.dest : [s.dest]) {
      if (!isMapping(d) || typeof d.path !== 'string') continue
      let segs
      try { segs = parsePath(d.path) } catch { continue }
      const shared = Math.min(segs.length, sectionPath.length)
      let related = true
      for (let i = 0; i < shared && related; i++) related = segs[i] === sectionPath[i]
      if (!related) continue
      // a destination at or above the section: the whole section is (part of) a substituted value
      if (segs.length <= sectionPath.length) return SANITIZED
      let cur: unknown = section
      const rest = segs.slice(sectionPath.length)
      for (let i = 0; i < rest.length - 1 && cur !== null && typeof cur === 'object'; i++) cur = (cur as Mapping)[rest[i] as string]
      const last = rest[rest.length - 1] as string
      if (cur !== null && typeof cur === 'object' && last in (cur as Mapping)) (cur as Mapping)[last] = SANITIZED
    }
  }
  return section
}

/** The data as ajv sees it: whole-number floats as plain numbers (the same tree when there are none). */
function withPlainNumbers (value: unknown): unknown {
  if (value instanceof WholeFloat) return value.value
  if (Array.isArray(value)) {
    let out: unknown[] | undefined
    for (let i = 0; i < value.length; i++) {
      const v = withPlainNumbers(value[i])
      if (v !== value[i]) (out ??= [...value])[i] = v
    }
    return out ?? value
  }
  if (isMapping(value)) {
    let out: Mapping | undefined
    for (const k in value) {
      const v = withPlainNumbers(value[k])
      if (v !== value[k]) (out ??= { ...value })[k] = v
    }
    return out ?? value
  }
  return value
}

/** D002 entries for every document whose data fails its registered schema (abstract ones are skipped by the caller). */
export function validateAgainstSchemas (docs: SchemaTarget[], registry: Map<string, Mapping>): ValidationEntry[] {
  const entries: ValidationEntry[] = []
  for (const doc of docs) {
    const schema = registry.get(doc.schema)
    if (schema === undefined) continue
    const validate = validatorFor(schema)
    if (validate instanceof Error) {
      entries.push(d002(doc, `The DataSchema for ${doc.schema} cannot be compiled: ${validate.message}`, {
        error_section: null, schema_path: '.', validation_schema: schema
      }))
      continue
    }
    // ajv validates JS numbers; a draft-4 `integer` therefore also accepts 1.0, which upstream's jsonschema rejects
    if (validate(withPlainNumbers(doc.data)) === true) continue
    const substituted = Array.isArray(doc.metadata.substitutions) && doc.metadata.substitutions.length > 0
    const sensitive = doc.metadata.storagePolicy === 'encrypted' || substituted
    // an encrypted document that takes no value from others holds nothing but its secret (one with substitutions
    // may be marked encrypted for a secret it took: its substituted parts are masked below)
    const allSecret = doc.metadata.storagePolicy === 'encrypted' && !substituted
    for (const e of validate.errors ?? []) {
      const pathSegs = e.instancePath === ''
        ? []
        : e.instancePath.slice(1).split('/')
          .map((s: string) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
          .map((s: string, i: number, all: string[]) => Array.isArray(getAt(doc.data, all.slice(0, i))) ? Number(s) : s)
      const value = getAt(doc.data, pathSegs)
      // Deckhand hides the value only in `is not of type` messages; every other keyword but these two also starts
      // its message with the failing value (`'…' is too long`, `'…' does not match`, `'…' is not one of`), which
      // for a secret is the secret: the stand-in hides them all
      const echoesValue = e.keyword !== 'required' && e.keyword !== 'additionalProperties'
      const message = sensitive && echoesValue ? SANITIZED : messageOf(e, value)
      const sectionPath = pathSegs.length === 0 ? [] : pathSegs.slice(0, -1)
      entries.push(d002(doc, message, {
        error_section: allSecret ? SANITIZED : sanitizedSection(doc, sectionPath),
        schema_path: '.' + e.schemaPath.replace(/^#\/?/, '').split('/').filter((s) => s !== '').join('.'),
        validation_schema: schema
      }))
    }
  }
  return entries
}

function d002 (doc: SchemaTarget, message: string, diagnostic: Mapping): ValidationEntry {
  return {
    kind: 'ValidationMessage',
    name: 'D002',
    message,
    error: true,
    level: 'Error',
    documents: [{ schema: doc.schema, name: doc.name, layer: doc.layer }],
    diagnostic
  }
}
