// The Site view: each node's provisioning status and its machine's power state (GET /site_statuses), read
// again every 10 s while the tab is visible.
import { api } from './api.js'
import { badge, fill, h, poll, setBadge, setText } from './dom.js'

const POLL_MS = 10000

export function siteView ({ root, signal, report }) {
  const status = h('p', { class: 'status', role: 'status' })
  const summary = h('p', { class: 'muted' })
  const body = h('tbody')
  fill(root,
    h('div', { class: 'view-head' }, h('h1', { tabindex: '-1' }, 'Site')),
    summary, status,
    h('div', { class: 'table-wrap' }, h('table', { class: 'nodes' },
      h('thead', {}, h('tr', {}, ['Node', 'Provisioning status', 'Power state'].map((t) => h('th', { scope: 'col' }, t)))), body)))
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
        row = { tr: null, status: badge(null), power: badge(null) }
        row.tr = h('tr', {}, h('th', { scope: 'row' }, name), h('td', {}, row.status), h('td', {}, row.power))
        rows.set(name, row)
      }
      setBadge(row.status, nodes.get(name).status ?? 'unknown')
      setBadge(row.power, nodes.get(name).power ?? 'unknown')
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

  poll(refresh, { intervalMs: POLL_MS, signal })
  return { title: 'Site' }
}
