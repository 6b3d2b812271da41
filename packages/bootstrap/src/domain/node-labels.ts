// The node-labels rule (Promenade's, with its unit-test table): the request is the full desired set of labels; labels
// missing from it are removed unless their key contains `kubernetes.io`. Only own keys count: a label may be named
// like an Object.prototype member (`toString`, `constructor`), which `key in labels` would find on every object.

export type LabelRequest = Record<string, string | null>
export type LabelPatch = Record<string, string | null>

/** The patch that turns `current` into `requested`; empty when nothing changes. */
export function labelPatch (current: Record<string, string> | undefined, requested: LabelRequest): LabelPatch {
  const patch: LabelPatch = {}
  if (current === undefined || Object.keys(current).length === 0) {
    for (const [key, value] of Object.entries(requested)) if (value !== null) patch[key] = value
    return patch
  }
  for (const [key, value] of Object.entries(requested)) {
    if (value === null && !Object.hasOwn(current, key)) continue
    if (!Object.hasOwn(current, key) || current[key] !== value) patch[key] = value
  }
  for (const key of Object.keys(current)) {
    if (!Object.hasOwn(requested, key) && !key.includes('kubernetes.io')) patch[key] = null
  }
  return patch
}

const NAME = /^([A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?)$/
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/

/** Why `key` is not a valid Kubernetes label key, or undefined when it is. */
export function labelKeyProblem (key: string): string | undefined {
  const slash = key.lastIndexOf('/')
  const prefix = slash >= 0 ? key.slice(0, slash) : undefined
  const name = slash >= 0 ? key.slice(slash + 1) : key
  if (prefix !== undefined && (prefix.length === 0 || prefix.length > 253 || !DNS_SUBDOMAIN.test(prefix))) {
    return `label key '${key}' has an invalid prefix`
  }
  if (name.length === 0 || name.length > 63 || !NAME.test(name)) return `label key '${key}' is not a valid label name`
  return undefined
}

/** Why `value` is not a valid Kubernetes label value, or undefined when it is. */
export function labelValueProblem (value: string): string | undefined {
  if (value === '') return undefined
  if (value.length > 63 || !NAME.test(value)) return `label value '${value}' is not a valid label value`
  return undefined
}
