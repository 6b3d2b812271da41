// The Actions view: the newest actions (LIST_WINDOW of them, more on request), newest first, with their lifecycle,
// user, time and progress; a filter by lifecycle and a search by name, id or user among them. The list is read every
// 3 s while the tab is visible, so that an action created anywhere shows within that, with the last answer's ETag: an
// unchanged list is a 304, and changes nothing on the page.
import { api } from './api.js'
import { lifecycleWords, runMissing } from './action-state.js'
import { badge, breakable, fill, h, poll, setBadge, setText, setTime } from './dom.js'
import { listHash, matchesSearch } from './list-filter.js'
import { LIST_WINDOW, listPath, listReader, mayHaveOlder } from './list-poll.js'
import { progress, progressText } from './steps.js'

const LIFECYCLES = ['Pending', 'Processing', 'Paused', 'Complete', 'Failed']
const POLL_MS = 3000

/** Mounts the view; `query.lifecycle` filters. */
export function actionsView ({ root, query, signal, report }) {
  const wanted = LIFECYCLES.includes(query.get('lifecycle')) ? query.get('lifecycle') : ''
  const filter = h('select', { id: 'lifecycle-filter', onchange: () => { location.hash = listHash(filter.value, search.value) } },
    h('option', { value: '' }, 'All'), LIFECYCLES.map((l) => h('option', { value: l, selected: l === wanted }, l)))
  // the search narrows the rows already read at once; the address keeps it (a reload, a link) without a new view
  const search = h('input', {
    type: 'search',
    id: 'action-search',
    placeholder: 'name, id or user',
    'aria-label': 'Search actions by name, id or user',
    value: query.get('q') ?? '',
    oninput: () => {
      globalThis.history.replaceState(null, '', listHash(wanted, search.value))
      if (actions !== null) show()
    }
  })
  const status = h('p', { class: 'status', role: 'status' })
  const body = h('tbody')
  const empty = h('p', { class: 'empty', hidden: true })
  // the window holds the newest `limit` actions; older ones are read when asked for
  let limit = LIST_WINDOW
  const older = h('button', {
    type: 'button',
    id: 'older-actions',
    class: 'quiet',
    hidden: true,
    onclick: () => { limit += LIST_WINDOW; refresh() }
  }, `Show ${LIST_WINDOW} older actions`)
  const windowNote = h('p', { class: 'status', hidden: true }, older)
  fill(root,
    h('div', { class: 'view-head' }, h('h1', { tabindex: '-1' }, 'Actions'),
      h('div', { class: 'head-tools' }, h('label', { class: 'inline' }, 'Search ', search), h('label', { class: 'inline' }, 'Lifecycle ', filter),
        h('a', { href: '#/actions/new', class: 'button', id: 'new-action' }, 'New action'))),
    status,
    h('div', { class: 'table-wrap' },
      h('table', { class: 'actions' },
        h('thead', {}, h('tr', {}, [['Action', 'c-name'], ['Lifecycle', 'c-life'], ['User', 'c-user wide-only'], ['Invoked', 'c-when'], ['Progress', 'c-progress']].map(([t, cls]) => h('th', { scope: 'col', class: cls }, t)))),
        body)),
    empty,
    windowNote)

  const rows = new Map()
  const readList = listReader(async (path, etag) => await api.conditional(path, etag, signal))
  let startedAt = 0
  let actions = null

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
    let answer
    try {
      answer = await readList(listPath(limit))
    } catch (error) {
      report(status, error)
      return
    }
    if (status.textContent !== '') { setText(status, ''); status.className = 'status' }
    if (!answer.changed) return
    actions = JSON.parse(answer.text)
    windowNote.hidden = !mayHaveOlder(actions.length, limit)
    show()
  }

  function show () {
    const shown = actions.filter((a) => (wanted === '' || a.action_lifecycle === wanted) && matchesSearch(a, search.value)).sort((a, b) => (a.id < b.id ? 1 : -1))
    const order = shown.map((action) => {
      const { tr, cells } = rowFor(action)
      const counts = progress(action.steps ?? [])
      setBadge(cells.life, action.action_lifecycle, lifecycleWords(action))
      // a Failed action's row is red (its badge says Failed: never color alone), as are its failed steps' count
      tr.classList.toggle('failed', action.action_lifecycle === 'Failed')
      cells.count.classList.toggle('failed', counts.failed > 0)
      cells.meter.classList.toggle('failed', counts.failed > 0)
      setText(cells.user, action.user ?? '')
      setTime(cells.when, action.datetime)
      cells.meter.max = Math.max(counts.total, 1)
      cells.meter.value = counts.done
      cells.meter.setAttribute('aria-label', progressText(counts, 'steps done'))
      setText(cells.count, runMissing(action) ? 'not known' : progressText(counts))
      cells.count.title = runMissing(action) ? action.start_reason : ''
      return tr
    })
    // the rows keep their elements (and a reader's focus); only new ones are inserted
    order.forEach((tr, i) => { if (body.children[i] !== tr) body.insertBefore(tr, body.children[i] ?? null) })
    while (body.children.length > order.length) body.lastElementChild.remove()
    empty.hidden = shown.length > 0
    setText(empty, emptyText(wanted, search.value, actions.length))
    if (performance.getEntriesByName('console:actions-rendered').length === 0) performance.mark('console:actions-rendered')
  }

  // 3 s from the start of one read to the start of the next: an action made just after a read shows at the next one
  const untilNext = () => Math.max(POLL_MS - (Date.now() - startedAt), 250)
  poll(async () => { startedAt = Date.now(); await refresh() }, { intervalMs: untilNext, signal })
  return { title: 'Actions' }
}

function emptyText (lifecycle, query, total) {
  if (total === 0) return 'No actions yet: New action starts one (so does POST /api/v1.0/actions, the shipyard CLI\'s create action).'
  const what = lifecycle === '' ? 'actions' : `${lifecycle} actions`
  return query.trim() === '' ? `No ${what}.` : `No ${what} match “${query.trim()}”.`
}
