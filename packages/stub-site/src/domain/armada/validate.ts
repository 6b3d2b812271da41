// Validates a design's Armada documents as Armada's validate_armada_documents does: each armada/*/v1 document
// against its schema (ARM100), then every manifest built from the set (ARM001); other documents are not Armada's.
import type { ArmadaValidationMessage } from '../../schemas/armada.ts'
import { pyRepr } from './diff.ts'
import { buildManifest, CHART_SCHEMA, GROUP_SCHEMA, isMapping, MANIFEST_SCHEMA, type Document } from './manifest.ts'

type Kind = 'string' | 'boolean' | 'integer' | 'object' | 'array' | 'string-array' | 'test'

interface Shape { properties: Record<string, Kind>, required: string[] }

// Armada's v1 schemas (armada/schemas/*-v1.yaml): the fields each document may have, their types, the required ones
const SHAPES: Record<string, Shape> = {
  [CHART_SCHEMA]: {
    properties: {
      release: 'string',
      chart_name: 'string',
      namespace: 'string',
      values: 'object',
      dependencies: 'string-array',
      protected: 'object',
      test: 'test',
      timeout: 'integer',
      wait: 'object',
      source: 'object',
      install: 'object',
      upgrade: 'object'
    },
    required: ['dependencies', 'namespace', 'chart_name', 'release', 'source']
  },
  [GROUP_SCHEMA]: {
    properties: { name: 'string', description: 'string', sequenced: 'boolean', test_charts: 'boolean', chart_group: 'string-array' },
    required: ['chart_group']
  },
  [MANIFEST_SCHEMA]: {
    properties: { release_prefix: 'string', chart_groups: 'string-array' },
    required: ['chart_groups', 'release_prefix']
  }
}

const SOURCE_REQUIRED = ['location', 'subpath', 'type']

const JSON_TYPES: Record<Kind, string> = {
  string: 'string', boolean: 'boolean', integer: 'integer', object: 'object', array: 'array', 'string-array': 'array', test: 'boolean'
}

function typeProblem (value: unknown, kind: Kind): string | undefined {
  const fits = {
    string: typeof value === 'string',
    boolean: typeof value === 'boolean',
    integer: Number.isInteger(value),
    object: isMapping(value),
    array: Array.isArray(value),
    'string-array': Array.isArray(value),
    test: typeof value === 'boolean' || isMapping(value)
  }[kind]
  if (!fits) return `${pyRepr(value)} is not of type '${JSON_TYPES[kind]}'`
  if (kind === 'string-array') {
    const bad = (value as unknown[]).find((item) => typeof item !== 'string')
    if (bad !== undefined) return `${pyRepr(bad)} is not of type 'string'`
  }
  return undefined
}

/** What jsonschema would say about one document's data (empty: it fits its schema). */
function schemaProblems (document: Document, raw: unknown): string[] {
  const shape = SHAPES[document.schema]
  if (shape === undefined) return []
  if (!isMapping(raw)) return [`${pyRepr(raw)} is not of type 'object'`]
  const problems: string[] = []
  const unexpected = Object.keys(raw).filter((key) => !(key in shape.properties))
  if (unexpected.length > 0) {
    const names = unexpected.map((k) => `'${k}'`).join(', ')
    problems.push(`Additional properties are not allowed (${names} ${unexpected.length === 1 ? 'was' : 'were'} unexpected)`)
  }
  for (const key of shape.required) if (!(key in raw)) problems.push(`'${key}' is a required property`)
  for (const [key, kind] of Object.entries(shape.properties)) {
    if (!(key in raw)) continue
    const problem = typeProblem(raw[key], kind)
    if (problem !== undefined) problems.push(problem)
  }
  if (document.schema === CHART_SCHEMA && isMapping(raw.source)) {
    for (const key of SOURCE_REQUIRED) if (!(key in raw.source)) problems.push(`'${key}' is a required property`)
  }
  return problems
}

function message (text: string, name: string, document?: Document): ArmadaValidationMessage {
  return {
    message: text,
    error: true,
    name,
    documents: document === undefined ? [] : [{ schema: document.schema, name: document.name }],
    level: 'Error',
    kind: 'ValidationMessage'
  }
}

/**
 * The validation messages of a design's documents (raw, as parsed): empty when its Armada documents are valid.
 * Manifests are built only when every document fits its schema, as Armada does.
 */
export function validateArmadaDocuments (raws: unknown[]): ArmadaValidationMessage[] {
  const messages: ArmadaValidationMessage[] = []
  const documents: Document[] = []
  for (const raw of raws) {
    if (!isMapping(raw)) continue
    const document: Document = {
      schema: typeof raw.schema === 'string' ? raw.schema : '',
      name: isMapping(raw.metadata) && typeof raw.metadata.name === 'string' ? raw.metadata.name : '',
      data: isMapping(raw.data) ? raw.data : {}
    }
    documents.push(document)
    for (const problem of schemaProblems(document, raw.data)) {
      messages.push(message(`Invalid document [${document.schema}] ${document.name}: ${problem}.`, 'ARM100', document))
    }
  }
  if (messages.length > 0) return messages
  for (const manifest of documents.filter((d) => d.schema === MANIFEST_SCHEMA)) {
    try {
      buildManifest(documents, manifest.name)
    } catch (error) {
      messages.push(message((error as Error).message, 'ARM001'))
    }
  }
  return messages
}
