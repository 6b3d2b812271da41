// JSON merge patch (RFC 7386): what a merge patch does to any object, and what a strategic merge patch does to an
// object made only of maps of strings (a ConfigMap's data, labels and annotations), where the two agree.

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/** `target` with `patch` merged in: objects merge key by key, `null` deletes, anything else replaces. */
export function mergePatch (target: unknown, patch: unknown): unknown {
  if (!isObject(patch)) return patch
  const result: Record<string, unknown> = isObject(target) ? { ...target } : {}
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete result[key]
    else result[key] = mergePatch(result[key], value)
  }
  return result
}
