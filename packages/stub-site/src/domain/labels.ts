// Kubernetes label rules: which keys and values are valid, and how merge and strategic merge patches change a label map.
import { BadPatchError, PatchTypeError } from '../errors.ts'
import type { Labels } from '../schemas/nodes.ts'

export type PatchKind = 'merge' | 'strategic'

const NAME = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/
const NAME_RULE = "must be 63 characters or less, consist of alphanumeric characters, '-', '_' or '.', and start and end with an alphanumeric character"

/** Why `key` is not a valid label key (Kubernetes' qualified-name rule), or undefined when it is. */
export function labelKeyProblem (key: string): string | undefined {
  const parts = key.split('/')
  if (parts.length > 2) return 'a qualified name must have at most one \'/\''
  const name = parts.length === 2 ? parts[1] ?? '' : key
  if (parts.length === 2) {
    const prefix = parts[0] ?? ''
    if (prefix === '' || prefix.length > 253 || !DNS_SUBDOMAIN.test(prefix)) {
      return 'the prefix must be a lower-case DNS subdomain of at most 253 characters'
    }
  }
  if (name === '' || name.length > 63 || !NAME.test(name)) return `the name part ${NAME_RULE}`
  return undefined
}

/** Why `value` is not a valid label value, or undefined when it is (the empty value is valid). */
export function labelValueProblem (value: string): string | undefined {
  if (value === '') return undefined
  if (value.length > 63 || !NAME.test(value)) return `a label value ${NAME_RULE}`
  return undefined
}

function isPlainObject (value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

// strategic merge patch directive on a map (Kubernetes sigs.k8s.io/structured-merge-diff semantics for maps)
const DIRECTIVE = '$patch'

/**
 * Applies the `metadata.labels` part of a Node patch body to `current` and returns the new map.
 * Both kinds merge key by key and delete on `null`; `labels: null` removes every label. Only the strategic
 * kind knows the `$patch` directive (`replace`, `delete`, `merge`); a merge patch takes `$patch` as a label key.
 * Throws BadPatchError for a body that is not an object, PatchTypeError for a field of the wrong type; keys and
 * values are checked by the caller.
 */
export function applyLabelsPatch (current: Labels, body: unknown, kind: PatchKind): Labels {
  if (!isPlainObject(body)) throw new BadPatchError('The patch must be a JSON object')
  if (!('metadata' in body) || body.metadata === undefined) return { ...current }
  const metadata = body.metadata
  if (!isPlainObject(metadata)) throw new PatchTypeError(body, 'metadata must be an object')
  if (!('labels' in metadata)) return { ...current }
  const patch = metadata.labels
  if (patch === null) return {}
  if (!isPlainObject(patch)) throw new PatchTypeError(body, 'metadata.labels must be an object of strings, or null')

  let result: Labels = { ...current }
  const entries = Object.entries(patch)
  if (kind === 'strategic' && DIRECTIVE in patch) {
    const directive = patch[DIRECTIVE]
    if (directive === 'delete') return {}
    if (directive === 'replace') result = {}
    else if (directive !== 'merge') throw new BadPatchError(`Unknown $patch directive ${JSON.stringify(directive)} in metadata.labels`)
  }
  for (const [key, value] of entries) {
    if (kind === 'strategic' && key === DIRECTIVE) continue
    if (value === null) {
      delete result[key]
    } else if (typeof value === 'string') {
      result[key] = value
    } else {
      throw new PatchTypeError(body,
        `metadata.labels.${key} must be a string or null, got ${Array.isArray(value) ? 'array' : typeof value}`)
    }
  }
  return result
}

/** Every invalid key or value of `labels`, as Kubernetes field causes. */
export function labelProblems (labels: Labels): Array<{ field: string, message: string }> {
  const problems: Array<{ field: string, message: string }> = []
  for (const [key, value] of Object.entries(labels)) {
    const keyProblem = labelKeyProblem(key)
    if (keyProblem !== undefined) {
      problems.push({ field: 'metadata.labels', message: `Invalid value: ${JSON.stringify(key)}: ${keyProblem}` })
    }
    const valueProblem = labelValueProblem(value)
    // Kubernetes names the label map itself as the field of a bad value, as for a bad key
    if (valueProblem !== undefined) {
      problems.push({ field: 'metadata.labels', message: `Invalid value: ${JSON.stringify(value)}: ${valueProblem}` })
    }
  }
  return problems
}
