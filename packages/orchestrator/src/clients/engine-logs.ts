// Airflow 3's task logs as text (its GET …/taskInstances/{task}/logs/{try} in JSON): `content` is a list of
// structured messages (`event`, an optional `timestamp`, and any other keys) or of plain strings from older handlers.

/**
 * Keys not shown as `key=value`: those of the line's head, and the task instance's identity, which Airflow 3.2 and
 * later repeat on every line of a try's log and which the step's log names already.
 */
const HIDDEN_KEYS = new Set([
  'timestamp', 'level', 'event', 'error_detail', 'dag_id', 'task_id', 'run_id', 'try_number', 'map_index', 'ti_id'
])

interface Frame { filename?: unknown, lineno?: unknown, name?: unknown }
interface ExceptionDetail { exc_type?: unknown, exc_value?: unknown, frames?: unknown, exceptions?: unknown, is_cause?: unknown }

const show = (value: unknown): string => typeof value === 'string' ? value : JSON.stringify(value)

/** An `error_detail` list as Python prints a traceback: the causes first, each with its frames, innermost last. */
function traceback (detail: unknown): string[] {
  if (!Array.isArray(detail)) return [`error_detail=${show(detail)}`]
  const lines: string[] = []
  for (const [i, raw] of [...detail].reverse().entries()) {
    const e = (raw ?? {}) as ExceptionDetail
    if (i > 0) {
      lines.push('', e.is_cause === true
        ? 'The above exception was the direct cause of the following exception:'
        : 'During handling of the above exception, another exception occurred:', '')
    }
    lines.push('Traceback (most recent call last):')
    for (const f of Array.isArray(e.frames) ? e.frames as Frame[] : []) {
      lines.push(`  File "${show(f.filename ?? '?')}", line ${show(f.lineno ?? '?')}, in ${show(f.name ?? '?')}`)
    }
    lines.push(`${show(e.exc_type ?? 'Exception')}: ${show(e.exc_value ?? '')}`)
  }
  return lines
}

/** One log message as text: `[timestamp] LEVEL - event key=value …`, then its traceback if it carries one. */
function lineOf (entry: unknown): string[] {
  if (typeof entry === 'string') return [entry]
  const e = (entry ?? {}) as Record<string, unknown>
  const event = show(e.event ?? '')
  if (event.startsWith('::group::')) return [`${event.slice(9)}${Array.isArray(e.sources) ? `: ${e.sources.map(show).join(', ')}` : ''}`]
  if (event.startsWith('::endgroup::')) return []
  // a bare message (Airflow 3.2 and later list the log's sources as such lines inside the source group)
  if (Object.keys(e).every((key) => key === 'event')) return [event]
  const extra = Object.entries(e)
    .filter(([key, value]) => !HIDDEN_KEYS.has(key) && value !== undefined)
    .map(([key, value]) => `${key}=${show(value)}`)
  const tail = extra.length > 0 ? ` ${extra.join(' ')}` : ''
  const head = `[${show(e.timestamp ?? '')}] ${show(e.level ?? 'info').toUpperCase()} - ${event}${tail}`
  return e.error_detail === undefined ? [head] : [head, ...traceback(e.error_detail)]
}

export function logText (content: unknown[]): string {
  return content.flatMap(lineOf).join('\n') + '\n'
}
