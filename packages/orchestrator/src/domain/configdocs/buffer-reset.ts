// Clearing the buffer for `buffermode=replace` without the store's rollback. Deckhand's rollback to revision N does
// not rebuild N's documents: for every bucket N did not write it restores the oldest copy ever written of each
// document, deleted ones included. So each collection the buffer changed is written back as the committed revision
// holds it (no documents: emptied), and the result is checked against the committed revision before going on.
// The collection's text is read as collection-documents.ts reads it, as for the texts that undo a staging.
import { ConflictError, type CallContext } from '@slipway/common'
import type { DiffStatus, StoreClient } from '../../clients/store.ts'
import type { PlannedWrite } from './staging.ts'
import { readVersions } from './versions.ts'
import { collectionText } from './collection-documents.ts'

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
