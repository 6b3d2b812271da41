// What changed between a release's installed inputs and the chart's, written the way Armada reports it in an
// apply's `diff` entries (the str() of a DeepDiff over {chart, values}).
import { isMapping } from './manifest.ts'

/** Python's repr, as Armada's messages quote values. */
export function pyRepr (value: unknown): string {
  if (typeof value === 'string') return value.includes("'") && !value.includes('"') ? `"${value}"` : `'${value.replaceAll("'", "\\'")}'`
  if (typeof value === 'boolean') return value ? 'True' : 'False'
  if (value === null || value === undefined) return 'None'
  if (Array.isArray(value)) return `[${value.map(pyRepr).join(', ')}]`
  if (isMapping(value)) return `{${Object.entries(value).map(([k, v]) => `${pyRepr(k)}: ${pyRepr(v)}`).join(', ')}}`
  return String(value)
}

interface Changes {
  values_changed: Record<string, { new_value: unknown, old_value: unknown }>
  dictionary_item_added: string[]
  dictionary_item_removed: string[]
  iterable_item_added: Record<string, unknown>
  iterable_item_removed: Record<string, unknown>
}

const step = (path: string, key: string | number): string => `${path}[${typeof key === 'number' ? key : pyRepr(key)}]`

function walk (path: string, before: unknown, after: unknown, changes: Changes): void {
  if (isMapping(before) && isMapping(after)) {
    for (const key of Object.keys(before)) if (!(key in after)) changes.dictionary_item_removed.push(step(path, key))
    for (const key of Object.keys(after)) {
      if (!(key in before)) changes.dictionary_item_added.push(step(path, key))
      else walk(step(path, key), before[key], after[key], changes)
    }
    return
  }
  if (Array.isArray(before) && Array.isArray(after)) {
    const shared = Math.min(before.length, after.length)
    for (let i = 0; i < shared; i++) walk(step(path, i), before[i], after[i], changes)
    for (let i = shared; i < before.length; i++) changes.iterable_item_removed[step(path, i)] = before[i]
    for (let i = shared; i < after.length; i++) changes.iterable_item_added[step(path, i)] = after[i]
    return
  }
  if (JSON.stringify(before) !== JSON.stringify(after)) changes.values_changed[path] = { new_value: after, old_value: before }
}

/** The diff of two input sets as Armada words it, or undefined when nothing changed. */
export function diffInputs (before: Record<string, unknown>, after: Record<string, unknown>): string | undefined {
  const changes: Changes = {
    values_changed: {}, dictionary_item_added: [], dictionary_item_removed: [], iterable_item_added: {}, iterable_item_removed: {}
  }
  walk('root', before, after, changes)
  const parts: string[] = []
  for (const [kind, found] of Object.entries(changes)) {
    const empty = Array.isArray(found) ? found.length === 0 : Object.keys(found as object).length === 0
    if (empty) continue
    // DeepDiff prints added and removed keys as a set of paths
    const shown = Array.isArray(found) ? `[${found.map((p) => `"${p}"`).join(', ')}]` : reprPaths(found as Record<string, unknown>)
    parts.push(`${pyRepr(kind)}: ${shown}`)
  }
  return parts.length === 0 ? undefined : `{${parts.join(', ')}}`
}

function reprPaths (entries: Record<string, unknown>): string {
  return `{${Object.entries(entries).map(([path, value]) => `"${path}": ${pyRepr(value)}`).join(', ')}}`
}
