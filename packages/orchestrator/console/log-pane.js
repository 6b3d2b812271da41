// A step's log in a scrollable monospace pane: the latest try by default, each earlier try one click away
// (the logs route's `try` selects an attempt). The latest try of a running step is read again on every poll. Error
// lines stand out; long lines wrap on request; the try shown can be downloaded as a file.
import { api, seg } from './api.js'
import { fill, h, setText } from './dom.js'
import { logFileName, logLines } from './log-lines.js'

export function logPane ({ actionId, signal, report }) {
  const title = h('h2', { id: 'log-title' }, 'Step log')
  const hint = h('p', { class: 'muted' }, 'Choose a step above to read its log.')
  const tries = h('div', { class: 'tries', role: 'group', 'aria-label': 'Tries' })
  const status = h('p', { class: 'status', role: 'status' })
  const pre = h('pre', { class: 'log', tabindex: '0', 'aria-labelledby': 'log-title' })
  const wrap = h('input', { type: 'checkbox', id: 'log-wrap', onchange: () => { pre.classList.toggle('wrap', wrap.checked) } })
  const download = h('button', { type: 'button', id: 'log-download', disabled: true, onclick: () => { save() } }, 'Download')
  const errorCount = h('span', { class: 'muted', id: 'log-errors' })
  const tools = h('div', { class: 'log-tools', hidden: true }, h('label', { class: 'inline' }, wrap, ' Wrap long lines'), download, errorCount)
  const section = h('section', { class: 'log-pane', 'aria-labelledby': 'log-title' }, title, hint, tries, tools, status, pre)
  // the text of the try shown, as read: what the pane shows and what a download saves
  let text = null
  let stepId = null
  let shownTry = null
  let latest = null
  let loading = null

  function tryButtons (count) {
    if (tries.childElementCount === count) return
    fill(tries, Array.from({ length: count }, (_, i) => {
      const number = i + 1
      return h('button', { type: 'button', class: 'try', 'data-try': number, onclick: () => { show(number) } },
        number === count ? `Try ${number} (latest)` : `Try ${number}`)
    }))
  }

  function markTry () {
    for (const button of tries.children) button.setAttribute('aria-pressed', String(Number(button.dataset.try) === shownTry))
  }

  async function show (tryNumber) {
    shownTry = tryNumber
    markTry()
    download.disabled = true
    const wanted = `${stepId}#${tryNumber}`
    loading = wanted
    setText(status, 'Loading…')
    try {
      const read = await api.text(`/actions/${seg(actionId)}/steps/${seg(stepId)}/logs?try=${tryNumber}`, signal)
      if (loading !== wanted) return
      setText(status, '')
      // a reader at the end of the log stays at the end as it grows; one scrolled up keeps their place
      const atEnd = pre.scrollTop + pre.clientHeight >= pre.scrollHeight - 4
      render(read)
      if (atEnd) pre.scrollTop = pre.scrollHeight
    } catch (error) {
      if (loading === wanted) report(status, error)
    }
  }

  // the log as text, its error lines marked; redrawn only when it changed, so that a reader's selection stays
  function render (read) {
    download.disabled = false
    if (read === text) return
    text = read
    if (read === '') { setText(pre, '(empty log)'); setText(errorCount, ''); return }
    const runs = logLines(read)
    fill(pre, runs.map((run, i) => {
      const chunk = i < runs.length - 1 ? `${run.text}\n` : run.text
      return run.error ? h('span', { class: 'error-line' }, chunk) : chunk
    }))
    const errors = runs.filter((run) => run.error).reduce((sum, run) => sum + run.text.split('\n').length, 0)
    setText(errorCount, errors === 0 ? 'no error lines' : `${errors} error line${errors === 1 ? '' : 's'} highlighted`)
  }

  // the try shown, saved as a file by the browser (made here, from what was read: nothing is fetched again)
  function save () {
    if (text === null) return
    const url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }))
    const link = h('a', { href: url, download: logFileName(actionId, stepId, shownTry) })
    document.body.append(link)
    link.click()
    link.remove()
    setTimeout(() => { URL.revokeObjectURL(url) }, 1000)
  }

  /** Opens the log of `step` whose detail (try_number) is `detail`; the latest try unless one is asked for. */
  async function open (step, detail) {
    stepId = step
    hint.hidden = true
    setText(title, `Log of ${step}`)
    latest = Math.max(detail?.try_number ?? 1, 1)
    tryButtons(latest)
    tools.hidden = false
    text = null
    download.disabled = true
    setText(errorCount, '')
    setText(pre, '')
    await show(latest)
    // the pane is below the steps: bring it into view, with the keyboard in it (arrows scroll the log)
    pre.focus()
  }

  /** After a poll: more tries may have appeared, and the latest try of a running step has grown. */
  async function refresh (detail, running) {
    if (stepId === null || detail === undefined) return
    const count = Math.max(detail.try_number ?? 1, 1)
    const following = shownTry === latest
    if (count !== latest) { latest = count; tryButtons(count) }
    if (following && (running || shownTry !== count)) await show(count)
    else markTry()
  }

  return { section, open, refresh, current: () => stepId }
}
