// How the stand-in's namespaced Kubernetes objects are answered in a list, and the Success status of a delete.
import type { ObjectPage } from './domain/object-list.ts'
import type { KubeSuccess } from './schemas/nodes.ts'

export interface KubeList<T> {
  kind: string
  apiVersion: 'v1'
  metadata: { resourceVersion: string, continue?: string, remainingItemCount?: number }
  items: Array<Omit<T, 'kind' | 'apiVersion'>>
}

/** A `<Kind>List` of one page; as the real server sends them, the items name neither their kind nor apiVersion. */
export function toKubeList<T extends { kind: string, apiVersion: string }> (kind: string, page: ObjectPage<T>): KubeList<T> {
  const metadata: KubeList<T>['metadata'] = { resourceVersion: String(page.resourceVersion) }
  if (page.continue !== undefined) metadata.continue = page.continue
  if (page.remainingItemCount !== undefined) metadata.remainingItemCount = page.remainingItemCount
  const items = page.items.map((item) => {
    const { kind: _kind, apiVersion: _apiVersion, ...rest } = item
    return rest
  })
  return { kind, apiVersion: 'v1', metadata, items }
}

/** What Kubernetes answers for a delete of an object it does not return: Success, naming what was deleted. */
export function deletedStatus (resource: string, name: string, uid: string): KubeSuccess {
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', details: { name, kind: resource, uid } }
}
