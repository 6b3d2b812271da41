// The Action view: one action's summary with its run's start, end and duration and a link to the run in the engine's
// UI (./run-facts.js), a grid of its task groups (./group-grid.js), its steps (./step-table.js) with a search and a
// state filter (./step-filter.js), pause / unpause / stop with a confirmation and what a paused run will do, a step's
// log (./log-pane.js), the command audit and the validations. It reads the action again every 3 s while the action is
// not finished and the tab is visible. Only the controls that fit the action's state are enabled, and a message goes
// once it no longer holds (./action-state.js).
import { api, seg } from './api.js'
import { badge, fill, h, poll, setBadge, setText, setTime, timeEl } from './dom.js'
import { controlsFor, expiryOf, isStale, lifecycleWords, pausedAt, pauseNote, pauseWarning, runMissing, stopEffect, stoppedBy } from './action-state.js'
import { parameterLines } from './action-kinds.js'
import { logPane } from './log-pane.js'
import { ENDED, FINISHED, progress, progressText } from './steps.js'
import { stepTable } from './step-table.js'
import { stepFilter } from './step-filter.js'
import { groupGrid } from './group-grid.js'
import { runFacts } from './run-facts.js'

const POLL_MS = 3000

// what each control does, for the confirmation (a pause's words come from the steps: pauseWarning): pause and unpause
// act on the whole workflow (Airflow 3 pauses a DAG, not a run), stop fails the run
const CONTROLS = [
  { verb: 'pause', label: 'Pause' },
  { verb: 'unpause', label: 'Unpause', text: 'The workflow goes on from where it was paused.' },
  { verb: 'stop', label: 'Stop', text: 'Running steps fail and the others are skipped. The action ends as Failed; this cannot be undone.' }
]

export function actionView ({ root, params, signal, report, confirm }) {
  const actionId = params.id
  const title = h('h1', { tabindex: '-1' }, 'Action')
  const idText = h('span', { class: 'id' }, actionId)
  const fields = { lifecycle: badge('Pending'), dag: h('dd'), user: h('dd'), when: h('dd'), marker: h('dd', { class: 'id' }), progress: h('dd'), parameters: h('dd', { class: 'parameters' }) }
  const message = h('p', { class: 'status', role: 'status', 'aria-live': 'polite' })
  // what a paused run will do (the engine keeps a paused run open even once its last step has ended)
  const stateNote = h('p', { id: 'state-note', class: 'state-note', role: 'status', hidden: true })
  const run = runFacts({ actionId, signal })
  const grid = groupGrid({ onOpen: (stepId) => { openLog(stepId) } })
  const filterBar = stepFilter({ onChange: (wanted) => { if (table !== null) showCount(table.filter(wanted)) } })
  const showCount = ({ shown, total }) => { filterBar.counted(shown, total) }
  const buttons = CONTROLS.map((c) => h('button', { type: 'button', class: `control control-${c.verb}`, 'data-verb': c.verb, disabled: true, onclick: () => { control(c) } }, c.label))
  const stepsWrap = h('div', { class: 'table-wrap' })
  const audit = h('tbody')
  const validations = h('div', { class: 'validations' })
  const notes = h('ul', { class: 'notes' })
  let action = null
  let table = null
  // the message shown: { kind, at, lifecycle } (see isStale), or null
  let shown = null
  let sweepTimer

  /** Shows `text` as a message of `kind` (note, refusal, poll-error, asking), or an error through `report`. */
  function say (kind, text, error) {
    clearTimeout(sweepTimer)
    if (error === undefined) {
      message.className = 'status'
      message.dataset.kind = kind
      setText(message, text)
    } else {
      report(message, error, kind)
      // an aborted call or a 401 shows nothing
      if (message.dataset.kind !== kind) return
    }
    shown = { kind, at: Date.now(), lifecycle: action?.action_lifecycle }
    const expiry = expiryOf(kind, shown.at)
    if (expiry !== null) sweepTimer = setTimeout(() => { sweep(true) }, expiry - shown.at)
  }

  function sweep (readOk) {
    if (!isStale(shown, { at: Date.now(), lifecycle: action?.action_lifecycle, readOk })) return
    shown = null
    message.className = 'status'
    message.dataset.kind = ''
    setText(message, '')
  }
  signal.addEventListener('abort', () => { clearTimeout(sweepTimer) })

  const log = logPane({ actionId, signal, report })
  fill(root,
    h('p', { class: 'crumbs' }, h('a', { href: '#/actions' }, '← Actions')),
    h('div', { class: 'view-head' }, h('div', {}, title, idText), h('div', { class: 'controls' }, run.link, buttons)),
    message,
    stateNote,
    h('dl', { class: 'summary' },
      h('div', {}, h('dt', {}, 'Lifecycle'), h('dd', {}, fields.lifecycle)),
      h('div', {}, h('dt', {}, 'Progress'), fields.progress),
      h('div', {}, h('dt', {}, 'Engine status'), fields.dag),
      h('div', {}, h('dt', {}, 'User'), fields.user),
      h('div', {}, h('dt', {}, 'Invoked'), fields.when),
      run.items,
      h('div', {}, h('dt', {}, 'Parameters'), fields.parameters),
      h('div', { class: 'wide-only' }, h('dt', {}, 'Context marker'), fields.marker)),
    h('section', { 'aria-labelledby': 'grid-title' }, h('h2', { id: 'grid-title' }, 'Task groups'), grid.grid),
    h('section', { 'aria-labelledby': 'steps-title' }, h('h2', { id: 'steps-title' }, 'Steps'), filterBar.bar, stepsWrap),
    log.section,
    h('div', { class: 'columns' },
      h('section', { 'aria-labelledby': 'audit-title' }, h('h2', { id: 'audit-title' }, 'Command audit'),
        h('table', { class: 'audit' }, h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Command'), h('th', { scope: 'col' }, 'User'), h('th', { scope: 'col' }, 'When'))), audit)),
      h('section', { 'aria-labelledby': 'validations-title' }, h('h2', { id: 'validations-title' }, 'Validations'), validations),
      h('section', { 'aria-labelledby': 'notes-title' }, h('h2', { id: 'notes-title' }, 'Notes'), notes)))

  async function refresh () {
    try {
      action = await api.json(`/actions/${seg(actionId)}`, signal)
    } catch (error) {
      // a failed read says so unless a control's answer is being shown
      if (shown === null || shown.kind === 'poll-error') say('poll-error', '', error)
      return
    }
    setText(title, action.name)
    document.title = `${action.name} · Slipway console`
    setBadge(fields.lifecycle, action.action_lifecycle, lifecycleWords(action))
    setText(fields.dag, action.dag_status ?? '—')
    setText(fields.user, action.user ?? '')
    setTime(fields.when, action.datetime)
    setText(fields.marker, action.context_marker ?? '')
    const parameters = parameterLines(action.parameters)
    setText(fields.parameters, parameters.length === 0 ? 'none' : parameters.join('; '))
    const counts = progress(action.steps ?? [])
    setText(fields.progress, runMissing(action) ? 'not known: the engine has no run of this action' : progressText(counts, 'steps done'))
    fields.progress.classList.toggle('failed', counts.failed > 0)
    const note = pauseNote(action.action_lifecycle, action.steps)
    const stop = stoppedBy(action.command_audit, action.action_lifecycle)
    showStateNote(note ?? action.start_reason ?? null, stop, action.steps ?? [])
    sweep(true)
    const fits = controlsFor(action)
    // a button being asked about stays as it is until the answer comes
    for (const button of buttons) if (button.dataset.busy !== 'true') button.disabled = !fits[button.dataset.verb]
    if (table === null) {
      table = stepTable({ actionId, dagId: action.dag_id, signal, onOpen: (stepId) => { openLog(stepId) } })
      table.filter(filterBar.value())
      fill(stepsWrap, table.table)
    }
    renderAudit(action.command_audit ?? [])
    renderValidations(action.validations ?? [])
    renderNotes(action.notes ?? [])
    grid.update(action.steps ?? [], { stopped: stop !== null })
    showCount(await table.update(action.steps ?? [], {
      paused: action.action_lifecycle === 'Paused', pauseAt: pausedAt(action.command_audit, action.action_lifecycle), stopped: stop !== null
    }))
    const current = log.current()
    if (current !== null) {
      const step = (action.steps ?? []).find((s) => s.id === current)
      await log.refresh(table.detail(current), step !== undefined && !ENDED.has(step.state))
    }
    // the run's dates last: the steps shown are never held back by them
    await run.update(action)
  }

  /**
   * What a paused run will do, or who stopped an ended one and when (a stopped run is Failed, with no step to blame),
   * or why a start is pending or failed, or why a started action has no run in the engine (`start_reason`).
   */
  function showStateNote (note, stop, steps) {
    stateNote.hidden = note === null && stop === null
    if (note !== null || stop === null) {
      setText(stateNote, note ?? '')
      stateNote.dataset.kind = note === null ? '' : 'note'
      delete stateNote.dataset.said
      return
    }
    const said = `${stop.user}\u0000${stop.datetime}\u0000${stopEffect(steps)}`
    if (stateNote.dataset.said === said) return
    stateNote.dataset.said = said
    stateNote.dataset.kind = 'stop'
    fill(stateNote, `Stopped by ${stop.user} at `, timeEl(stop.datetime), `. ${stopEffect(steps)}`)
  }

  async function openLog (stepId) {
    table.select(stepId)
    let detail = table.detail(stepId)
    if (detail === undefined) {
      try { detail = await api.json(`/actions/${seg(actionId)}/steps/${seg(stepId)}`, signal) } catch { detail = undefined }
    }
    await log.open(stepId, detail)
  }

  function renderAudit (entries) {
    if (audit.childElementCount === entries.length) return
    fill(audit, entries.map((e) => h('tr', {}, h('td', {}, e.command), h('td', {}, e.user), h('td', {}, timeEl(e.datetime)))))
  }

  function renderValidations (entries) {
    if (validations.dataset.count === String(entries.length)) return
    validations.dataset.count = String(entries.length)
    if (entries.length === 0) { fill(validations, h('p', { class: 'muted' }, 'None failed.')); return }
    fill(validations, entries.map((v) => {
      const body = h('dl', { class: 'drill' })
      const details = h('details', {
        ontoggle: () => { if (details.open && body.childElementCount === 0) drill(v, body) }
      }, h('summary', {}, v.validation_name ?? v.name ?? v.id), body)
      return details
    }))
  }

  async function drill (validation, body) {
    try {
      const full = await api.json(`/actions/${seg(actionId)}/validations/${seg(validation.id)}`, signal)
      fill(body, Object.entries(full).map(([key, value]) => h('div', {}, h('dt', {}, key), h('dd', {}, typeof value === 'string' ? value : JSON.stringify(value)))))
    } catch (error) {
      fill(body, h('p', { class: 'error' }))
      report(body.firstElementChild, error)
    }
  }

  function renderNotes (entries) {
    if (notes.dataset.count === String(entries.length)) return
    notes.dataset.count = String(entries.length)
    fill(notes, entries.length === 0 ? h('li', { class: 'muted' }, 'None.') : entries.map((n) => h('li', {}, n.note_val ?? '', ' ', h('span', { class: 'muted' }, timeEl(n.note_timestamp)))))
  }

  async function control ({ verb, label, text }) {
    const name = action === null ? actionId : `${action.name} (${actionId})`
    // a pause says beforehand what it can still hold back
    const says = verb === 'pause' ? pauseWarning(action?.steps) : text
    if (!await confirm({ title: `${label} ${name}?`, text: says, confirmLabel: label, danger: verb === 'stop' })) return
    say('asking', `${label}: asking the orchestrator…`)
    const button = buttons.find((b) => b.dataset.verb === verb)
    button.dataset.busy = 'true'
    button.disabled = true
    try {
      await api.post(`/actions/${seg(actionId)}/control/${verb}`, signal)
      say('note', `${label} accepted.`)
    } catch (error) {
      // a control that does not fit the action's state (changed since it was read) is a 409 whose
      // message and reason say why
      say('refusal', '', error)
    }
    delete button.dataset.busy
    await poller.now()
  }

  const poller = poll(refresh, { intervalMs: POLL_MS, signal, wanted: () => action === null || !FINISHED.has(action.action_lifecycle) })
  return { title: 'Action' }
}
