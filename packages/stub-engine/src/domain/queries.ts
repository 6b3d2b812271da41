// List mechanics shared by every collection endpoint: order_by allow-lists, date ranges, `*_pattern` search, paging.
import { BadRequest } from './errors.ts'

export type Getter<T> = (item: T) => string | number | null

/**
 * Sorts by `order_by` fields (leading `-` = descending), then by the primary key; unknown fields → 400.
 * As Airflow's SortParam: nulls last in both directions, and the primary key follows the first field's direction.
 */
export function orderItems<T> (items: T[], orderBy: string[], allowed: Record<string, Getter<T>>, primaryKey: Getter<T>): T[] {
  if (orderBy.length > 10) throw new BadRequest('Ordering with more than 10 fields is not allowed')
  const keys = orderBy.filter((o) => o !== '').map((field) => {
    const descending = field.startsWith('-')
    const name = descending ? field.slice(1) : field
    const getter = allowed[name]
    if (getter === undefined) {
      throw new BadRequest(`Ordering with '${name}' is disallowed or the attribute does not exist on the model`)
    }
    return { getter, descending }
  })
  keys.push({ getter: primaryKey, descending: keys[0]?.descending ?? false })
  return [...items].sort((a, b) => {
    for (const { getter, descending } of keys) {
      const x = getter(a)
      const y = getter(b)
      if (x === y) continue
      // Airflow orders by `CASE WHEN col IS NOT NULL THEN 0 ELSE 1 END` first: nulls last whatever the direction
      if (x === null) return 1
      if (y === null) return -1
      const cmp = x < y ? -1 : 1
      return descending ? -cmp : cmp
    }
    return 0
  })
}

export interface Page<T> { items: T[], total: number }

/** One page; `maxLimit` clamps `limit` (Airflow's maximum_page_limit), absent: `limit` as asked. */
export function paginate<T> (items: T[], offset: number, limit: number, maxLimit?: number): Page<T> {
  const size = maxLimit === undefined ? limit : Math.min(limit, maxLimit)
  return { items: items.slice(offset, offset + size), total: items.length }
}

/** `<field>_gte|_gt|_lte|_lt` bounds; values are ISO instants or numbers. */
export type Ranges = Record<string, string | number | null | undefined>

export function inRanges (value: Record<string, string | number | null>, ranges: Ranges): boolean {
  for (const [key, bound] of Object.entries(ranges)) {
    if (bound === undefined || bound === null) continue
    const match = /^(.*)_(gte|gt|lte|lt)$/.exec(key)
    if (match === null) continue
    const raw = value[match[1]!]
    if (raw === undefined) continue
    if (raw === null) return false
    const x = typeof raw === 'number' ? raw : Date.parse(raw)
    const y = typeof bound === 'number' ? bound : Date.parse(bound)
    const op = match[2]
    if ((op === 'gte' && !(x >= y)) || (op === 'gt' && !(x > y)) || (op === 'lte' && !(x <= y)) || (op === 'lt' && !(x < y))) return false
  }
  return true
}

const escapeRegExp = (c: string): string => c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/**
 * A `*_pattern` query parameter as Airflow's `_SearchParam` applies it (an SQL LIKE):
 * `column ILIKE '%<value>%'`, so a case-insensitive substring match in which `%` and `_` are wildcards and `\`
 * escapes; the value `~` alone stands for `%`.
 */
export function searchPattern (value: string): (candidate: string) => boolean {
  const like = value === '~' ? '%' : value
  let source = ''
  for (let i = 0; i < like.length; i++) {
    const c = like[i]!
    if (c === '\\' && i + 1 < like.length) source += escapeRegExp(like[++i]!)
    else source += c === '%' ? '.*' : c === '_' ? '.' : escapeRegExp(c)
  }
  // unanchored: the surrounding `%…%`
  const re = new RegExp(source, 'is')
  return (candidate) => re.test(candidate)
}
