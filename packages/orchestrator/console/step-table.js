// The action view's steps: in step order, grouped by sub-workflow, each with state, try, start, duration and a
// bar on the action's timeline — a retried step one bar per try, a paused action's pause marked. Built once per set
// of steps and updated in place, so polling moves nothing.
import { api, seg } from './api.js'
import { badge, badgeClass, breakable, durationText, h, parseTime, setBadge, setText, setTime, utcText } from './dom.js'
import { groupSpan, stateWords, trySpanOf } from './action-state.js'
import { ENDED, groupState, groupSteps, stepShown, taskOf, timeline } from './steps.js'

// step details are asked for a few at a time (the browser's own limit per host is six)
const PARALLEL = 4

/** `onOpen(stepId)` opens a step's log. */
export function stepTable ({ actionId, dagId, onOpen, signal }) {
  // widths sit on the header cells (no colgroup): a column hidden on a narrow window vanishes from every row alike
  const heads = [['#', 'c-index wide-only'], ['Step', 'c-step'], ['State', 'c-state'], ['Try', 'c-try'], ['Started', 'c-start wide-only'], ['Duration', 'c-duration'], ['Timeline', 'c-bar']]
  const table = h('table', { class: 'steps' }, h('thead', {}, h('tr', {}, heads.map(([t, cls]) => h('th', { scope: 'col', class: cls }, t)))))
  const rows = new Map()
  const groups = []
  // details by step id, with the state they were read in: asked again only when the step's state moves
  const details = new Map()
  // by step id, the spans of its earlier tries in try order (null: a try whose log dates nothing)
  const tries = new Map()
  let shape = ''
  let selected = null
  // the step filter's search and states (./step-filter.js), and the steps last shown
  let criteria = { text: '', state: 'all' }
  let last = []

  // one row's cells, the same columns for a step and for a sub-workflow's own row
  function cellsOf (state) {
    const cells = { state: badge(state), try: h('td', { class: 'num' }), start: h('td', { class: 'wide-only' }), duration: h('td', { class: 'num' }), bar: h('span', { class: 'bar', hidden: true }) }
    cells.track = h('span', { class: 'track' }, cells.bar)
    cells.earlier = []
    return cells
  }
  const rowOf = (first, name, cells, props = {}) => h('tr', props, first, name, h('td', {}, cells.state), cells.try, cells.start, cells.duration,
    h('td', { class: 'timeline' }, cells.track))

  function build (steps) {
    for (const old of table.querySelectorAll('tbody')) old.remove()
    rows.clear()
    groups.length = 0
    for (const block of groupSteps(steps)) {
      const body = h('tbody', { class: block.group === null ? 'own' : 'group' })
      if (block.group !== null) {
        // the sub-workflow's own row: its derived state, start, duration and bar (derived from its steps)
        const cells = cellsOf(null)
        body.append(rowOf(h('td', { class: 'wide-only' }), h('th', { scope: 'rowgroup', class: 'step-name', title: `sub-workflow ${dagId}.${block.group}` },
          h('span', { class: 'group-name' }, breakable(block.group)), h('span', { class: 'muted sub' }, ' sub-workflow')), cells, { class: 'group-head' }))
        cells.mark = h('span', { class: 'pause-mark', hidden: true })
        cells.track.append(cells.mark)
        groups.push({ steps: block.steps.map((s) => s.id), cells })
      }
      for (const step of block.steps) {
        const open = h('button', { type: 'button', class: 'link step-open', 'data-step': step.id, title: `${step.id}: show its log`, onclick: () => onOpen(step.id) },
          breakable(block.group === null ? step.id : taskOf(step.id)))
        const cells = cellsOf(step.state)
        const tr = rowOf(h('td', { class: 'num muted wide-only' }, step.index), h('td', { class: 'step-name' }, open), cells, { 'data-step': step.id })
        rows.set(step.id, { tr, cells, open })
        body.append(tr)
      }
      body.dataset.group = block.group ?? ''
      table.append(body)
    }
    select(selected)
  }

  /** Runs `jobs` (async functions) a few at a time; a job's failure other than an abort or a 401 is its own. */
  async function inTurn (jobs) {
    const next = async () => {
      const job = jobs.shift()
      if (job === undefined) return
      try {
        await job()
      } catch (error) {
        if (error.name === 'AbortError' || error.status === 401) throw error
        // a step the engine has not made yet (404), a log not there: the next round asks again
      }
      await next()
    }
    await Promise.all(Array.from({ length: PARALLEL }, next))
  }

  async function readDetails (steps) {
    const stale = steps.filter((s) => s.state !== null && details.get(s.id)?.readIn !== s.state)
    await inTurn(stale.map((step) => async () => {
      const detail = await api.json(`/actions/${seg(actionId)}/steps/${seg(step.id)}`, signal)
      details.set(step.id, { ...detail, readIn: step.state })
    }))
  }

  // the spans of a retried step's earlier tries, read once from their logs (an earlier try has ended for good)
  async function readTries (steps) {
    const jobs = []
    for (const step of steps) {
      const count = details.get(step.id)?.try_number ?? 1
      const known = tries.get(step.id) ?? []
      tries.set(step.id, known)
      for (let n = 1; n < count; n++) {
        if (known[n - 1] !== undefined) continue
        jobs.push(async () => {
          const text = await api.text(`/actions/${seg(actionId)}/steps/${seg(step.id)}/logs?try=${n}`, signal)
          known[n - 1] = trySpanOf(text)
        })
      }
    }
    await inTurn(jobs)
  }

  /**
   * Shows `steps` (the action's step summaries), reading the details of steps whose state moved. `paused`: the
   * action is paused, since `pauseAt` (ms) when known; `stopped`: it was stopped (a group a stop cut short is skipped).
   */
  async function update (steps, { paused = false, pauseAt = null, stopped = false } = {}) {
    const now = shapeOf(steps)
    if (now !== shape) { shape = now; build(steps) }
    await readDetails(steps)
    await readTries(steps)
    render(steps, paused, pauseAt, stopped)
    last = steps
    return filter(criteria)
  }

  /**
   * Shows only the steps `{ text, state }` takes in (see stepShown), a sub-workflow only while one of its steps is;
   * answers `{ shown, total }`.
   */
  function filter (wanted) {
    criteria = wanted
    let shown = 0
    for (const step of last) {
      const row = rows.get(step.id)
      if (row === undefined) continue
      const visible = stepShown(step, criteria)
      if (visible) shown++
      if (row.tr.hidden === visible) row.tr.hidden = !visible
    }
    for (const body of table.querySelectorAll('tbody')) {
      const empty = [...body.querySelectorAll('tr[data-step]')].every((tr) => tr.hidden)
      if (body.hidden !== empty) body.hidden = empty
    }
    return { shown, total: last.length }
  }

  function render (steps, paused, pauseAt, stopped) {
    const nowMs = Date.now()
    const spans = new Map(steps.map((s) => {
      // a skipped step never ran: the engine dates it when it marked it skipped, which is no start
      const d = s.state === 'skipped' ? undefined : details.get(s.id)
      const start = parseTime(d?.start_date)?.getTime() ?? null
      const end = parseTime(d?.end_date)?.getTime() ?? null
      // a step that has not ended runs until now; one that ended without dates takes no room
      return [s.id, { start, end: start !== null && end === null && ENDED.has(s.state) ? start : end }]
    }))
    // a group's span takes in its steps' earlier tries: a retried first step started the group with its first try
    const earlier = steps.map((s) => (tries.get(s.id) ?? []).map((span) => span ?? { start: null, end: null }))
    const indexOf = new Map(steps.map((s, i) => [s.id, i]))
    const spansOf = (id) => [spans.get(id), ...(earlier[indexOf.get(id)] ?? [])]
    const groupSpans = groups.map((g) => groupSpan(g.steps.flatMap(spansOf), g.steps.length, paused))
    const pauseSpan = pauseAt === null ? [] : [{ start: pauseAt, end: pauseAt }]
    const bars = timeline([...spans.values(), ...groupSpans, ...earlier.flat(), ...pauseSpan], nowMs)
    let at = steps.length + groups.length
    steps.forEach((step, i) => {
      const row = rows.get(step.id)
      const own = bars.slice(at, at + earlier[i].length)
      at += earlier[i].length
      if (row === undefined) return
      const d = details.get(step.id)
      setText(row.cells.try, d?.try_number ?? '')
      const ran = step.state !== 'skipped'
      show(row.cells, step.state, ran ? d?.start_date : null, ran && typeof d?.duration === 'number' ? d.duration : undefined, spans.get(step.id), bars[i], nowMs)
      showTries(row.cells, own, earlier[i])
    })
    const mark = pauseAt === null ? null : bars.at(-1)
    groups.forEach((group, i) => {
      const own = groupState(group.steps.map((id) => steps.find((s) => s.id === id) ?? { state: null }), { stopped })
      const span = groupSpans[i]
      // a paused action's unfinished group has stopped: it says so, and its track marks when the pause began
      const state = paused && own === 'running' && span.end !== null ? 'paused' : own
      group.cells.mark.hidden = mark === null
      if (mark !== null) {
        group.cells.mark.style.left = `${mark.left.toFixed(2)}%`
        group.cells.mark.title = `paused at ${utcText(new Date(pauseAt))}`
      }
      const seconds = span.start !== null && span.end !== null ? (span.end - span.start) / 1000 : undefined
      const started = span.start === null ? null : new Date(span.start).toISOString()
      show(group.cells, state, started, seconds, span, bars[steps.length + i], nowMs)
    })
  }

  // earlier tries' bars, each a try that failed (only the last try can succeed), titled with its number
  function showTries (cells, bars, spans) {
    while (cells.earlier.length < bars.length) {
      const bar = h('span', { class: 'bar bad try-bar', 'data-try': cells.earlier.length + 1 })
      cells.track.insertBefore(bar, cells.bar)
      cells.earlier.push(bar)
    }
    cells.earlier.forEach((el, n) => {
      const bar = bars[n]
      el.hidden = bar === null || bar === undefined
      if (el.hidden) return
      el.style.left = `${bar.left.toFixed(2)}%`
      el.style.width = `${bar.width.toFixed(2)}%`
      el.title = `try ${n + 1}: ${durationText((spans[n].end - spans[n].start) / 1000)}`
    })
  }

  function show (cells, state, start, seconds, span, bar, nowMs) {
    setBadge(cells.state, state, stateWords(state))
    setTime(cells.start, start, true)
    const running = seconds === undefined && span?.start !== null && span?.end === null
    setText(cells.duration, running ? durationText((nowMs - span.start) / 1000) : seconds === undefined ? '' : durationText(seconds))
    cells.bar.hidden = bar === null
    if (bar === null) return
    cells.bar.style.left = `${bar.left.toFixed(2)}%`
    cells.bar.style.width = `${bar.width.toFixed(2)}%`
    const cls = `bar ${badgeClass(state ?? 'not started')}`
    if (cells.bar.className !== cls) cells.bar.className = cls
  }

  /** Marks the step whose log is shown. */
  function select (stepId) {
    selected = stepId
    for (const [id, row] of rows) {
      row.tr.classList.toggle('selected', id === stepId)
      if (id === stepId) row.open.setAttribute('aria-current', 'true')
      else row.open.removeAttribute('aria-current')
    }
  }

  return { table, update, filter, select, detail: (stepId) => details.get(stepId) }
}

const shapeOf = (steps) => steps.map((s) => `${s.index}:${s.id}`).join(',')
