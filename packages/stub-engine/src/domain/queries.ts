// List mechanics shared by every collection endpoint: order_by allow-lists, date ranges, SQL LIKE, paging.
import { BadRequest } from './errors.ts'

export type Getter<T> = (item: T) => string | number | null

/** Sorts by `order_by` fields (leading `-` = descending), then by the primary key; unknown fields → 400. */
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
  keys.push({ getter: primaryKey, descending: false })
  return [...items].sort((a, b) => {
    for (const { getter, descending } of keys) {
      const x = getter(a)
      const y = getter(b)
      if (x === y) continue
      // nulls sort last ascending, as PostgreSQL does
      const cmp = x === null ? 1 : y === null ? -1 : x < y ? -1 : 1
      return descending ? -cmp : cmp
    }
    return 0
  })
}

export interface Page<T> { items: T[], total: number }

export function paginate<T> (items: T[], offset: number, limit: number, maxLimit: number): Page<T> {
  const size = Math.min(limit, maxLimit)
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

/** SQL LIKE (`%`, `_`, case-sensitive as in PostgreSQL) as a predicate. */
export function likePattern (pattern: string): (value: string) => boolean {
  const source = pattern.split('').map((c) => c === '%' ? '.*' : c === '_' ? '.' : c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('')
  const re = new RegExp(`^${source}$`, 's')
  return (value) => re.test(value)
}
