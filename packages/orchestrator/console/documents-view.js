// The Documents view: the collections with their status between two versions (buffer against committed unless
// chosen otherwise), staging a collection (./stage-panel.js) and committing the buffer (./commit-panel.js), a
// unified diff of one collection computed here from its two texts, and the rendered documents. Secrets stay
// redacted unless the reader asks for cleartext, which policy may refuse (403).
import { ApiError, api, seg } from './api.js'
import { commitPanel } from './commit-panel.js'
import { countChanges, diffLines, hunks, linesOf } from './diff.js'
import { badge, fill, h, setText } from './dom.js'
import { stagePanel } from './stage-panel.js'
import { renderedDefault } from './staging.js'
import { factsOf, splitDocuments, withoutBookkeeping } from './yaml-docs.js'

// the document versions, ordered as the API ranks them, oldest first
const VERSIONS = ['successful_site_action', 'last_site_action', 'committed', 'buffer']

const lines = (n) => `${n} ${n === 1 ? 'line' : 'lines'}`

export function documentsView ({ root, signal, report, confirm }) {
  const select = (id, chosen) => h('select', { id, onchange: () => { loadCollections() } }, VERSIONS.map((v) => h('option', { value: v, selected: v === chosen }, v)))
  const base = select('base-version', 'committed')
  const next = select('new-version', 'buffer')
  const cleartext = h('input', { type: 'checkbox', id: 'cleartext', onchange: () => { redo() } })
  const bookkeeping = h('input', { type: 'checkbox', id: 'bookkeeping', checked: true, onchange: () => { redo() } })
  const status = h('p', { class: 'status', role: 'status' })
  const collections = h('tbody')
  const diffTitle = h('h2', { id: 'diff-title' }, 'Diff')
  const diffStatus = h('p', { id: 'diff-status', class: 'status', role: 'status' }, 'Choose a collection above to see what changes between the two versions.')
  const diffBody = h('div', { class: 'diff', tabindex: '0', 'aria-labelledby': 'diff-title' })
  const renderedStatus = h('p', { id: 'rendered-status', class: 'status', role: 'status' })
  const renderedList = h('div', { class: 'rendered' })
  const renderedButton = h('button', { type: 'button', id: 'rendered-open', onclick: () => { loadRendered() } }, 'List the rendered documents')
  // the buffer by default while it changes something, else the committed version (an empty buffer has none)
  const renderedVersion = h('select', { id: 'rendered-version', onchange: () => { renderedChosen = true; fill(renderedList); setText(renderedStatus, '') } },
    VERSIONS.map((v) => h('option', { value: v, selected: v === 'committed' }, v)))
  let renderedChosen = false
  let pair = null
  let shown = null
  const buffer = async () => await api.json('/configdocs?version=committed,buffer', signal)
  const changed = async () => {
    await Promise.all([loadBuffer(), loadCollections()])
    if (renderedList.childElementCount > 0) await loadRendered()
  }
  const stage = stagePanel({ signal, confirm, buffer, onStaged: changed })
  const commit = commitPanel({ signal, confirm, buffer, onCommitted: changed })

  fill(root,
    h('div', { class: 'view-head' }, h('h1', { tabindex: '-1' }, 'Documents')),
    h('div', { class: 'options' },
      h('label', { class: 'inline' }, 'Compare ', base), h('label', { class: 'inline' }, ' with ', next),
      h('label', { class: 'inline check' }, cleartext, ' Show secrets in cleartext'),
      h('label', { class: 'inline check' }, bookkeeping, ' Hide the store\'s id and status fields')),
    status,
    h('div', { class: 'table-wrap' }, h('table', { class: 'collections' },
      h('thead', {}, h('tr', {}, ['Collection', 'Older version', 'Newer version', ''].map((t) => h('th', { scope: 'col' }, t)))), collections)),
    h('div', { class: 'panels' }, stage.section, commit.section),
    h('section', { 'aria-labelledby': 'diff-title' }, diffTitle, diffStatus, diffBody),
    h('section', { 'aria-labelledby': 'rendered-title' }, h('h2', { id: 'rendered-title' }, 'Rendered documents'),
      h('div', { class: 'form-buttons' }, h('label', { class: 'inline' }, 'Version ', renderedVersion), renderedButton), renderedStatus, renderedList))

  const query = () => `cleartext-secrets=${cleartext.checked ? 'true' : 'false'}`

  async function loadCollections () {
    if (base.value === next.value) { setText(status, 'Choose two different versions.'); fill(collections); return }
    setText(status, 'Loading…')
    status.className = 'status'
    let list
    try {
      list = await api.json(`/configdocs?version=${base.value},${next.value}`, signal)
    } catch (error) {
      fill(collections)
      report(status, error)
      return
    }
    setText(status, list.length === 0 ? 'No collections in either version.' : '')
    // the API answers with the older version as base, whatever order they were asked in
    pair = list.length > 0 ? { base: list[0].base_version, next: list[0].new_version } : { base: base.value, next: next.value }
    fill(collections, list.map((c) => h('tr', {},
      h('th', { scope: 'row' }, c.collection_name),
      h('td', {}, badge(c.base_status), h('span', { class: 'muted' }, ` ${c.base_version} (revision ${c.base_revision})`)),
      h('td', {}, badge(c.new_status), h('span', { class: 'muted' }, ` ${c.new_version} (revision ${c.new_revision})`)),
      h('td', {}, h('button', { type: 'button', class: 'diff-open', 'data-collection': c.collection_name, onclick: () => { showDiff(c.collection_name) } }, 'Diff')))))
    if (shown !== null && list.some((c) => c.collection_name === shown)) await showDiff(shown)
  }

  /** A collection's text in a version; '' where the version has none. */
  async function textOf (collection, version) {
    try {
      return await api.text(`/configdocs/${seg(collection)}?version=${version}&${query()}`, signal)
    } catch (error) {
      if (!(error instanceof ApiError) || error.status !== 404) throw error
      // the buffer answers 404 for a collection it does not change, which is then
      // the committed one; any other version answers 404 where it has no such collection
      return version === 'buffer' ? await textOf(collection, 'committed') : ''
    }
  }

  async function showDiff (collection) {
    shown = collection
    const { base: from, next: to } = pair
    setText(diffTitle, `Diff of ${collection}: ${from} → ${to}`)
    setText(diffStatus, 'Loading…')
    diffStatus.className = 'status'
    let texts
    try {
      texts = await Promise.all([textOf(collection, from), textOf(collection, to)])
    } catch (error) {
      fill(diffBody)
      report(diffStatus, error)
      return
    }
    const [a, b] = texts.map((t) => linesOf(bookkeeping.checked ? withoutBookkeeping(t) : t))
    const script = diffLines(a, b)
    const { added, removed } = countChanges(script)
    setText(diffStatus, added + removed === 0 ? `No differences (${a.length} lines).` : `${lines(removed)} removed, ${added} added.`)
    fill(diffBody, h('div', { class: 'diff-files' }, `--- ${collection} (${from})`, h('br'), `+++ ${collection} (${to})`),
      hunks(script).map((hunk) => [
        h('div', { class: 'hunk' }, hunk.header),
        hunk.lines.map((line) => h('div', { class: `line ${line.op === '+' ? 'add' : line.op === '-' ? 'del' : 'ctx'}` },
          h('span', { class: 'no', 'aria-hidden': 'true' }, line.oldNo ?? ''), h('span', { class: 'no', 'aria-hidden': 'true' }, line.newNo ?? ''),
          h('span', { class: 'text' }, `${line.op}${line.text}`)))
      ]))
  }

  /** The buffer against the committed version: what the panels show and the rendered documents' default. */
  async function loadBuffer () {
    let list
    try {
      list = await buffer()
    } catch (error) {
      report(status, error)
      return
    }
    stage.showKnown(list)
    commit.update(list)
    if (!renderedChosen) renderedVersion.value = renderedDefault(list)
  }

  async function loadRendered () {
    const version = renderedVersion.value
    setText(renderedStatus, 'Loading…')
    renderedStatus.className = 'status'
    let text
    try {
      text = await api.text(`/renderedconfigdocs?version=${version}&${query()}`, signal)
    } catch (error) {
      fill(renderedList)
      if (error instanceof ApiError && error.status === 404) {
        setText(renderedStatus, `There is no ${version} version${version === 'buffer' ? ': nothing is staged since the last commit' : ' yet'}. Choose another version.`)
        return
      }
      report(renderedStatus, error)
      return
    }
    const docs = splitDocuments(text)
    setText(renderedStatus, `${docs.length} documents rendered from the ${version} version${cleartext.checked ? ', secrets in cleartext' : ', secrets redacted'}.`)
    fill(renderedList, docs.map((doc) => {
      const facts = factsOf(doc)
      return h('details', {}, h('summary', {}, h('span', { class: 'schema' }, facts.schema || '(no schema)'), ' ', h('strong', {}, facts.name || '(no name)'),
        facts.layer ? h('span', { class: 'muted' }, ` layer ${facts.layer}`) : '', facts.storagePolicy === 'encrypted' ? h('span', { class: 'badge warn' }, 'encrypted') : ''),
      h('pre', { class: 'doc' }, doc))
    }))
  }

  async function redo () {
    if (shown !== null && pair !== null) await showDiff(shown)
    if (renderedList.childElementCount > 0 || renderedStatus.textContent !== '') await loadRendered()
  }

  loadCollections()
  loadBuffer()
  return { title: 'Documents' }
}
