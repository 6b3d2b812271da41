// Validation messages never show a secret's value. The store's DataSchema failures (D002, whether at rendering or
// among a revision's validations) start with the failing value for most keywords (`'…' is too long`, `'…' does not
// match`) and quote the failing section; Deckhand hides the value only for type failures. So a message that names
// an encrypted document of the revision keeps its document, path and rule, with Deckhand's own words for a hidden
// value in place of its text and section.
import { parseYamlDocuments, type CallContext, type ValidationMessage } from '@slipway/common'
import type { StoreClient } from '../../clients/store.ts'

/** What stands for a secret's value in a message (Deckhand's own wording). */
export const SANITIZED = 'Sanitized to avoid exposing secret.'

/** Whether a document, by schema and name, is one whose value a message must not show. */
export type IsSecret = (doc: { schema?: unknown, name?: unknown }) => boolean

export const NO_SECRETS: IsSecret = () => false

/**
 * The encrypted documents of a revision, read from its listing (which shows no secret) when `needed`; when the
 * listing cannot be read, every named document is taken for a secret.
 */
export async function secretsOf (store: StoreClient, revisionId: number, needed: boolean, ctx: CallContext): Promise<IsSecret> {
  if (!needed) return NO_SECRETS
  const keyOf = (schema: unknown, name: unknown): string => `${String(schema)}|${String(name)}`
  try {
    const listing = await store.documents(revisionId, { cleartext: false }, ctx)
    const docs = parseYamlDocuments(listing) as Array<{ schema?: unknown, metadata?: { name?: unknown, storagePolicy?: unknown } } | null>
    const encrypted = new Set(docs.filter((d) => d?.metadata?.storagePolicy === 'encrypted')
      .map((d) => keyOf(d?.schema, d?.metadata?.name)))
    return (doc) => encrypted.has(keyOf(doc.schema, doc.name))
  } catch {
    return () => true
  }
}

/** A message of the store's render failure that names a secret, with its text and diagnostic sanitized. */
export function sanitizedMessage (m: ValidationMessage, isSecret: IsSecret): ValidationMessage {
  if (!(m.documents ?? []).some((d) => isSecret(d))) return m
  return {
    ...m,
    message: SANITIZED,
    diagnostic: m.diagnostic === null || m.diagnostic === undefined ? m.diagnostic : SANITIZED
  }
}

/** A value of the store's validation entry as text: objects (a schema, a section of data) as JSON. */
const shown = (value: unknown): string =>
  value === undefined || value === null ? 'not specified' : typeof value === 'object' ? JSON.stringify(value) : String(value)

/**
 * The store's validation results as validation messages. An entry naming a secret (`isSecret`) keeps its document,
 * path and rule, never its text or section, which may quote the value.
 */
export function deckhandMessages (
  results: Array<{ name?: string, errors?: Array<Record<string, unknown>> }>,
  isSecret: IsSecret = NO_SECRETS
): ValidationMessage[] {
  return results.flatMap((result) => (result.errors ?? []).map((e) => {
    const secret = isSecret({ schema: e.schema, name: e.name })
    return {
      kind: 'ValidationMessage',
      name: typeof e.name === 'string' ? e.name : result.name ?? 'deckhand-validation',
      error: true,
      level: 'Error',
      message: secret ? SANITIZED : String(e.message ?? 'Deckhand validation error'),
      documents: [{ name: String(e.name ?? 'not specified'), schema: String(e.schema ?? 'not specified') }],
      diagnostic: `Section: ${secret ? SANITIZED : shown(e.error_section)} at ${shown(e.path)} (schema ${shown(e.validation_schema)} at ${shown(e.schema_path)})`,
      source: 'Deckhand'
    }
  }))
}

/** Whether any of the store's validation results holds an error (whose message may need a secret hidden). */
export const anyErrors = (results: Array<{ errors?: unknown[] }>): boolean => results.some((r) => (r.errors?.length ?? 0) > 0)
