// A step's log in a scrollable monospace pane: the latest try by default, each earlier try one click away
// (seed 000 §4.15: `try` selects an attempt). The latest try of a running step is read again on every poll.
import { api, seg } from './api.js'
import { fill, h, setText } from './dom.js'

export function logPane ({ actionId, signal, report }) {
  const title = h('h2', { id: 'log-title' }, 'Step log')
  const hint = h('p', { class: 'muted' }, 'Choose a step above to read its log.')
  const tries = h('div', { class: 'tries', role: 'group', 'aria-label': 'Tries' })
  const status = h('p', { class: 'status', role: 'status' })
  const pre = h('pre', { class: 'log', tabindex: '0', 'aria-labelledby': 'log-title' })
  const section = h('section', { class: 'log-pane', 'aria-labelledby': 'log-title' }, title, hint, tries, status, pre)
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
    const wanted = `${stepId}#${tryNumber}`
    loading = wanted
    setText(status, 'Loading…')
    try {
      const text = await api.text(`/actions/${seg(actionId)}/steps/${seg(stepId)}/logs?try=${tryNumber}`, signal)
      if (loading !== wanted) return
      setText(status, '')
      // a reader at the end of the log stays at the end as it grows; one scrolled up keeps their place
      const atEnd = pre.scrollTop + pre.clientHeight >= pre.scrollHeight - 4
      setText(pre, text === '' ? '(empty log)' : text)
      if (atEnd) pre.scrollTop = pre.scrollHeight
    } catch (error) {
      if (loading === wanted) report(status, error)
    }
  }

  /** Opens the log of `step` whose detail (try_number) is `detail`; the latest try unless one is asked for. */
  async function open (step, detail) {
    stepId = step
    hint.hidden = true
    setText(title, `Log of ${step}`)
    latest = Math.max(detail?.try_number ?? 1, 1)
    tryButtons(latest)
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
