// The differential test's comparison of two answers to the same Kubernetes request: the status, then the bodies
// after what differs by nature between two servers is made equal (uids, timestamps, resourceVersions, continue
// tokens). Every remaining difference is one line naming the path and both values.

/** What one answer was: the status and the JSON body (undefined: not JSON, its text kept instead). */
export interface Answer { status: number, json: unknown, text: string }

export interface Difference {
  /** The request, as the scenario names it. */
  call: string
  /** Where in the answer: `status`, or a path such as `metadata.labels.a`. */
  path: string
  stub: string
  real: string
  /** The two values themselves (after normalizing), for a check on their content. */
  values: { stub: unknown, real: unknown }
}

const VOLATILE_KEYS = new Set([
  'uid', 'creationTimestamp', 'resourceVersion', 'lastHeartbeatTime', 'lastTransitionTime', 'continue', 'machineID',
  // now plus the grace period, on each server's clock
  'deletionTimestamp'
])

/** A copy with each volatile value replaced by a placeholder naming its kind (so present and absent still differ). */
export function normalize (value: unknown, key?: string): unknown {
  if (key !== undefined && VOLATILE_KEYS.has(key) && (typeof value === 'string' || typeof value === 'number')) return `<${key}>`
  if (Array.isArray(value)) return value.map((item) => normalize(item))
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, normalize(v, k)]))
  }
  return value
}

function show (value: unknown): string {
  if (value === undefined) return '(absent)'
  const text = JSON.stringify(value)
  return text.length > 160 ? `${text.slice(0, 157)}...` : text
}

function walk (call: string, path: string, stub: unknown, real: unknown, out: Difference[]): void {
  const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v)
  if (isObject(stub) && isObject(real)) {
    const keys = [...new Set([...Object.keys(real), ...Object.keys(stub)])]
    for (const k of keys) walk(call, path === '' ? k : `${path}.${k}`, stub[k], real[k], out)
    return
  }
  if (Array.isArray(stub) && Array.isArray(real) && stub.length === real.length) {
    stub.forEach((item, i) => { walk(call, `${path}[${i}]`, item, real[i], out) })
    return
  }
  if (JSON.stringify(stub) !== JSON.stringify(real)) {
    out.push({ call, path: path === '' ? '(body)' : path, stub: show(stub), real: show(real), values: { stub, real } })
  }
}

/** Every difference between the stand-in's answer and the real server's to the same request. */
export function compareAnswers (call: string, stub: Answer, real: Answer): Difference[] {
  const out: Difference[] = []
  if (stub.status !== real.status) {
    out.push({
      call, path: 'status', stub: String(stub.status), real: String(real.status), values: { stub: stub.status, real: real.status }
    })
  }
  const body = (a: Answer): unknown => a.json === undefined ? a.text : normalize(a.json)
  walk(call, '', body(stub), body(real), out)
  return out
}

/** The path with list indexes dropped, for matching a difference against the known ones. */
export function genericPath (path: string): string {
  return path.replace(/\[\d+\]/g, '[]')
}
