// Lists namespaced Kubernetes objects (pods, ConfigMaps) the way the API server does, in one namespace or all of them.
import { createListPages, type ListOptions, type ListPage } from './list-pages.ts'

export type ObjectListOptions = ListOptions
export type ObjectPage<T> = ListPage<T>

export interface Listed { metadata: { name: string, namespace: string, labels?: Record<string, string> | undefined } }

export function createObjectList<T extends Listed> (deps: {
  /** Every object of the kind, and the version they were read at. */
  read: () => { items: T[], resourceVersion: number }
  /** The fields Kubernetes lets the kind be selected on, and how to read each. */
  fields: Record<string, (item: T) => string>
  keptSnapshots?: number
}) {
  const list = createListPages<T>({
    // etcd's key order: namespace, then name
    keyOf: (item) => `${item.metadata.namespace}/${item.metadata.name}`,
    labelsOf: (item) => item.metadata.labels ?? {},
    fields: deps.fields,
    keptSnapshots: deps.keptSnapshots
  })

  /** One page of the objects the options select, in `namespace` only when given. */
  function page (options: ObjectListOptions, namespace?: string): ObjectPage<T> {
    const query = list.parse(options)
    const { items, resourceVersion } = deps.read()
    return list.page(query, items, resourceVersion, (item) => namespace === undefined || item.metadata.namespace === namespace)
  }

  return { page }
}
