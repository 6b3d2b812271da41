// The interface's timestamp shapes, each field its own: always six digits of microseconds (Python's str(datetime)
// drops them when they are 0, and the Shipyard CLI refuses a workflow id whose date part lacks them).

const pad = (n: number, width = 2): string => String(n).padStart(width, '0')

function parts (value: string | Date): { date: string, time: string, micro: string } | undefined {
  const d = typeof value === 'string' ? new Date(value) : value
  if (Number.isNaN(d.getTime())) return undefined
  // microseconds: keep what the source string had beyond milliseconds
  const fraction = typeof value === 'string' ? /\.(\d+)/.exec(value)?.[1] ?? '' : ''
  const micro = (fraction + '000000').slice(0, 6)
  return {
    date: `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`,
    time: `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`,
    micro: fraction === '' ? pad(d.getUTCMilliseconds(), 3) + '000' : micro
  }
}

/** `YYYY-MM-DD HH:MM:SS.ffffff+00:00` (action and audit `datetime`, note timestamps). */
export function zonedTimestamp (value: string | Date): string {
  const p = parts(value)
  return p === undefined ? String(value) : `${p.date} ${p.time}.${p.micro}+00:00`
}

/** `YYYY-MM-DD HH:MM:SS.ffffff` (POST /actions `timestamp`, step dates). */
export function plainTimestamp (value: string | Date | null | undefined): string | null {
  if (value === null || value === undefined) return null
  const p = parts(value)
  return p === undefined ? String(value) : `${p.date} ${p.time}.${p.micro}`
}

/** `YYYY-MM-DDTHH:MM:SS` (dag_execution_date). */
export function executionDate (value: string | null | undefined): string | null {
  if (value === null || value === undefined) return null
  const p = parts(value)
  return p === undefined ? value : `${p.date}T${p.time}`
}

/** `YYYY-MM-DD HH:MM:SS` (workflow and step execution_date). */
export function spacedDate (value: string | null | undefined): string | null {
  if (value === null || value === undefined) return null
  const p = parts(value)
  return p === undefined ? value : `${p.date} ${p.time}`
}

/** `YYYY-MM-DDTHH:MM:SS.ffffff` (the date part of a workflow_id: always six digits). */
export function workflowDate (value: string): string {
  const p = parts(value)
  return p === undefined ? value : `${p.date}T${p.time}.${p.micro}`
}
