// The Actions view: every action, newest first, with its lifecycle, user, time and progress; a filter by
// lifecycle. Rows are updated in place: every 5 s while an action shown is still going, else every 15 s (new
// actions appear by themselves).
import { api } from './api.js'
import { badge, breakable, fill, h, poll, setBadge, setText, setTime } from './dom.js'
import { FINISHED, progress, progressText } from './steps.js'

const LIFECYCLES = ['Pending', 'Processing', 'Paused', 'Complete', 'Failed']
const POLL_MS = 5000
const IDLE_POLL_MS = 15000

/** Mounts the view; `query.lifecycle` filters. */
export function actionsView ({ root, query, signal, report }) {
  const wanted = LIFECYCLES.includes(query.get('lifecycle')) ? query.get('lifecycle') : ''
  const filter = h('select', { id: 'lifecycle-filter', onchange: () => { location.hash = filter.value === '' ? '#/actions' : `#/actions?lifecycle=${filter.value}` } },
    h('option', { value: '' }, 'All'), LIFECYCLES.map((l) => h('option', { value: l, selected: l === wanted }, l)))
  const status = h('p', { class: 'status', role: 'status' })
  const body = h('tbody')
  const empty = h('p', { class: 'empty', hidden: true })
  fill(root,
    h('div', { class: 'view-head' }, h('h1', { tabindex: '-1' }, 'Actions'),
      h('div', { class: 'head-tools' }, h('label', { class: 'inline' }, 'Lifecycle ', filter),
        h('a', { href: '#/actions/new', class: 'button', id: 'new-action' }, 'New action'))),
    status,
    h('div', { class: 'table-wrap' },
      h('table', { class: 'actions' },
        h('thead', {}, h('tr', {}, [['Action', 'c-name'], ['Lifecycle', 'c-life'], ['User', 'c-user wide-only'], ['Invoked', 'c-when'], ['Progress', 'c-progress']].map(([t, cls]) => h('th', { scope: 'col', class: cls }, t)))),
        body)),
    empty)

  const rows = new Map()
  let going = false

  function rowFor (action) {
    let row = rows.get(action.id)
    if (row === undefined) {
      const cells = {
        link: h('a', { href: `#/actions/${action.id}` }, breakable(action.name)),
        id: h('span', { class: 'id' }, action.id),
        life: badge(action.action_lifecycle),
        user: h('td', { class: 'wide-only' }),
        when: h('td'),
        meter: h('progress', { max: 1, value: 0 }),
        count: h('span', { class: 'count' })
      }
      const tr = h('tr', {}, h('td', {}, cells.link, h('br'), cells.id), h('td', {}, cells.life), cells.user, cells.when,
        h('td', {}, h('span', { class: 'progress' }, cells.meter, cells.count)))
      row = { tr, cells }
      rows.set(action.id, row)
    }
    return row
  }

  async function refresh () {
    let actions
    try {
      actions = await api.json('/actions', signal)
    } catch (error) {
      report(status, error)
      return
    }
    setText(status, '')
    const shown = actions.filter((a) => wanted === '' || a.action_lifecycle === wanted).sort((a, b) => (a.id < b.id ? 1 : -1))
    going = shown.some((a) => !FINISHED.has(a.action_lifecycle))
    const order = shown.map((action) => {
      const { tr, cells } = rowFor(action)
      const counts = progress(action.steps ?? [])
      setBadge(cells.life, action.action_lifecycle)
      // a Failed action's row is red (its badge says Failed: never color alone), as are its failed steps' count
      tr.classList.toggle('failed', action.action_lifecycle === 'Failed')
      cells.count.classList.toggle('failed', counts.failed > 0)
      cells.meter.classList.toggle('failed', counts.failed > 0)
      setText(cells.user, action.user ?? '')
      setTime(cells.when, action.datetime)
      cells.meter.max = Math.max(counts.total, 1)
      cells.meter.value = counts.done
      cells.meter.setAttribute('aria-label', progressText(counts, 'steps done'))
      setText(cells.count, progressText(counts))
      return tr
    })
    // the rows keep their elements (and a reader's focus); only new ones are inserted
    order.forEach((tr, i) => { if (body.children[i] !== tr) body.insertBefore(tr, body.children[i] ?? null) })
    while (body.children.length > order.length) body.lastElementChild.remove()
    empty.hidden = shown.length > 0
    setText(empty, wanted === '' ? 'No actions yet: New action starts one (so does POST /api/v1.0/actions, the shipyard CLI\'s create action).' : `No ${wanted} actions.`)
    if (performance.getEntriesByName('console:actions-rendered').length === 0) performance.mark('console:actions-rendered')
  }

  poll(refresh, { intervalMs: () => going ? POLL_MS : IDLE_POLL_MS, signal })
  return { title: 'Actions' }
}
