// The four versions of the site's documents, read from the store's revision tags (as Shipyard reads them).
import { VERSION_NAMES, type CallContext, type VersionName } from '@slipway/common'
import type { DiffStatus, Revision, StoreClient } from '../../clients/store.ts'

export { VERSION_NAMES, type VersionName }
export const SITE_ACTION_SUCCESS = 'site-action-success'
export const SITE_ACTION_FAILURE = 'site-action-failure'

export interface Versions {
  revisions: Revision[]
  committed: number | undefined
  buffer: number | undefined
  last_site_action: number | undefined
  successful_site_action: number | undefined
  latest: number | undefined
}

function newestWith (revisions: Revision[], tags: string[]): number | undefined {
  for (let i = revisions.length - 1; i >= 0; i--) {
    const revision = revisions[i] as Revision
    if (revision.tags.some((t) => tags.includes(t))) return revision.id
  }
  return undefined
}

/** Every version's revision id, from one revision list. */
export function versionsOf (revisions: Revision[]): Versions {
  const latest = revisions.at(-1)?.id
  const committed = newestWith(revisions, ['committed', 'rollback_commit'])
  return {
    revisions,
    committed,
    latest,
    buffer: latest !== undefined && (committed === undefined || latest > committed) ? latest : undefined,
    last_site_action: newestWith(revisions, [SITE_ACTION_SUCCESS, SITE_ACTION_FAILURE]),
    successful_site_action: newestWith(revisions, [SITE_ACTION_SUCCESS])
  }
}

export async function readVersions (store: StoreClient, ctx: CallContext): Promise<Versions> {
  return versionsOf(await store.revisions(ctx))
}

/** Collections changed in the buffer (diff committed-or-0 → buffer, anything but unmodified). */
export async function bufferChanges (store: StoreClient, versions: Versions, ctx: CallContext): Promise<Record<string, DiffStatus>> {
  if (versions.buffer === undefined) return {}
  const diff = await store.diff(versions.committed ?? 0, versions.buffer, ctx)
  return Object.fromEntries(Object.entries(diff).filter(([, status]) => status !== 'unmodified'))
}
