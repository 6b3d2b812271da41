// The engine's run of an action, as the action view shows it beside the summary: when it started and ended and how
// long it ran (the run's own dates from GET /workflows, read until the run has started and once it has ended; the
// time running meanwhile counted here), and a link to the run in the engine's own UI when the orchestrator is given
// its address (ENGINE_UI_URL, through ./settings.js).
import { api } from './api.js'
import { durationText, h, parseTime, setText, setTime } from './dom.js'
import { consoleSettings } from './settings.js'
import { FINISHED } from './steps.js'

// the run's logical date is the moment it was triggered, just after the action was saved: a minute's margin
const SINCE_MARGIN_MS = 60_000

/** GET /workflows's `since` that takes in the run of an action invoked at `datetime` (an API time), or null. */
export function workflowsSince (datetime) {
  const at = parseTime(datetime)
  return at === null ? null : new Date(at.getTime() - SINCE_MARGIN_MS).toISOString()
}

/** How long the run ran, or has run until `nowMs` while it has not ended: `running for 12 s`, `3 min 04 s`, or ''. */
export function runDurationText (run, nowMs) {
  const start = parseTime(run?.start_date)
  if (start === null) return ''
  const end = parseTime(run?.end_date)
  return end === null ? `running for ${durationText((nowMs - start.getTime()) / 1000)}` : durationText((end.getTime() - start.getTime()) / 1000)
}

/** Airflow 3's page of one run, `<ui>/dags/<dag_id>/runs/<run_id>`; null without an address. */
export function engineRunUrl (base, dagId, runId) {
  if (typeof base !== 'string' || base === '') return null
  return `${base.replace(/\/+$/, '')}/dags/${encodeURIComponent(dagId)}/runs/${encodeURIComponent(runId)}`
}

export function runFacts ({ actionId, signal }) {
  const started = h('dd', { id: 'run-started' }, '—')
  const ended = h('dd', { id: 'run-ended' }, '—')
  const duration = h('dd', { id: 'run-duration' }, '—')
  const link = h('a', { id: 'engine-link', class: 'engine-link', target: '_blank', rel: 'noopener noreferrer', hidden: true }, 'Open the run in Airflow ↗')
  const items = [
    h('div', {}, h('dt', {}, 'Run started'), started),
    h('div', {}, h('dt', {}, 'Run ended'), ended),
    h('div', {}, h('dt', {}, 'Run duration'), duration)
  ]
  let run = null

  async function readRun (action) {
    const since = workflowsSince(action.datetime)
    if (since === null) return
    const list = await api.json(`/workflows?since=${encodeURIComponent(since)}`, signal)
    run = (Array.isArray(list) ? list : []).find((w) => w.run_id === actionId && w.dag_id === action.dag_id) ?? run
  }

  /** Shows the run of `action` (an action as GET /actions/{id} answers it), reading it when it has news. */
  async function update (action) {
    const finished = FINISHED.has(action.action_lifecycle)
    const known = (field) => run !== null && parseTime(run[field]) !== null
    const wanted = action.dag_status !== null && (!known('start_date') || (finished && !known('end_date')))
    if (wanted) {
      try {
        await readRun(action)
      } catch (error) {
        if (error.name === 'AbortError') throw error
        // a token without list_workflows still sees the action; the run's dates then stay unknown, and say why
        duration.title = `the run's dates could not be read: ${error.describe?.() ?? error.message}`
      }
    }
    if (known('start_date')) setTime(started, run.start_date)
    else setText(started, action.dag_status === null ? 'not started' : '—')
    if (known('end_date')) setTime(ended, run.end_date)
    else setText(ended, known('start_date') ? 'not yet' : '—')
    setText(duration, runDurationText(run, Date.now()) || '—')
    const settings = await consoleSettings()
    const url = engineRunUrl(settings.engine_ui_url, action.dag_id, actionId)
    link.hidden = url === null
    if (url !== null && link.getAttribute('href') !== url) link.setAttribute('href', url)
  }

  return { items, link, update }
}
