// Reading a collection's documents at a revision, as the store lists them with the secrets it holds by reference.
// One reader serves two paths: a text to write back (collectionText: the buffer reset of buffer-reset.ts and the undo
// of staging.ts) and the answer of cleartext-secrets=true (withClearSecrets).
//
// The store lists an encrypted document with a reference to its secret in place of its data (a real Deckhand: its
// Barbican reference); only rendering resolves the reference. So the data of each encrypted document of a listing is
// taken from the same revision's rendered documents, matched by schema, layer and name. Rendered, a document that
// takes values by substitution or layering has other data than it has stored, and the store gives no other: the
// cleartext answer shows such a document's data as rendered, with a comment above it saying so, and no text to write
// back is made from it.
//
// What the store lists of a collection is not always what it holds either: it never lists ValidationPolicy
// documents. A text read from such a collection would write back something else, so it is marked inexact, with the
// reason, and never written as if it restored the collection.
import { isMap, isScalar, parseAllDocuments, type Document } from 'yaml'
import { ConflictError, DownstreamError, PYYAML_OPTIONS, type CallContext } from '@slipway/common'
import type { StoreClient } from '../../clients/store.ts'

const present = (value: unknown): boolean => value !== undefined && value !== null &&
  !(Array.isArray(value) && value.length === 0) && !(typeof value === 'object' && Object.keys(value).length === 0)

/**
 * Whether rendering may give a document other data than it has stored: it takes values by substitution, or from a
 * parent by layering (a replacement included).
 */
export function shapedByRendering (doc: { metadata?: unknown }): boolean {
  const metadata = (typeof doc.metadata === 'object' && doc.metadata !== null ? doc.metadata : {}) as
    { substitutions?: unknown, layeringDefinition?: { parentSelector?: unknown, actions?: unknown } | null }
  return present(metadata.substitutions) || present(metadata.layeringDefinition?.parentSelector) ||
    present(metadata.layeringDefinition?.actions)
}

/** The comment above the data of a secret shown as rendered. */
export const RENDERED_DATA_NOTE = ' data as rendered: this document takes values by substitution or layering, ' +
  'and the store gives its secret only rendered, not as stored'

// a stored document is one (schema, layer, name): a replaced parent shares its schema and name with its replacement
const keyOf = (doc: Document): string =>
  `${String(doc.get('schema'))}|${String(doc.getIn(['metadata', 'layeringDefinition', 'layer']))}|${String(doc.getIn(['metadata', 'name']))}`
const nameOf = (doc: Document): string => `${String(doc.get('schema'))} ${String(doc.getIn(['metadata', 'name']))}`
const isEncrypted = (doc: Document): boolean => doc.getIn(['metadata', 'storagePolicy']) === 'encrypted'

function parsed (text: string, what: string): Document[] {
  const docs = parseAllDocuments(text, PYYAML_OPTIONS)
  const list = Array.isArray(docs) ? docs : [docs]
  const broken = list.find((d) => d.errors.length > 0)
  if (broken !== undefined) {
    throw new DownstreamError('store',
      `The store answered unreadable YAML for ${what}: ${broken.errors[0]?.message ?? ''}`)
  }
  return list
}

/** The documents of a YAML stream the store answered, empty ones left out. */
const documentsOf = (text: string, what: string): Document[] => parsed(text, what).filter((d) => d.contents !== null)

interface RenderMessage { name?: unknown, message?: unknown, documents?: Array<{ schema?: unknown, name?: unknown }> }

/**
 * The messages of the store's error body, or the start of its text when it has none. A DataSchema failure (D002) is
 * named by its document only: Deckhand's message starts with the failing value for most keywords (`'…' is too
 * long`), and hides it only for type failures, so for a secret it would show the secret.
 */
export function renderErrors (store: StoreClient, text: string): string {
  const named = (m: RenderMessage): string => {
    if (m.name !== 'D002') return String(m.message ?? '')
    const doc = m.documents?.[0]
    return `${String(doc?.schema ?? 'a document')} ${String(doc?.name ?? '')} fails its DataSchema`.replace(/ {2,}/g, ' ')
  }
  try {
    const body = store.parseYaml<{ details?: { messageList?: RenderMessage[] } } | null>(text, 'rendered-documents')
    const messages = (body?.details?.messageList ?? []).map(named).filter((m) => m !== '')
    if (messages.length > 0) return messages.join('; ')
  } catch {
    // not the store's error body: its text below
  }
  return text.slice(0, 2000)
}

/**
 * The store's listing of `collection` at `revision` (asked for with cleartext-secrets=true) with every encrypted
 * document's data resolved. A listing without encrypted documents is answered as it is, without rendering. When
 * the secrets cannot be read — the revision does not render (a buffer staged in part, say), or rendering leaves an
 * encrypted document out (an abstract one) — the answer is a 409 saying why; the redacted read still works.
 */
export async function withClearSecrets (
  store: StoreClient,
  revision: number,
  collection: string,
  text: string,
  ctx: CallContext
): Promise<string> {
  if (!text.includes('encrypted')) return text
  const docs = parsed(text, `collection ${collection}`)
  const encrypted = docs.filter((d) => d.contents !== null && isEncrypted(d))
  if (encrypted.length === 0) return text

  const refuse = (why: string): ConflictError => new ConflictError('Unable to show the secrets in cleartext',
    `${why.replace(/\.$/, '')}. The secrets of collection ${collection} are read from the rendered documents of revision ${revision}; its documents can be read redacted.`)
  const schemas = [...new Set(encrypted.map((d) => String(d.get('schema'))))]
  const render = await store.rendered(revision, true, ctx, { schemas })
  if (!render.ok && render.status < 500) throw refuse(`The store cannot render revision ${revision}: ${renderErrors(store, render.text)}`)
  if (!render.ok) {
    throw new DownstreamError('store', `Deckhand indicated an error while rendering: ${render.text.slice(0, 2000)}`, {
      statusCode: 500, upstreamStatus: render.status
    })
  }
  const rendered = new Map(parsed(render.text, 'the rendered documents').filter((d) => d.contents !== null).map((d) => [keyOf(d), d]))

  // each encrypted document is written anew with its secret; the text between and around documents stays the store's
  // (a parsed document always has its place in the text: start, end of its value, end of the node)
  const span = (doc: Document | undefined): [number, number] => [doc?.range?.[0] ?? 0, doc?.range?.[2] ?? 0]
  let out = text.slice(0, span(docs[0])[0])
  for (const doc of docs) {
    const own = text.slice(...span(doc))
    if (!encrypted.includes(doc)) { out += own; continue }
    const source = rendered.get(keyOf(doc))
    if (source === undefined) {
      throw refuse(
        `The encrypted document ${nameOf(doc)} is not among the rendered documents (an abstract document is never rendered)`)
    }
    doc.set('data', source.get('data', true))
    if (shapedByRendering({ metadata: doc.toJS({ maxAliasCount: 100 })?.metadata }) && isMap(doc.contents)) {
      const pair = doc.contents.items.find((p) => isScalar(p.key) && p.key.value === 'data')
      if (pair !== undefined && isScalar(pair.key)) pair.key.commentBefore = RENDERED_DATA_NOTE
    }
    const body = doc.toString().replace(/^---\n/, '')
    out += own.startsWith('---') ? `---\n${body}` : body
  }
  return out + text.slice(span(docs.at(-1))[1])
}

/** A collection at a revision as a text to PUT back, or why no text can restore it (`inexact`). */
export interface CollectionText { text: string, encrypted: boolean, inexact?: string }

/**
 * Why a collection at `revision` holds documents the store never lists, or undefined: the revision that last wrote
 * the collection (a write replaces all its documents) wrote ValidationPolicy documents. A revision that wrote several
 * collections (a rollback) and such documents counts for each of them.
 */
async function unlisted (store: StoreClient, revision: number, collection: string, ctx: CallContext): Promise<string | undefined> {
  const writer = (await store.revisions(ctx)).filter((r) => r.id <= revision && r.wrote?.includes(collection) === true).at(-1)
  if (writer === undefined) return undefined
  const policies = await store.validationPolicies(writer.id, ctx)
  if (policies.length === 0) return undefined
  return `it holds ValidationPolicy documents (${policies.join(', ')}), which the store keeps but never lists`
}

/**
 * A collection's documents at a revision as a YAML stream to PUT back: the store's own text of each document (so
 * every value keeps its written form, `1.0` and quoted strings included), without the `id` and `status` the store
 * adds when it lists them. An encrypted document is listed with a reference in place of its data: its data is taken
 * from the revision's rendered documents, where the store resolves it — when rendering leaves it as stored. A
 * collection no text restores (documents the store does not list, a secret rendering changes, secrets that cannot be
 * read because the revision does not render) answers no text and `inexact` saying why; a store that fails is a 5xx.
 */
export async function collectionText (
  store: StoreClient,
  revision: number,
  collection: string,
  ctx: CallContext
): Promise<CollectionText> {
  const docs = documentsOf(await store.documents(revision, { collection, cleartext: true }, ctx), `collection ${collection}`)
  const encrypted = docs.filter(isEncrypted)
  const inexact = (why: string): CollectionText => ({ text: '', encrypted: encrypted.length > 0, inexact: why })
  const hidden = await unlisted(store, revision, collection, ctx)
  if (hidden !== undefined) return inexact(hidden)
  if (encrypted.length > 0) {
    const shaped = encrypted.find((d) => shapedByRendering({ metadata: d.toJS({ maxAliasCount: 100 })?.metadata }))
    if (shaped !== undefined) {
      return inexact(`its encrypted document ${nameOf(shaped)} takes values by substitution or layering, ` +
        'and the store gives its data only as rendered, not as stored')
    }
    const rendered = await store.rendered(revision, true, ctx)
    if (!rendered.ok && rendered.status < 500) {
      return inexact(`its secrets cannot be read: the store cannot render revision ${revision} (${renderErrors(store, rendered.text)})`)
    }
    if (!rendered.ok) throw new DownstreamError('store', `The secrets of collection ${collection} could not be read (${rendered.status})`)
    const byKey = new Map(documentsOf(rendered.text, 'the rendered documents').map((d) => [keyOf(d), d]))
    for (const doc of encrypted) {
      const source = byKey.get(keyOf(doc))
      if (source === undefined) {
        return inexact(`its encrypted document ${nameOf(doc)} is not among the rendered documents ` +
          '(an abstract or replaced document is never rendered)')
      }
      doc.set('data', source.get('data', true))
    }
  }
  const text = docs.map((doc) => {
    doc.delete('id')
    doc.delete('status')
    return `---\n${doc.toString().replace(/^---\n/, '')}`
  }).join('')
  return { text, encrypted: encrypted.length > 0 }
}
