// Small helpers every view shares: building elements (text only, never HTML from data), the API's timestamps
// shown in the browser's zone with UTC on hover, durations, and polling that rests while the tab is hidden.

/** `h('a', { href, class: 'x', onclick }, 'text', child)`: attributes, `on*` listeners, then children. */
export function h (tag, props = {}, ...children) {
  const el = document.createElement(tag)
  for (const [name, value] of Object.entries(props)) {
    if (value === undefined || value === null || value === false) continue
    if (name.startsWith('on') && typeof value === 'function') el.addEventListener(name.slice(2), value)
    else if (name === 'class') el.className = value
    else el.setAttribute(name, value === true ? '' : String(value))
  }
  append(el, children)
  return el
}

function append (el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue
    el.append(child instanceof Node ? child : document.createTextNode(String(child)))
  }
}

/**
 * A name that may wrap only after its `_` and `.` (a `<wbr>` there), never inside a word: `armada_post_apply` on a
 * narrow window is `armada_post_` and `apply`, not `armada_post_ap` and `ply`.
 */
export function breakable (name) {
  return String(name).split(/(?<=[_.])/).flatMap((part, i) => i === 0 ? [part] : [h('wbr'), part])
}

/** Replaces an element's children. */
export function fill (el, ...children) {
  el.replaceChildren()
  append(el, children)
  return el
}

/** Sets text only when it changed, so that polling leaves unchanged cells (and a reader's selection) alone. */
export function setText (el, text) {
  const value = String(text)
  if (el.textContent !== value) el.textContent = value
}

/**
 * The API's timestamps as dates. Its shapes: `YYYY-MM-DD HH:MM:SS.ffffff+00:00`, and without a
 * zone (`YYYY-MM-DD HH:MM:SS.ffffff`, `YYYY-MM-DDTHH:MM:SS`), which are UTC.
 */
export function parseTime (text) {
  if (typeof text !== 'string' || text === '') return null
  const match = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}:\d{2})(\.\d+)?(Z|[+-]\d{2}:?\d{2})?$/.exec(text.trim())
  if (match === null) return null
  const fraction = (match[3] ?? '').slice(0, 4)
  const date = new Date(`${match[1]}T${match[2]}${fraction}${match[4] ?? 'Z'}`)
  return Number.isNaN(date.getTime()) ? null : date
}

const LOCAL = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' })
const LOCAL_TIME = new Intl.DateTimeFormat(undefined, { timeStyle: 'medium' })

/** `2025-03-02 10:15:06 UTC`. */
export const utcText = (date) => `${date.toISOString().slice(0, 19).replace('T', ' ')} UTC`

/** A `<time>` in the browser's zone (the time of day alone with `short`), UTC in its title; '—' when none. */
export function timeEl (text, short = false) {
  const date = parseTime(text)
  if (date === null) return h('span', { class: 'muted' }, '—')
  return h('time', { datetime: date.toISOString(), title: utcText(date) }, (short ? LOCAL_TIME : LOCAL).format(date))
}

/** Updates a cell holding a time from `timeEl` without rebuilding it when the time is the same. */
export function setTime (cell, text, short = false) {
  const date = parseTime(text)
  const iso = date === null ? '' : date.toISOString()
  if ((cell.firstElementChild?.getAttribute('datetime') ?? '') === iso && cell.firstElementChild !== null) return
  fill(cell, timeEl(text, short))
}

/** `0.4 s`, `12 s`, `3 min 04 s`, `1 h 02 min`. */
export function durationText (seconds) {
  if (typeof seconds !== 'number' || !Number.isFinite(seconds) || seconds < 0) return '—'
  if (seconds < 10) return `${seconds.toFixed(1)} s`
  if (seconds < 60) return `${Math.round(seconds)} s`
  const minutes = Math.floor(seconds / 60)
  if (minutes < 60) return `${minutes} min ${String(Math.round(seconds % 60)).padStart(2, '0')} s`
  return `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, '0')} min`
}

/** A state as a badge: the word itself (never color alone), classed by how it ended. */
export function badge (state) {
  const text = state === null || state === undefined ? 'not started' : String(state)
  return h('span', { class: `badge ${badgeClass(text)}` }, text)
}

export function badgeClass (text) {
  const value = text.toLowerCase()
  if (/^(success|complete|deployed|on|created)$/.test(value)) return 'ok'
  if (/fail|error|broken|upstream_failed|deleted/.test(value)) return 'bad'
  if (/^(running|processing|deploying|queued|scheduled|up_for_retry|restarting|deferred|allocated|modified|pending)$/.test(value)) return 'busy'
  if (/^(paused|up_for_reschedule)$/.test(value)) return 'warn'
  return 'idle'
}

/**
 * Updates a badge in place. `words`: what it says instead of the state itself (a step's state in the operator's
 * words); the state then stays in its title and `data-state`, and still decides its class.
 */
export function setBadge (el, state, words) {
  const text = state === null || state === undefined ? 'not started' : String(state)
  setText(el, words ?? text)
  const cls = `badge ${badgeClass(text)}`
  if (el.className !== cls) el.className = cls
  if (words === undefined) return
  if (el.dataset.state !== text) el.dataset.state = text
  const title = `the engine says: ${text}`
  if (el.title !== title) el.title = title
}

/**
 * Runs `task` now and then every `intervalMs` (a number, or a function asked each time) after each run ends, while
 * `wanted()` holds and the tab is visible; a tab that becomes visible again runs it at once. Stops for good when
 * `signal` aborts.
 */
export function poll (task, { intervalMs, signal, wanted = () => true }) {
  let timer
  let running = false
  const run = async () => {
    clearTimeout(timer)
    timer = undefined
    if (running || signal.aborted) return
    running = true
    try { await task() } catch { /* the task shows its own errors; the next round tries again */ }
    running = false
    schedule()
  }
  const schedule = () => {
    if (signal.aborted || timer !== undefined || !wanted() || document.visibilityState !== 'visible') return
    timer = setTimeout(run, typeof intervalMs === 'function' ? intervalMs() : intervalMs)
  }
  const onVisible = () => { if (document.visibilityState === 'visible' && wanted()) run() }
  document.addEventListener('visibilitychange', onVisible)
  signal.addEventListener('abort', () => {
    clearTimeout(timer)
    document.removeEventListener('visibilitychange', onVisible)
  })
  run()
  return { now: run }
}
