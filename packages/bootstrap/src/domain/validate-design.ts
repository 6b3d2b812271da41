// Design validation (spec/bootstrap.md §7.3): each document against the DataSchema of its kind found in
// the design itself (draft-04), and exactly one Docker, Genesis, HostSystem, Kubelet and KubernetesNetwork.
import AjvDraft04 from 'ajv-draft-04'
import type { ValidationMessage } from '@slipway/common'
import type { DesignDocument } from './documents.ts'

// a CommonJS module: its default export is the class
const Ajv04 = AjvDraft04.default
const SINGLETON_KINDS = ['Docker', 'Genesis', 'HostSystem', 'Kubelet', 'KubernetesNetwork']

function message (text: string, name: string, extra: Partial<ValidationMessage> = {}): ValidationMessage {
  return { kind: 'ValidationMessage', name, message: text, error: true, level: 'Error', documents: [], diagnostic: null, ...extra }
}

/** Every problem of the design as validation messages; an empty list means it validates. */
export function validateDesign (documents: DesignDocument[]): ValidationMessage[] {
  const schemas = new Map<string, unknown>()
  for (const doc of documents.filter((d) => d.schema?.startsWith('deckhand/DataSchema/'))) {
    const name = doc.metadata?.name
    if (schemas.has(name)) return [message(`Duplicate schema specified for: ${name}`, 'Duplicate DataSchema', { documents: [{ schema: doc.schema, name }] })]
    schemas.set(name, doc.data)
  }
  const messages: ValidationMessage[] = []
  // draft-04 as upstream: formats and unknown keywords ignored, a $ref to nothing accepted
  const ajv = new Ajv04({ strict: false, allErrors: true, validateFormats: false, logger: false })
  const compiled = new Map<string, ReturnType<typeof ajv.compile> | string>()
  for (const [name, schema] of schemas) {
    try {
      compiled.set(name, ajv.compile(schema as object))
    } catch (error) {
      compiled.set(name, (error as Error).message)
    }
  }
  for (const doc of documents) {
    if (typeof doc.schema !== 'string') {
      messages.push(message('"schema" is a required document key.', 'Document envelope', { documents: [{ name: doc.metadata?.name ?? null }] }))
      continue
    }
    const validate = compiled.get(doc.schema)
    if (validate === undefined) continue
    const documentsRef = [{ schema: doc.schema, name: doc.metadata?.name }]
    if (typeof validate === 'string') {
      messages.push(message(`The DataSchema ${doc.schema} is not a valid JSON schema: ${validate}`, `${doc.schema} schema`, { documents: documentsRef }))
      continue
    }
    if (!validate(doc.data)) {
      const errors = (validate.errors ?? []).map((e: { instancePath: string, message?: string }) => `${e.instancePath === '' ? '/' : e.instancePath}: ${e.message ?? 'is invalid'}`)
      messages.push(message(`${doc.schema} ${doc.metadata?.name}: ${errors[0] ?? 'does not match its schema'}`, `${doc.schema} schema`, { documents: documentsRef, diagnostic: errors.join('; ') }))
    }
  }
  for (const kind of SINGLETON_KINDS) {
    const count = documents.filter((d) => typeof d.schema === 'string' && d.schema.split('/')[1] === kind).length
    if (count !== 1) messages.push(message(`There are ${count} ${kind} documents. However, there should be one.`, `${kind} count`))
  }
  return messages
}
