// Draft-04 `$ref`s that point at nothing are treated as "accept", as Promenade's validation lets them pass (its
// shipped Genesis schema has one: files' url and tar_url), so they are replaced by `{}` before ajv, which would
// refuse the whole schema.

function isMapping (value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}

// keywords whose values are data, not schemas: an `id` or `$ref` inside them means nothing
const DATA_KEYWORDS = new Set(['enum', 'default'])
// keywords whose values map names to schemas: their keys are property names, not keywords
const NAME_MAPS = new Set(['properties', 'patternProperties', 'definitions', 'dependencies'])

/** The entries of a schema object that hold schemas, and whether each is a name → schema map. */
function schemaChildren (node: Record<string, unknown>, nameMap: boolean): Array<[string, unknown, boolean]> {
  return Object.entries(node)
    .filter(([key]) => nameMap || !DATA_KEYWORDS.has(key))
    .map(([key, value]) => [key, value, !nameMap && NAME_MAPS.has(key)])
}

/** `ref` resolved against the resolution scope `base` (draft-04 `id`); without an absolute base, as written. */
function resolveRef (ref: string, base: string): string {
  if (URL.canParse(ref)) return new URL(ref).href
  if (base !== '' && URL.canParse(ref, base)) return new URL(ref, base).href
  return ref.startsWith('#') ? `${base.split('#')[0] ?? ''}${ref}` : ref
}

/** The value at a JSON pointer fragment (RFC 6901, percent-encoded) of `root`, or undefined. */
function atPointer (root: unknown, pointer: string): unknown {
  let node = root
  for (const raw of pointer.split('/').slice(1)) {
    let key: string
    try {
      key = decodeURIComponent(raw).replaceAll('~1', '/').replaceAll('~0', '~')
    } catch {
      return undefined
    }
    if (Array.isArray(node) && /^(0|[1-9][0-9]*)$/.test(key)) node = node[Number(key)]
    else if (isMapping(node) && Object.hasOwn(node, key)) node = node[key]
    else return undefined
  }
  return node
}

/**
 * A copy of `schema` in which every `$ref` that resolves neither inside the schema (by JSON pointer or by an
 * `id`) nor to a schema `known` gives is `{}` (with `all`, every `$ref`). Draft-04 ignores a `$ref`'s
 * siblings, so the whole object goes.
 */
export function withoutMissingRefs (schema: unknown, known: (uri: string) => unknown, options: { all?: boolean } = {}): unknown {
  // resolution scopes (without fragment) and plain-name ids (with it) → the schema they name
  const scopes = new Map<string, unknown>([['', schema]])
  const collect = (node: unknown, base: string, nameMap: boolean): void => {
    if (Array.isArray(node)) { for (const item of node) collect(item, base, false); return }
    if (!isMapping(node)) return
    let scope = base
    if (!nameMap && typeof node.id === 'string') {
      scope = resolveRef(node.id, base)
      scopes.set(scope.endsWith('#') ? scope.slice(0, -1) : scope, node)
    }
    for (const [, value, childNameMap] of schemaChildren(node, nameMap)) collect(value, scope, childNameMap)
  }
  collect(schema, '', false)

  const resolves = (ref: string, base: string): boolean => {
    if (options.all === true) return false
    const full = resolveRef(ref, base)
    const hash = full.indexOf('#')
    const uri = hash < 0 ? full : full.slice(0, hash)
    const fragment = hash < 0 ? '' : full.slice(hash + 1)
    if (fragment !== '' && !fragment.startsWith('/')) return scopes.has(full)
    const target = scopes.get(uri) ?? (uri === '' ? undefined : known(uri))
    return target !== undefined && atPointer(target, fragment) !== undefined
  }
  const rewrite = (node: unknown, base: string, nameMap: boolean): unknown => {
    if (Array.isArray(node)) return node.map((item) => rewrite(item, base, false))
    if (!isMapping(node)) return node
    const scope = !nameMap && typeof node.id === 'string' ? resolveRef(node.id, base) : base
    if (!nameMap && typeof node.$ref === 'string' && !resolves(node.$ref, scope)) return {}
    const rewritten = new Map(schemaChildren(node, nameMap).map(([key, value, childNameMap]) => [key, rewrite(value, scope, childNameMap)]))
    return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, rewritten.has(key) ? rewritten.get(key) : value]))
  }
  return rewrite(schema, '', false)
}
