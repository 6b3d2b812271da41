// Lists items the way the Kubernetes API server does: label and field selectors, and pages of `limit` items
// chained by an opaque continue token that reads the same snapshot as the first page (a consistent list).
import { BadListOptionsError, ContinueExpiredError } from '../errors.ts'
import { parseFieldSelector, parseSelector, type FieldTest, type LabelTest } from './selector.ts'

export interface ListOptions {
  labelSelector?: string | undefined
  fieldSelector?: string | undefined
  /** At most this many items; 0 or absent: all of them. */
  limit?: number | undefined
  /** The token of the previous page. */
  continue?: string | undefined
}

export interface ListPage<T> {
  items: T[]
  /** The version the page was read at: the first page's, for every page of one list. */
  resourceVersion: number
  /** Set when more items match. */
  continue?: string
  /** How many more match; only without selectors, as Kubernetes gives it. */
  remainingItemCount?: number
}

export interface ListQuery {
  labels: LabelTest
  fields: FieldTest
  selective: boolean
  limit: number
  from?: { resourceVersion: number, after: string }
}

interface ContinueToken { v: 1, rv: number, start: string }

function encodeContinue (resourceVersion: number, after: string): string {
  const token: ContinueToken = { v: 1, rv: resourceVersion, start: after }
  return Buffer.from(JSON.stringify(token)).toString('base64url')
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

export function createListPages<T> (deps: {
  /** The item's etcd key: lists run in its plain code-unit order, never locale order. */
  keyOf: (item: T) => string
  labelsOf: (item: T) => Record<string, string>
  /** The fields Kubernetes lets the kind be selected on, and how to read each. */
  fields: Record<string, (item: T) => string>
  keptSnapshots?: number
}) {
  const { keyOf } = deps
  const keptSnapshots = deps.keptSnapshots ?? 32
  // the items as they were at each version a paged list started at; items are never mutated, so this is cheap
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

  function fieldsOf (item: T): Record<string, string> {
    return Object.fromEntries(Object.entries(deps.fields).map(([field, read]) => [field, read(item)]))
  }

  /** Checks the options without reading the items; throws BadListOptionsError for what Kubernetes refuses. */
  function parse (options: ListOptions): ListQuery {
    const labelSelector = options.labelSelector ?? ''
    const fieldSelector = options.fieldSelector ?? ''
    const query: ListQuery = {
      labels: parseSelector(labelSelector),
      fields: parseFieldSelector(fieldSelector, fieldNames),
      selective: labelSelector.trim() !== '' || fieldSelector !== '',
      limit: options.limit ?? 0
    }
    if (options.continue !== undefined && options.continue !== '') query.from = decodeContinue(options.continue)
    return query
  }

  /**
   * One page of `current` (every item, read at `currentVersion`) the query selects, of those `where` keeps;
   * a continue token whose snapshot is gone is ContinueExpiredError.
   */
  function page (query: ListQuery, current: T[], currentVersion: number, where: (item: T) => boolean = () => true): ListPage<T> {
    let resourceVersion = currentVersion
    let all = [...current].sort((a, b) => keyOf(a) < keyOf(b) ? -1 : keyOf(a) > keyOf(b) ? 1 : 0)
    if (query.from !== undefined && query.from.resourceVersion !== resourceVersion) {
      const snapshot = snapshots.get(query.from.resourceVersion)
      if (snapshot === undefined) throw new ContinueExpiredError()
      resourceVersion = query.from.resourceVersion
      all = snapshot
    }
    const after = query.from?.after
    const matching = all.filter((item) => where(item) && (after === undefined || keyOf(item) > after) &&
      query.labels(deps.labelsOf(item)) && query.fields(fieldsOf(item)))
    if (query.limit === 0 || matching.length <= query.limit) return { items: matching, resourceVersion }
    const items = matching.slice(0, query.limit)
    remember(resourceVersion, all)
    const last = items[items.length - 1]
    const next = encodeContinue(resourceVersion, last === undefined ? '' : keyOf(last))
    const result: ListPage<T> = { items, resourceVersion, continue: next }
    if (!query.selective) result.remainingItemCount = matching.length - items.length
    return result
  }

  return { parse, page }
}
