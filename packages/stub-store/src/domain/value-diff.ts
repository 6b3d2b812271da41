// What Python's deepdiff reports for two document values with its defaults (Deckhand's deep diff uses it): type
// changes, changed leaves, mapping keys added or removed, list items added or removed, in its JSON vocabulary.
import { isMapping, numericValue, WholeFloat, type Mapping } from './values.ts'

/** Python's type name of a value as PyYAML would have built it. */
export function pythonType (value: unknown): string {
  if (value === null || value === undefined) return 'NoneType'
  switch (typeof value) {
    case 'boolean': return 'bool'
    case 'string': return 'str'
    case 'number': return Number.isInteger(value) ? 'int' : 'float'
  }
  if (Array.isArray(value)) return 'list'
  // a YAML date is a Date at midnight UTC, emitted back as a date (codec), so it counts as one here too
  if (value instanceof Date) return value.toISOString().endsWith('T00:00:00.000Z') ? 'date' : 'datetime'
  if (value instanceof Uint8Array) return 'bytes'
  if (value instanceof WholeFloat) return 'float'
  return isMapping(value) ? 'dict' : 'object'
}

/** Python's `==` of two leaves of the same type: numbers by value (so NaN differs from itself), dates by instant. */
function sameLeaf (a: unknown, b: unknown): boolean {
  if (a instanceof Date && b instanceof Date) return a.getTime() === b.getTime()
  if (a instanceof Uint8Array && b instanceof Uint8Array) return Buffer.from(a).equals(Buffer.from(b))
  return numericValue(a) === numericValue(b)
}

/** deepdiff's path step for a mapping key: quoted, in double quotes when the key holds a single quote. */
function keyStep (key: string): string {
  return key.includes("'") && !key.includes('"') ? `["${key}"]` : `['${key}']`
}

interface Report {
  values_changed: Map<string, Mapping>
  type_changes: Map<string, Mapping>
  dictionary_item_added: string[]
  dictionary_item_removed: string[]
  iterable_item_added: Map<string, unknown>
  iterable_item_removed: Map<string, unknown>
}

function walk (a: unknown, b: unknown, path: string, report: Report): void {
  const typeA = pythonType(a)
  const typeB = pythonType(b)
  // deepdiff compares types before values: 1 → 1.0 and true → 1 are type changes, not value changes
  if (typeA !== typeB) {
    report.type_changes.set(path, { old_type: typeA, new_type: typeB, old_value: a, new_value: b })
    return
  }
  if (typeA === 'dict') {
    const left = a as Mapping
    const right = b as Mapping
    for (const key of Object.keys(right)) if (!Object.hasOwn(left, key)) report.dictionary_item_added.push(path + keyStep(key))
    for (const key of Object.keys(left)) {
      if (!Object.hasOwn(right, key)) report.dictionary_item_removed.push(path + keyStep(key))
      else walk(left[key], right[key], path + keyStep(key), report)
    }
    return
  }
  if (typeA === 'list') {
    // without ignore_order, lists are paired index by index; the longer list's surplus is added or removed
    const left = a as unknown[]
    const right = b as unknown[]
    const common = Math.min(left.length, right.length)
    for (let i = 0; i < common; i++) walk(left[i], right[i], `${path}[${i}]`, report)
    for (let i = common; i < right.length; i++) report.iterable_item_added.set(`${path}[${i}]`, right[i])
    for (let i = common; i < left.length; i++) report.iterable_item_removed.set(`${path}[${i}]`, left[i])
    return
  }
  if (!sameLeaf(a, b)) report.values_changed.set(path, { new_value: b, old_value: a })
}

const byKey = <T>(entries: Map<string, T>): Record<string, T> =>
  Object.fromEntries([...entries].sort(([x], [y]) => x < y ? -1 : x > y ? 1 : 0))

/**
 * `DeepDiff(before, after)` (ordered lists, no ignore options) as Deckhand answers it: only the kinds of
 * change that occurred, each sorted by path; `{}` when the values are equal.
 */
export function valueDiff (before: unknown, after: unknown): Mapping {
  const report: Report = {
    values_changed: new Map(),
    type_changes: new Map(),
    dictionary_item_added: [],
    dictionary_item_removed: [],
    iterable_item_added: new Map(),
    iterable_item_removed: new Map()
  }
  walk(before, after, 'root', report)
  const out: Mapping = {}
  if (report.dictionary_item_added.length > 0) out.dictionary_item_added = report.dictionary_item_added.sort()
  if (report.dictionary_item_removed.length > 0) out.dictionary_item_removed = report.dictionary_item_removed.sort()
  if (report.iterable_item_added.size > 0) out.iterable_item_added = byKey(report.iterable_item_added)
  if (report.iterable_item_removed.size > 0) out.iterable_item_removed = byKey(report.iterable_item_removed)
  if (report.type_changes.size > 0) out.type_changes = byKey(report.type_changes)
  if (report.values_changed.size > 0) out.values_changed = byKey(report.values_changed)
  return out
}
