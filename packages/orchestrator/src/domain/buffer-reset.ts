// Clearing the buffer for `buffermode=replace` without the store's rollback. Deckhand's rollback to revision N does
// not rebuild N's documents: for every bucket N did not write it restores the oldest copy ever written of each
// document, deleted ones included. So each collection the buffer changed is written back as the committed revision
// holds it (no documents: emptied), and the result is checked against the committed revision before going on.
// The same reading of a collection at a revision gives the texts that undo a staging (staging.ts).
//
// What the store lists of a collection is not always what it holds. It never lists ValidationPolicy documents, and it
// lists an encrypted document with a reference in place of its secret, which only rendering resolves: rendered, the
// secret of a document that takes values by substitution or layering is not the one stored. A text read from such a
// collection would write back something else, so it is marked inexact, with the reason, and never written as if it
// restored the collection.
import { parseAllDocuments, type Document } from 'yaml'
import { ConflictError, DownstreamError, PYYAML_OPTIONS, type CallContext } from '@slipway/common'
import type { DiffStatus, StoreClient } from '../clients/store.ts'
import type { PlannedWrite } from './staging.ts'
import { readVersions } from './versions.ts'
import { renderErrors, shapedByRendering } from './cleartext-secrets.ts'

function documentsOf (text: string, what: string): Document[] {
  const docs = parseAllDocuments(text, PYYAML_OPTIONS)
  const list = Array.isArray(docs) ? docs : [docs]
  const broken = list.find((d) => d.errors.length > 0)
  if (broken !== undefined) {
    throw new DownstreamError('store',
      `The store answered unreadable YAML for ${what}: ${broken.errors[0]?.message ?? ''}`)
  }
  return list.filter((d) => d.contents !== null)
}

// a stored document is one (schema, layer, name); a replaced parent shares its schema and name with its replacement
const keyOf = (doc: Document): string =>
  `${String(doc.get('schema'))}|${String(doc.getIn(['metadata', 'layeringDefinition', 'layer']))}|${String(doc.getIn(['metadata', 'name']))}`
const nameOf = (doc: Document): string => `${String(doc.get('schema'))} ${String(doc.getIn(['metadata', 'name']))}`
const isEncrypted = (doc: Document): boolean => doc.getIn(['metadata', 'storagePolicy']) === 'encrypted'

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

/**
 * The writes that clear the buffer for `buffermode=replace`: each collection the buffer changed gets what the
 * committed revision (or the empty store) holds for it; the collection being staged is emptied, as its new documents
 * follow. Only reads: the caller makes the writes. A collection that cannot be written back exactly is a 409 before
 * anything is written.
 */
export async function planReset (
  store: StoreClient,
  committed: number | undefined,
  changes: Record<string, DiffStatus>,
  staged: string,
  ctx: CallContext
): Promise<{ writes: PlannedWrite[], withSecrets: Set<string> }> {
  const withSecrets = new Set<string>()
  const writes: PlannedWrite[] = []
  for (const collection of Object.keys(changes).sort()) {
    let text = ''
    if (committed !== undefined && changes[collection] !== 'created' && collection !== staged) {
      const restored = await collectionText(store, committed, collection, ctx)
      if (restored.inexact !== undefined) {
        throw new ConflictError('Unable to replace the buffer',
          `Collection ${collection} cannot be written back as committed: ${restored.inexact}. ` +
          'Nothing was written; the buffer is as before', {
            errorList: [{
              message: `Stage collection ${collection} itself with buffermode=replace (its documents as they are to be), ` +
                'or commit the buffer as it is.'
            }]
          })
      }
      text = restored.text
      if (restored.encrypted) withSecrets.add(collection)
    }
    writes.push({ collection, text, kind: 'reset' })
  }
  return { writes, withSecrets }
}

/**
 * After the writes of `planReset` the buffer must hold nothing but the collection being staged (emptied so far). A
 * collection left different is a 409 naming it. A collection with secrets may still diff as modified: a secret
 * written again after its document was deleted gets a new reference in the store, though its value is the committed
 * one.
 */
export async function checkReset (
  store: StoreClient,
  committed: number | undefined,
  withSecrets: Set<string>,
  staged: string,
  ctx: CallContext
): Promise<void> {
  const after = await readVersions(store, ctx)
  if (after.latest === undefined) return
  const left = Object.entries(await store.diff(committed ?? 0, after.latest, ctx))
    .filter(([c, status]) => c !== staged && status !== 'unmodified' && !(status === 'modified' && withSecrets.has(c))).map(([c]) => c)
  if (left.length > 0) {
    const reason = `The buffer could not be cleared: collection ${left.join(', ')} differs from the committed revision after being written back`
    throw new ConflictError('Unable to replace the buffer', reason, {
      errorList: [{ message: 'Stage the collection itself with buffermode=replace, or commit the buffer as it is.' }]
    })
  }
}
