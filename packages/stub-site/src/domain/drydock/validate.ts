// Design validation as Drydock's ingester does it: every drydock/<Kind>/v1 document of the design is checked
// against Drydock's schema for its kind (draft-04); each problem is a DD001 error naming the document.
import AjvDraft04 from 'ajv-draft-04'
import type { ErrorObject, ValidateFunction } from 'ajv-draft-04'
import { DRYDOCK_DOCUMENT_SCHEMAS } from '../../schemas/drydock-documents.ts'
import type { DesignMessage, DesignValidation } from '../../schemas/drydock.ts'
import { pythonTime } from './task-record.ts'

// a CommonJS module: its default export is the class
const Ajv04 = AjvDraft04.default

const ajv = new Ajv04({ strict: false, allErrors: true, validateFormats: false, logger: false })
const validators = new Map<string, ValidateFunction>(
  Object.entries(DRYDOCK_DOCUMENT_SCHEMAS).map(([schema, json]) => [schema, ajv.compile(json)])
)

/** A value as Python's repr writes it in jsonschema's messages (strings quoted once, lists and maps as Python). */
function pythonRepr (value: unknown): string {
  if (typeof value === 'string') return `'${value}'`
  if (value === null || value === undefined) return 'None'
  if (typeof value === 'boolean') return value ? 'True' : 'False'
  if (Array.isArray(value)) return `[${value.map(pythonRepr).join(', ')}]`
  if (typeof value === 'object') return `{${Object.entries(value).map(([k, v]) => `'${k}': ${pythonRepr(v)}`).join(', ')}}`
  return String(value)
}

function valueAt (data: unknown, pointer: string): unknown {
  let here = data
  for (const part of pointer.split('/').slice(1)) {
    const key = part.replaceAll('~1', '/').replaceAll('~0', '~')
    here = typeof here === 'object' && here !== null ? (here as Record<string, unknown>)[key] : undefined
  }
  return here
}

/** An ajv error in the words of Python's jsonschema, which Drydock's messages quote. */
function describe (error: ErrorObject, data: unknown): string {
  const params = error.params as Record<string, unknown>
  switch (error.keyword) {
    case 'additionalProperties':
      return `Additional properties are not allowed (${pythonRepr(params.additionalProperty)} was unexpected)`
    case 'type':
      return `${pythonRepr(valueAt(data, error.instancePath))} is not of type ${pythonRepr(params.type)}`
    case 'required':
      return `${pythonRepr(params.missingProperty)} is a required property`
    case 'enum':
      return `${pythonRepr(valueAt(data, error.instancePath))} is not one of ${pythonRepr(params.allowedValues)}`
    default:
      return `${error.instancePath === '' ? 'data' : error.instancePath} ${error.message ?? 'is invalid'}`
  }
}

const record = (value: unknown): Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? value as Record<string, unknown> : {}

/** Every DD001 message of the design: none when each drydock document fits its kind's schema. */
export function validateDesignDocuments (documents: unknown[], now: Date = new Date()): DesignMessage[] {
  const messages: DesignMessage[] = []
  for (const document of documents) {
    const doc = record(document)
    const schema = typeof doc.schema === 'string' ? doc.schema : ''
    const parts = schema.split('/')
    // Drydock skips what does not split into namespace/kind/version, and reads only its own namespace
    if (parts.length !== 3 || parts[0] !== 'drydock') continue
    const validate = validators.get(schema)
    if (validate === undefined) continue
    const data = doc.data ?? []
    if (validate(data)) continue
    const name = record(doc.metadata).name
    const ref = { schema, name: typeof name === 'string' ? name : 'Unknown' }
    for (const error of validate.errors ?? []) {
      messages.push({
        kind: 'ValidationMessage',
        name: 'DD001',
        message: `${parts[1] ?? ''}:${parts[2] ?? ''} schema validation error: ${describe(error, data)}`,
        error: true,
        level: 'Error',
        diagnostic: 'Invalid input file - see Drydock Troubleshooting Guide for DD001',
        ts: pythonTime(now),
        documents: [ref]
      })
    }
  }
  return messages
}

/** The Status validatedesign answers: 200 and `Success` with no error, else 400 and the result `failure`. */
export function designValidation (messages: DesignMessage[]): DesignValidation {
  const errorCount = messages.filter((m) => m.error).length
  return {
    kind: 'Status',
    apiVersion: 'v1.0',
    metadata: {},
    message: null,
    reason: null,
    status: errorCount === 0 ? 'Success' : 'failure',
    details: { errorCount, messageList: messages },
    code: errorCount === 0 ? 200 : 400
  }
}
