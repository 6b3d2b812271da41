// How two answers to the same engine call are compared: the status, then the body recursively — the same keys, each
// value of the same kind, and the same value wherever both engines must agree. Values that legitimately differ
// between two engines (generated ids, instants, durations, host names, signed tokens) are compared by kind only.

/** What one engine answered to one call of the scenario. */
export interface Exchange {
  call: string
  method: string
  path: string
  status: number
  /** Parsed JSON, or the text when the body is not JSON. */
  body: unknown
}

export type DifferenceKind = 'status' | 'only-in-airflow' | 'only-in-stub' | 'kind' | 'value' | 'items'

export interface Difference {
  call: string
  /** Where in the body: `.task_instances[*].executor`; the item key is kept in `where`. */
  path: string
  kind: DifferenceKind
  stub: string
  airflow: string
}

/** Keys whose values differ between any two engines: compared by kind only. */
export const VOLATILE_KEYS = new Set([
  'id', 'access_token', 'continuation_token', 'hostname', 'pid', 'unixname', 'duration', 'last_parse_duration',
  'fileloc', 'file_token', 'bundle_version', 'statement', 'orig_error', 'message', 'sources', 'version_number',
  'timestamp', 'url'
])

/** Lists whose items are matched by a key rather than by position, and the key. */
const ITEM_KEYS: Array<[RegExp, (item: Record<string, unknown>) => string | undefined]> = [
  [/(^|\.)task_instances$/, (i) => typeof i.task_id === 'string' ? `${i.task_id}${i.map_index === -1 || i.map_index === undefined ? '' : `/${String(i.map_index)}`}${typeof i.try_number === 'number' && i.id === undefined ? `#${i.try_number}` : ''}` : undefined],
  [/(^|\.)dag_runs$/, (i) => typeof i.dag_run_id === 'string' ? i.dag_run_id : undefined],
  [/(^|\.)dags$/, (i) => typeof i.dag_id === 'string' ? i.dag_id : undefined],
  [/(^|\.)tasks$/, (i) => typeof i.task_id === 'string' ? i.task_id : undefined]
]

const ISO_INSTANT = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/

/** A JSON value's kind; an ISO instant with a zone is `datetime`, apart from other strings. */
export function kindOf (value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'array'
  if (typeof value === 'string') return ISO_INSTANT.test(value) ? 'datetime' : 'string'
  return typeof value
}

const shown = (value: unknown): string => {
  const text = JSON.stringify(value) ?? String(value)
  return text.length > 120 ? `${text.slice(0, 117)}...` : text
}

export interface CompareOptions {
  /** Keys compared by kind only in this call, besides VOLATILE_KEYS. */
  volatile?: string[]
}

/** Every difference between stub-engine's answer and Airflow's to the same call. */
export function compareExchanges (stub: Exchange, airflow: Exchange, options: CompareOptions = {}): Difference[] {
  const out: Difference[] = []
  if (stub.status !== airflow.status) {
    out.push({ call: stub.call, path: '', kind: 'status', stub: String(stub.status), airflow: String(airflow.status) })
  }
  const volatile = new Set([...VOLATILE_KEYS, ...(options.volatile ?? [])])
  compareValue(stub.body, airflow.body, '', '', { call: stub.call, volatile, out })
  return out
}

interface Walk { call: string, volatile: Set<string>, out: Difference[] }

function compareValue (stub: unknown, airflow: unknown, path: string, key: string, walk: Walk): void {
  const a = kindOf(stub)
  const b = kindOf(airflow)
  if (a !== b) {
    walk.out.push({ call: walk.call, path, kind: 'kind', stub: `${a} ${shown(stub)}`, airflow: `${b} ${shown(airflow)}` })
    return
  }
  if (a === 'object') { compareObjects(stub as Record<string, unknown>, airflow as Record<string, unknown>, path, walk); return }
  if (a === 'array') { compareArrays(stub as unknown[], airflow as unknown[], path, walk); return }
  if (a === 'datetime' || walk.volatile.has(key)) return
  if (stub !== airflow) walk.out.push({ call: walk.call, path, kind: 'value', stub: shown(stub), airflow: shown(airflow) })
}

function compareObjects (stub: Record<string, unknown>, airflow: Record<string, unknown>, path: string, walk: Walk): void {
  for (const key of Object.keys(airflow)) {
    if (!(key in stub)) walk.out.push({ call: walk.call, path: `${path}.${key}`, kind: 'only-in-airflow', stub: '(absent)', airflow: shown(airflow[key]) })
  }
  for (const key of Object.keys(stub)) {
    if (!(key in airflow)) { walk.out.push({ call: walk.call, path: `${path}.${key}`, kind: 'only-in-stub', stub: shown(stub[key]), airflow: '(absent)' }); continue }
    compareValue(stub[key], airflow[key], `${path}.${key}`, key, walk)
  }
}

function compareArrays (stub: unknown[], airflow: unknown[], path: string, walk: Walk): void {
  const keyOf = ITEM_KEYS.find(([pattern]) => pattern.test(path))?.[1]
  const objects = (list: unknown[]): list is Array<Record<string, unknown>> => list.every((i) => kindOf(i) === 'object')
  if (keyOf !== undefined && objects(stub) && objects(airflow)) {
    const byKey = (list: Array<Record<string, unknown>>): Map<string, Record<string, unknown>> =>
      new Map(list.map((item, i) => [keyOf(item) ?? `#${i}`, item]))
    const s = byKey(stub)
    const f = byKey(airflow)
    const onlyStub = [...s.keys()].filter((k) => !f.has(k))
    const onlyAirflow = [...f.keys()].filter((k) => !s.has(k))
    if (onlyStub.length > 0 || onlyAirflow.length > 0) {
      walk.out.push({ call: walk.call, path: `${path}[]`, kind: 'items', stub: `only here: ${onlyStub.join(', ') || '-'}`, airflow: `only here: ${onlyAirflow.join(', ') || '-'}` })
    }
    for (const [k, item] of s) {
      const other = f.get(k)
      if (other !== undefined) compareValue(item, other, `${path}[${k}]`, '', walk)
    }
    return
  }
  const limit = Math.min(stub.length, airflow.length)
  if (stub.length !== airflow.length) {
    walk.out.push({ call: walk.call, path: `${path}[]`, kind: 'items', stub: `${stub.length} items`, airflow: `${airflow.length} items` })
  }
  // the items of a list of plain values take the list's key: `sources: [path]` is as volatile as its key says
  const key = path.slice(path.lastIndexOf('.') + 1)
  for (let i = 0; i < limit; i++) compareValue(stub[i], airflow[i], `${path}[${i}]`, key, walk)
}

/** The path with item keys and positions made generic: one line for a difference every item of a list shares. */
export const genericPath = (path: string): string => path.replace(/\[[^\]]*\]/g, '[*]')

/**
 * A task log's answer reduced to what both engines write alike: the envelope, the source group that opens it, the
 * line that reports a failed try (keys and exception detail), and the kinds of every line's timestamp, level and
 * event. The lines themselves are each engine's own (Airflow's come from its task runner).
 */
export function logView (body: unknown): unknown {
  const { content, ...envelope } = body as { content?: unknown[] }
  if (!Array.isArray(content)) return body
  // the source group: every line up to the first `::endgroup::`
  const end = content.findIndex((l) => (l as { event?: unknown }).event === '::endgroup::') + 1
  const lines = content.slice(end) as Array<Record<string, unknown>>
  const kinds = (key: string): string[] => [...new Set(lines.map((l) => kindOf(l[key])))].sort()
  const failure = lines.find((l) => l.event === 'Task failed with exception')
  // a traceback's frames are each engine's own call stack: the innermost frame stands for its shape
  const errorDetail = Array.isArray(failure?.error_detail)
    ? (failure.error_detail as Array<Record<string, unknown>>)
        .map((e) => Array.isArray(e.frames) ? { ...e, frames: e.frames.slice(-1) } : e)
    : failure?.error_detail
  return {
    ...envelope,
    content_source_group: content.slice(0, end),
    content_failure_line: failure === undefined ? null : { ...failure, error_detail: errorDetail },
    content_line_kinds: { timestamp: kinds('timestamp'), level: kinds('level'), event: kinds('event') }
  }
}
