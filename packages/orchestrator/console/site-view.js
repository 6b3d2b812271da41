// The Site view: each node's provisioning status and its machine's power state (GET /site_statuses), read
// again every 10 s while the tab is visible, and its labels as the committed design gives them (./node-labels.js,
// from the rendered documents, read once when the view opens).
import { ApiError, api } from './api.js'
import { badge, fill, h, poll, setBadge, setText } from './dom.js'
import { designLabels, labelTexts } from './node-labels.js'

const POLL_MS = 10000

export function siteView ({ root, signal, report }) {
  const status = h('p', { class: 'status', role: 'status' })
  const summary = h('p', { class: 'muted' })
  const body = h('tbody')
  const labelsStatus = h('p', { id: 'labels-status', class: 'muted' })
  // host name → design labels, once read; null until then
  let labels = null
  fill(root,
    h('div', { class: 'view-head' }, h('h1', { tabindex: '-1' }, 'Site')),
    summary, status, labelsStatus,
    h('div', { class: 'table-wrap' }, h('table', { class: 'nodes' },
      h('thead', {}, h('tr', {}, ['Node', 'Provisioning status', 'Power state', 'Labels (design)'].map((t) => h('th', { scope: 'col' }, t)))), body)))
  const rows = new Map()

  async function refresh () {
    let statuses
    try {
      statuses = await api.json('/site_statuses', signal)
    } catch (error) {
      report(status, error)
      return
    }
    setText(status, '')
    const nodes = new Map()
    for (const n of statuses['nodes-provision-status'] ?? []) nodes.set(n.hostname, { ...nodes.get(n.hostname), status: n.status })
    for (const n of statuses['machines-power-state'] ?? []) nodes.set(n.hostname, { ...nodes.get(n.hostname), power: n.power_state })
    const names = [...nodes.keys()].sort((a, b) => a.localeCompare(b, undefined, { numeric: true }))
    const order = names.map((name) => {
      let row = rows.get(name)
      if (row === undefined) {
        row = { tr: null, status: badge(null), power: badge(null), labels: h('td', { class: 'labels-cell' }), shown: undefined }
        row.tr = h('tr', { 'data-node': name }, h('th', { scope: 'row' }, name), h('td', {}, row.status), h('td', {}, row.power), row.labels)
        rows.set(name, row)
      }
      setBadge(row.status, nodes.get(name).status ?? 'unknown')
      setBadge(row.power, nodes.get(name).power ?? 'unknown')
      showLabels(row, name)
      return row.tr
    })
    order.forEach((tr, i) => { if (body.children[i] !== tr) body.insertBefore(tr, body.children[i] ?? null) })
    while (body.children.length > order.length) body.lastElementChild.remove()
    const counts = new Map()
    for (const node of nodes.values()) counts.set(node.status ?? 'unknown', (counts.get(node.status ?? 'unknown') ?? 0) + 1)
    setText(summary, names.length === 0
      ? 'The provisioner knows no nodes yet (they come from the committed site design).'
      : `${names.length} nodes: ${[...counts].map(([s, n]) => `${n} ${s}`).join(', ')}.`)
  }

  function showLabels (row, name) {
    const own = labels?.get(name)
    const key = labels === null ? null : JSON.stringify(own ?? null)
    if (row.shown === key) return
    row.shown = key
    if (labels === null) { fill(row.labels); return }
    const texts = labelTexts(own)
    fill(row.labels, texts.length === 0
      ? h('span', { class: 'muted' }, own === undefined ? 'not in the design' : 'none')
      : h('span', { class: 'labels' }, texts.map((t) => h('code', { class: 'label' }, t))))
  }

  /** The committed design's labels: the rendered documents, read once (they change only with a commit). */
  async function readLabels () {
    let text
    try {
      text = await api.text('/renderedconfigdocs?version=committed', signal)
    } catch (error) {
      if (error?.name === 'AbortError') return
      setText(labelsStatus, error instanceof ApiError && error.status === 404
        ? 'Labels: nothing is committed yet, so the design gives none.'
        : `Labels could not be read from the committed documents: ${error instanceof ApiError ? error.describe() : error.message}`)
      return
    }
    labels = designLabels(text)
    setText(labelsStatus, 'Labels as the committed design gives them (each BaremetalNode\'s owner_data), which relabel_nodes applies; ' +
      'the labels Kubernetes holds now are not read here.')
    for (const [name, row] of rows) showLabels(row, name)
  }

  readLabels()
  poll(refresh, { intervalMs: POLL_MS, signal })
  return { title: 'Site' }
}
