// The hot path of parsing request bodies: js-yaml reads the YAML syntax (about ten times faster than the yaml
// package on large collections), and every plain scalar is resolved by the very resolvers of the slow path (the yaml
// package's YAML 1.1 tags with PyYAML's tests and the store's float rule), so values come out the same. Whatever the
// fast path does not take on — anchors and aliases (the alias bound), tags, merge keys, directives — or cannot read
// goes to the slow path, which also words every syntax error.
import jsyaml from 'js-yaml'
import { isScalar, Schema, type Tags } from 'yaml'

/**
 * Text the fast path leaves to the slow one: an anchor `&`, alias `*` or tag `!` where a node can begin (after a
 * line start, a space or a flow or block indicator — also inside strings, which only costs speed), a directive `%`
 * at a line start, a merge key `<<` anywhere.
 */
const SLOW_ONLY = /(?:^|[\s[{,:?-])[&*!]|^%|<</m

const HAS_CONTENT = /^[ \t]*[^\s#]/m
const DOCUMENT_MARKER = /^(?:---|\.\.\.)(?:\s|$)/m

/** Returned by `resolvePlain` for a plain scalar that stays a string. */
const STRING = Symbol('string')

interface PlainTag {
  default?: boolean | 'key'
  test?: RegExp
  resolve: (value: string, onError: (message: string) => void, options: object) => unknown
}

/** Plain scalars resolved as the slow path's schema resolves them (its first default tag whose test matches). */
function plainResolver (customTags: (tags: Tags) => Tags) {
  const schema = new Schema({ schema: 'yaml-1.1', customTags })
  const tags = (schema.tags as unknown as PlainTag[]).filter((t) => t.default === true && t.test !== undefined)
  const cache = new Map<string, unknown>()
  return (text: string): unknown => {
    const cached = cache.get(text)
    if (cached !== undefined || cache.has(text)) return cached
    const tag = tags.find((t) => t.test!.test(text))
    let value: unknown = STRING
    if (tag !== undefined) {
      let failed: string | undefined
      const res = tag.resolve(text, (message) => { failed = message }, {})
      if (failed !== undefined) throw new Error(failed)
      value = isScalar(res) ? res.value : res
    }
    // short scalars repeat across documents (names, numbers, flags); long ones rarely do
    if (text.length <= 64 && cache.size < 100_000) cache.set(text, value)
    return value
  }
}

/**
 * A parser for streams the fast path can take, or undefined for the slow path: the documents' values, in order, as
 * the slow path's `toJS` gives them (mappings as plain objects; the last of duplicate keys wins).
 */
export function createFastParser (customTags: (tags: Tags) => Tags): (text: string) => unknown[] | undefined {
  const resolve = plainResolver(customTags)
  let pending: unknown
  const plain = new jsyaml.Type('tag:slipway/plain', {
    kind: 'scalar',
    resolve: (data: unknown) => {
      if (typeof data !== 'string') return false
      const value = resolve(data)
      if (value === STRING) return false
      pending = value
      return true
    },
    construct: () => pending
  })
  const schema = jsyaml.FAILSAFE_SCHEMA.extend({ implicit: [plain] })
  return (text) => {
    if (SLOW_ONLY.test(text)) return undefined
    // a stream of blank and comment lines only holds no document (js-yaml would read one empty document)
    if (!HAS_CONTENT.test(text) && !DOCUMENT_MARKER.test(text)) return []
    let docs: unknown[]
    try {
      docs = jsyaml.loadAll(text, undefined, { schema, json: true })
    } catch {
      return undefined
    }
    return docs.some(hasAmbiguousKey) ? undefined : docs
  }
}

/**
 * js-yaml spells a null key `null` and a whole-number float key (`1.0:`) `[object Object]`; the slow path spells them
 * `` and `1.0`. Such keys (rare in site documents) send the stream to the slow path.
 */
function hasAmbiguousKey (value: unknown): boolean {
  if (value === null || typeof value !== 'object') return false
  if (Array.isArray(value)) return value.some(hasAmbiguousKey)
  if (value instanceof Date) return false
  for (const key of Object.keys(value)) {
    if (key === 'null' || key === '[object Object]') return true
    if (hasAmbiguousKey((value as Record<string, unknown>)[key])) return true
  }
  return false
}
