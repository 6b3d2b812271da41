// Clearing the buffer for `buffermode=replace` without the store's rollback. Deckhand's rollback to revision N does
// not rebuild N's documents: for every bucket N did not write it restores the oldest copy ever written of each
// document, deleted ones included. So each collection the buffer changed is written back as the committed revision
// holds it (no documents: emptied), and the result is checked against the committed revision before going on.
// The same reading of a collection at a revision gives the texts that undo a staging (staging.ts).
import { parseAllDocuments, type Document } from 'yaml'
import { ConflictError, DownstreamError, PYYAML_OPTIONS, type CallContext } from '@slipway/common'
import type { DiffStatus, StoreClient } from '../clients/store.ts'
import type { PlannedWrite } from './staging.ts'
import { readVersions } from './versions.ts'

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

const nameOf = (doc: Document): string => `${String(doc.get('schema'))}|${String(doc.getIn(['metadata', 'name']))}`

/**
 * A collection's documents at a revision as a YAML stream to PUT back: the store's own text of each document (so
 * every value keeps its written form, `1.0` and quoted strings included), without the `id` and `status` the store
 * adds when it lists them. An encrypted document is listed with a reference in place of its data: its data is taken
 * from the revision's rendered documents, where the store resolves it.
 */
export async function collectionText (
  store: StoreClient,
  revision: number,
  collection: string,
  ctx: CallContext
): Promise<{ text: string, encrypted: boolean }> {
  const docs = documentsOf(await store.documents(revision, { collection, cleartext: true }, ctx), `collection ${collection}`)
  const encrypted = docs.filter((d) => d.getIn(['metadata', 'storagePolicy']) === 'encrypted')
  if (encrypted.length > 0) {
    const rendered = await store.rendered(revision, true, ctx)
    if (!rendered.ok) throw new DownstreamError('store', `The secrets of collection ${collection} could not be read (${rendered.status})`)
    const byName = new Map(documentsOf(rendered.text, 'the rendered documents').map((d) => [nameOf(d), d]))
    for (const doc of encrypted) {
      const source = byName.get(nameOf(doc))
      if (source === undefined) {
        throw new DownstreamError('store',
          `The secret document ${nameOf(doc).replace('|', ' ')} of collection ${collection} is not among the rendered documents`)
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
 * committed revision (or the empty store) holds for it. Only reads: the caller makes the writes.
 */
export async function planReset (
  store: StoreClient,
  committed: number | undefined,
  changes: Record<string, DiffStatus>,
  ctx: CallContext
): Promise<{ writes: PlannedWrite[], withSecrets: Set<string> }> {
  const withSecrets = new Set<string>()
  const writes: PlannedWrite[] = []
  for (const collection of Object.keys(changes).sort()) {
    let text = ''
    if (committed !== undefined && changes[collection] !== 'created') {
      const restored = await collectionText(store, committed, collection, ctx)
      text = restored.text
      if (restored.encrypted) withSecrets.add(collection)
    }
    writes.push({ collection, text, kind: 'reset' })
  }
  return { writes, withSecrets }
}

/**
 * After the writes of `planReset` the buffer must be empty. A collection that cannot be restored exactly (it holds
 * documents the store never lists, such as ValidationPolicy documents) is a 409 naming it. A collection with
 * secrets may still diff as modified: a secret written again after its document was deleted gets a new reference
 * in the store, though its value is the committed one.
 */
export async function checkReset (
  store: StoreClient,
  committed: number | undefined,
  withSecrets: Set<string>,
  ctx: CallContext
): Promise<void> {
  const after = await readVersions(store, ctx)
  if (after.latest === undefined) return
  const left = Object.entries(await store.diff(committed ?? 0, after.latest, ctx))
    .filter(([c, status]) => status !== 'unmodified' && !(status === 'modified' && withSecrets.has(c))).map(([c]) => c)
  if (left.length > 0) {
    const reason = `The buffer could not be cleared: collection ${left.join(', ')} differs from the committed revision after being written back`
    throw new ConflictError('Unable to replace the buffer', reason, {
      errorList: [{
        message: 'The collection holds documents the store does not list (such as ValidationPolicy documents). Stage it again, or commit or empty the buffer first.'
      }]
    })
  }
}
