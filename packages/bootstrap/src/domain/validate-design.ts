// Design validation (as Promenade's validatedesign does it): each document against the DataSchema of its kind found in
// the design itself (draft-04), and exactly one Docker, Genesis, HostSystem, Kubelet and KubernetesNetwork.
import AjvDraft04 from 'ajv-draft-04'
import type { ValidationMessage } from '@slipway/common'
import type { ValidateFunction } from 'ajv-draft-04'
import type { DesignDocument } from './documents.ts'
import { withoutMissingRefs } from './missing-refs.ts'
import { eventLoopTurns } from './turns.ts'

// a CommonJS module: its default export is the class
const Ajv04 = AjvDraft04.default
const SINGLETON_KINDS = ['Docker', 'Genesis', 'HostSystem', 'Kubelet', 'KubernetesNetwork']

type Ajv = InstanceType<typeof Ajv04>

/** A compile error for a `$ref` ajv could not resolve (ajv's MissingRefError, which its typings do not export). */
const isMissingRef = (error: unknown): boolean => error instanceof Error && 'missingRef' in error

/**
 * The schema compiled with its dangling `$ref`s accepting anything. Should ajv still miss a ref
 * (an `id` scoping withoutMissingRefs does not follow), every `$ref` goes: accepting more, never refusing.
 */
function compileAccepting (ajv: Ajv, schema: unknown): ValidateFunction {
  // draft-04's meta-schema is `type: object`: a list, a scalar or a boolean is no schema
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) throw new Error('a JSON schema must be an object')
  const known = (uri: string): unknown => {
    try {
      return ajv.getSchema(uri)?.schema
    } catch {
      return undefined
    }
  }
  try {
    return ajv.compile(withoutMissingRefs(schema, known) as object)
  } catch (error) {
    if (!isMissingRef(error)) throw error
    return ajv.compile(withoutMissingRefs(schema, () => undefined, { all: true }) as object)
  }
}

function message (text: string, name: string, extra: Partial<ValidationMessage> = {}): ValidationMessage {
  return { kind: 'ValidationMessage', name, message: text, error: true, level: 'Error', documents: [], diagnostic: null, ...extra }
}

/**
 * Every problem of the design as validation messages; an empty list means it validates. Compiling a DataSchema takes
 * milliseconds and a design may hold thousands: the event loop gets a turn every `sliceMs` of work, so that health
 * and other requests are answered meanwhile.
 */
export async function validateDesign (documents: DesignDocument[], sliceMs = 10): Promise<ValidationMessage[]> {
  const turn = eventLoopTurns(sliceMs)
  const schemas = new Map<string, unknown>()
  for (const doc of documents.filter((d) => d.schema?.startsWith('deckhand/DataSchema/'))) {
    const name = doc.metadata?.name
    if (schemas.has(name)) {
      return [message(`Duplicate schema specified for: ${name}`, 'Duplicate DataSchema', { documents: [{ schema: doc.schema, name }] })]
    }
    schemas.set(name, doc.data)
  }
  // draft-04 as upstream: formats and unknown keywords ignored; schemas are not registered by their `id`, so
  // two DataSchemas may share one
  const ajv = new Ajv04({ strict: false, allErrors: true, validateFormats: false, logger: false, addUsedSchema: false })
  const compiled = new Map<string, ValidateFunction>()
  for (const [name, schema] of schemas) {
    await turn()
    try {
      compiled.set(name, compileAccepting(ajv, schema))
    } catch (error) {
      // an invalid schema fails the whole validation, whether or not a document uses it
      const ref = [{ schema: 'deckhand/DataSchema/v1', name }]
      const text = `The DataSchema ${name} is not a valid JSON schema: ${(error as Error).message}`
      return [message(text, 'Invalid DataSchema', { documents: ref })]
    }
  }
  const messages: ValidationMessage[] = []
  for (const doc of documents) {
    await turn()
    if (typeof doc.schema !== 'string') {
      const ref = [{ name: doc.metadata?.name ?? null }]
      messages.push(message('"schema" is a required document key.', 'Document envelope', { documents: ref }))
      continue
    }
    const validate = compiled.get(doc.schema)
    if (validate === undefined) continue
    const documentsRef = [{ schema: doc.schema, name: doc.metadata?.name }]
    if (!validate(doc.data)) {
      const errors = (validate.errors ?? []).map((e: { instancePath: string, message?: string }) =>
        `${e.instancePath === '' ? '/' : e.instancePath}: ${e.message ?? 'is invalid'}`)
      const summary = `${doc.schema} ${doc.metadata?.name}: ${errors[0] ?? 'does not match its schema'}`
      messages.push(message(summary, `${doc.schema} schema`, { documents: documentsRef, diagnostic: errors.join('; ') }))
    }
  }
  for (const kind of SINGLETON_KINDS) {
    const count = documents.filter((d) => typeof d.schema === 'string' && d.schema.split('/')[1] === kind).length
    if (count !== 1) messages.push(message(`There are ${count} ${kind} documents. However, there should be one.`, `${kind} count`))
  }
  return messages
}
