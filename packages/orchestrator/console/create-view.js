// The New action view: one of the actions the orchestrator starts, a form for its parameters (target_nodes picked
// from the site's nodes), allow-intermediate-commits where it applies, and a confirmation saying what will happen.
// A created action opens; a refusal by a pre-run validation (409) shows the validations that failed.
import { ApiError, api } from './api.js'
import { ACTION_KINDS, createConfirmation, createPath, kindOf, parametersOf, problemOf } from './action-kinds.js'
import { badge, fill, h, setText } from './dom.js'
import { failuresOf, findingList, refusal } from './validations.js'

export function createView ({ root, query, signal, confirm }) {
  const first = kindOf(query.get('name')) ?? ACTION_KINDS[0]
  const select = h('select', { id: 'action-name', onchange: () => { show() } },
    ACTION_KINDS.map((k) => h('option', { value: k.name, selected: k === first }, k.name)))
  const does = h('p', { id: 'action-does', class: 'does' })
  const nodesStatus = h('div', { class: 'status', role: 'status' })
  const nodesList = h('div', { class: 'node-picks' })
  const nodes = h('fieldset', { id: 'target-nodes', class: 'field' }, h('legend', {}, 'target_nodes: the nodes it acts on'), nodesStatus, nodesList)
  const continueOnFail = h('input', { type: 'checkbox', id: 'continue-on-fail' })
  const release = h('input', { type: 'text', id: 'release', autocomplete: 'off', spellcheck: 'false', placeholder: 'every release' })
  const intermediate = h('input', { type: 'checkbox', id: 'allow-intermediate-commits' })
  const rows = {
    continueOnFail: h('label', { class: 'check-row' }, continueOnFail, h('span', {}, h('code', {}, 'continue-on-fail'), ': start even when the deployment configuration fails its checks')),
    release: h('label', { class: 'field' }, h('span', {}, h('code', {}, 'release'), ' (optional): the one Helm release to test'), release),
    intermediate: h('label', { class: 'check-row' }, intermediate, h('span', {}, h('code', {}, 'allow-intermediate-commits'), ': run even when an earlier commit was never used by a site action'))
  }
  const submit = h('button', { type: 'submit', id: 'create-submit' }, 'Create…')
  const status = h('p', { id: 'create-status', class: 'status', role: 'status', 'aria-live': 'polite' })
  const result = h('div', { id: 'create-result' })
  const form = h('form', { id: 'create-action', class: 'panel', onsubmit: (event) => { event.preventDefault(); create() } },
    h('label', { class: 'field' }, h('span', {}, 'Action'), select), does, nodes, rows.continueOnFail, rows.release, rows.intermediate,
    h('div', { class: 'form-buttons' }, submit))
  fill(root,
    h('p', { class: 'crumbs' }, h('a', { href: '#/actions' }, '← Actions')),
    h('div', { class: 'view-head' }, h('h1', { tabindex: '-1' }, 'New action')),
    form, status, result)
  let nodesRead = false

  function show () {
    const kind = kindOf(select.value)
    setText(does, kind.does)
    nodes.hidden = !kind.targets
    rows.continueOnFail.hidden = !kind.continueOnFail
    rows.release.hidden = !kind.release
    rows.intermediate.hidden = !kind.intermediate
    fill(result)
    setText(status, '')
    status.className = 'status'
    if (kind.targets && !nodesRead) readNodes()
  }

  /** The site's nodes, from the provisioner's statuses, each a checkbox with its status beside it. */
  async function readNodes () {
    nodesRead = true
    setText(nodesStatus, 'Reading the site\'s nodes…')
    let statuses
    try {
      statuses = await api.json('/site_statuses', signal)
    } catch (error) {
      // read again when the action is chosen again
      nodesRead = false
      fill(nodesStatus, refusal(error))
      return
    }
    const known = (statuses['nodes-provision-status'] ?? []).filter((n) => typeof n.hostname === 'string')
      .sort((a, b) => a.hostname.localeCompare(b.hostname, undefined, { numeric: true }))
    setText(nodesStatus, known.length === 0 ? 'The site has no nodes yet: they come from the committed documents.' : '')
    fill(nodesList, known.map((n) => h('label', { class: 'node-pick' },
      h('input', { type: 'checkbox', name: 'target', value: n.hostname }), h('span', { class: 'node-name' }, n.hostname), badge(n.status ?? 'unknown'))))
  }

  function say (text, isError) {
    setText(status, text)
    status.className = isError ? 'status error' : 'status'
  }

  async function create () {
    const kind = kindOf(select.value)
    const values = {
      targets: [...nodesList.querySelectorAll('input[name="target"]:checked')].map((input) => input.value),
      continueOnFail: continueOnFail.checked,
      release: release.value
    }
    fill(result)
    const problem = problemOf(kind, values)
    if (problem !== null) { say(problem, true); return }
    const parameters = parametersOf(kind, values)
    const allow = intermediate.checked
    if (!await confirm(createConfirmation(kind, parameters, allow))) { say('', false); return }
    submit.disabled = true
    say(`Creating ${kind.name}…`, false)
    try {
      const created = await api.send(createPath(kind, allow), { signal, body: JSON.stringify({ name: kind.name, parameters }), type: 'application/json', actionName: kind.name })
      // the new action opens: its view follows it from here
      location.hash = `#/actions/${created.id}`
    } catch (error) {
      submit.disabled = false
      if (error instanceof ApiError && error.status === 409 && Array.isArray(error.body?.validations)) { refused(kind, error); return }
      say('', false)
      fill(result, refusal(error))
    }
  }

  /** A refused action (409) is kept, Failed, with the pre-run validations that stopped it. */
  function refused (kind, error) {
    const { body } = error
    say(`${kind.name} did not start: ${body.validations.length === 1 ? 'a pre-run validation' : 'pre-run validations'} failed.`, true)
    const said = new Set(body.validations.map((v) => `${v.validation_name}: ${v.details}`))
    const more = failuresOf(body).filter((m) => !said.has(m.message))
    fill(result, h('section', { class: 'refused', 'aria-labelledby': 'refused-title' },
      h('h2', { id: 'refused-title' }, 'Failed pre-run validations'),
      h('ul', { class: 'findings' }, body.validations.map((v) => h('li', { class: 'finding error' },
        h('strong', { class: 'validation-name' }, v.validation_name), ': ', h('span', { class: 'finding-text' }, v.details)))),
      more.length === 0 ? '' : findingList(more),
      h('p', {}, 'The refused action is kept, Failed, with these validations: ', h('a', { href: `#/actions/${body.id}`, class: 'refused-action' }, `${body.name} ${body.id}`), '.')))
  }

  show()
  return { title: 'New action' }
}
