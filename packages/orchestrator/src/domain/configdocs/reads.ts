// Reading the configuration documents: two versions' collections compared (GET /configdocs), one collection at a
// version (GET /configdocs/{collection}, its secrets in cleartext when asked), and the rendered documents of a
// version (GET /renderedconfigdocs).
import { BadRequestError, DownstreamError, NotFoundError, type RequestContext } from '@slipway/common'
import type { StoreClient } from '../../clients/store.ts'
import { bufferChanges, readVersions, type VersionName } from './versions.ts'
import { withClearSecrets } from './collection-documents.ts'

const RANK: Record<VersionName, number> = { successful_site_action: 0, last_site_action: 1, committed: 2, buffer: 3 }

export function createConfigdocsReads (deps: { store: StoreClient }) {
  const { store } = deps

  /** The collections of two different versions compared, the older as base whatever order the caller gave. */
  async function status (versions: [VersionName, VersionName], ctx: RequestContext) {
    const [baseName, newName] = [...versions].sort((a, b) => RANK[a] - RANK[b]) as [VersionName, VersionName]
    const v = await readVersions(store, ctx)
    for (const name of [baseName, newName]) {
      if ((name === 'last_site_action' || name === 'successful_site_action') && v[name] === undefined) {
        throw new NotFoundError('Version does not exist', `${name} version does not exist`)
      }
    }
    let baseId = v[baseName] ?? 0
    let newId = v[newName]
    if (baseName === 'committed' && v.committed === undefined) { baseId = 0; newId = v.buffer ?? 0 }
    newId ??= v.buffer ?? baseId
    const diff = await store.diff(baseId, newId, ctx)
    return Object.keys(diff).sort().map((name) => ({
      collection_name: name,
      base_version: baseName,
      base_revision: baseId,
      new_version: newName,
      new_revision: newId,
      base_status: diff[name] === 'created' ? 'not present' : 'present',
      new_status: diff[name] ?? 'unmodified'
    }))
  }

  async function collection (collectionId: string, version: VersionName, cleartext: boolean, ctx: RequestContext): Promise<string> {
    const v = await readVersions(store, ctx)
    // in cleartext, the store's references to secrets are replaced by the secrets (collection-documents.ts)
    const shown = async (revision: number, text: string): Promise<string> =>
      cleartext ? await withClearSecrets(store, revision, collectionId, text, ctx) : text
    if (version === 'buffer') {
      const changes = await bufferChanges(store, v, ctx)
      // own keys only: a collection named `constructor` is not in every buffer
      const status = Object.hasOwn(changes, collectionId) ? changes[collectionId] : undefined
      if (status === undefined || v.buffer === undefined) {
        throw new NotFoundError('No documents to retrieve', 'The Shipyard buffer is empty or does not contain this collection')
      }
      // a collection emptied in the buffer (to be deleted at commit) reads as an empty body
      if (status === 'deleted') return ''
      return await shown(v.buffer, await store.documents(v.buffer, { collection: collectionId, cleartext }, ctx))
    }
    // A collection is present at a revision when it has live documents there. The revision list's `buckets`
    // names only the buckets that revision itself wrote, so it cannot tell: a collection committed long ago is
    // inherited by every later revision, and one emptied by a commit has no documents after it.
    const id = v[version]
    const absent = (): NotFoundError =>
      new NotFoundError('No documents to retrieve', `No collection ${collectionId} for revision ${version}`)
    if (id === undefined) throw absent()
    const text = await store.documents(id, { collection: collectionId, cleartext }, ctx)
    if (text.trim() === '' || text.trim() === '[]') throw absent()
    return await shown(id, text)
  }

  async function rendered (version: VersionName, cleartext: boolean, ctx: RequestContext): Promise<string> {
    const v = await readVersions(store, ctx)
    const id = v[version]
    if (id === undefined) throw new NotFoundError('This revision does not exist', `${version} version does not exist`)
    const result = await store.rendered(id, cleartext, ctx)
    // documents that fail validation (the store's 4xx) are the caller's fault, a 400; only the store's own failure is
    // a 5xx
    if (!result.ok && result.status < 500) {
      throw new BadRequestError('Deckhand indicated an error while rendering', result.text.slice(0, 2000))
    }
    if (!result.ok) {
      throw new DownstreamError('store', `Deckhand indicated an error while rendering: ${result.text.slice(0, 2000)}`, {
        statusCode: 500, upstreamStatus: result.status
      })
    }
    return result.text
  }

  return { status, collection, rendered }
}

export type ConfigdocsReads = ReturnType<typeof createConfigdocsReads>
