// Lists namespaced Kubernetes objects (pods, ConfigMaps) the way the API server does: label and field selectors,
// and pages of `limit` items chained by an opaque continue token that reads the same snapshot as the first page.
import { BadListOptionsError, ContinueExpiredError } from '../errors.ts'
import { parseFieldSelector, parseSelector, type FieldTest, type LabelTest } from './selector.ts'

export interface ObjectListOptions {
  labelSelector?: string | undefined
  fieldSelector?: string | undefined
  /** At most this many objects; 0 or absent: all of them. */
  limit?: number | undefined
  continue?: string | undefined
}

export interface ObjectPage<T> {
  items: T[]
  resourceVersion: number
  continue?: string
  /** How many more match; only without selectors, as Kubernetes gives it. */
  remainingItemCount?: number
}

export interface Listed { metadata: { name: string, namespace: string, labels?: Record<string, string> | undefined } }

interface Query {
  labels: LabelTest
  fields: FieldTest
  selective: boolean
  limit: number
  from?: { resourceVersion: number, after: string }
}

interface ContinueToken { v: 1, rv: number, start: string }

// etcd's key order: namespace, then name, plain code-unit order
const keyOf = (item: Listed): string => `${item.metadata.namespace}/${item.metadata.name}`

export function createObjectList<T extends Listed> (deps: {
  /** Every object of the kind, and the version they were read at. */
  read: () => { items: T[], resourceVersion: number }
  /** The fields Kubernetes lets the kind be selected on, and how to read each. */
  fields: Record<string, (item: T) => string>
  keptSnapshots?: number
}) {
  const keptSnapshots = deps.keptSnapshots ?? 32
  const snapshots = new Map<number, T[]>()
  const fieldNames = Object.keys(deps.fields)

  function remember (resourceVersion: number, items: T[]): void {
    snapshots.delete(resourceVersion)
    snapshots.set(resourceVersion, items)
    for (const oldest of snapshots.keys()) {
      if (snapshots.size <= keptSnapshots) break
      snapshots.delete(oldest)
    }
  }

  function decodeContinue (text: string): { resourceVersion: number, after: string } {
    let token: Partial<ContinueToken> | undefined
    try {
      token = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as Partial<ContinueToken>
    } catch {
      token = undefined
    }
    if (token?.v !== 1 || !Number.isSafeInteger(token.rv) || typeof token.start !== 'string' || token.start === '') {
      throw new BadListOptionsError('invalid continue token: continue key is not valid')
    }
    return { resourceVersion: token.rv ?? 0, after: token.start }
  }

  /** Checks the options; throws BadListOptionsError for what Kubernetes refuses. */
  function parse (options: ObjectListOptions): Query {
    const labelSelector = options.labelSelector ?? ''
    const fieldSelector = options.fieldSelector ?? ''
    const query: Query = {
      labels: parseSelector(labelSelector),
      fields: parseFieldSelector(fieldSelector, fieldNames),
      selective: labelSelector.trim() !== '' || fieldSelector !== '',
      limit: options.limit ?? 0
    }
    if (options.continue !== undefined && options.continue !== '') query.from = decodeContinue(options.continue)
    return query
  }

  function fieldsOf (item: T): Record<string, string> {
    return Object.fromEntries(Object.entries(deps.fields).map(([field, read]) => [field, read(item)]))
  }

  /** One page of the objects the options select, in `namespace` only when given. */
  function page (options: ObjectListOptions, namespace?: string): ObjectPage<T> {
    const query = parse(options)
    let { items: all, resourceVersion } = deps.read()
    all = [...all].sort((a, b) => keyOf(a) < keyOf(b) ? -1 : keyOf(a) > keyOf(b) ? 1 : 0)
    if (query.from !== undefined && query.from.resourceVersion !== resourceVersion) {
      const snapshot = snapshots.get(query.from.resourceVersion)
      if (snapshot === undefined) throw new ContinueExpiredError()
      resourceVersion = query.from.resourceVersion
      all = snapshot
    }
    const after = query.from?.after
    const matching = all.filter((item) => (namespace === undefined || item.metadata.namespace === namespace) &&
      (after === undefined || keyOf(item) > after) && query.labels(item.metadata.labels ?? {}) && query.fields(fieldsOf(item)))
    if (query.limit === 0 || matching.length <= query.limit) return { items: matching, resourceVersion }
    const items = matching.slice(0, query.limit)
    remember(resourceVersion, all)
    const last = items[items.length - 1]
    const token: ContinueToken = { v: 1, rv: resourceVersion, start: last === undefined ? '' : keyOf(last) }
    const result: ObjectPage<T> = { items, resourceVersion, continue: Buffer.from(JSON.stringify(token)).toString('base64url') }
    if (!query.selective) result.remainingItemCount = matching.length - items.length
    return result
  }

  return { page }
}
