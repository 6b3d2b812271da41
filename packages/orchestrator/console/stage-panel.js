// Staging one collection from the Documents view: YAML pasted or read from a file, a buffer mode, or the collection
// staged empty (deleted at commit); a confirmation saying what happens to the buffer, then the store's validation.
import { api } from './api.js'
import { fill, h, setText } from './dom.js'
import { BUFFER_MODES, collectionProblem, nameForFile, stageConfirmation, stagePath, stagedOf } from './staging.js'
import { findingList, messagesOf, refusal, verdictText } from './validations.js'
import { splitDocuments } from './yaml-docs.js'

/** `buffer()` reads committed against buffer afresh; `onStaged()` after a staging the store took. */
export function stagePanel ({ signal, confirm, buffer, onStaged }) {
  // whether the operator typed the name shown (since the last staging): a file read then keeps it, else names it
  let typed = false
  const name = h('input', { type: 'text', id: 'stage-collection', list: 'known-collections', autocomplete: 'off', spellcheck: 'false', autocapitalize: 'off', required: true, oninput: () => { typed = name.value.trim() !== '' } })
  const known = h('datalist', { id: 'known-collections' })
  const mode = h('select', { id: 'buffer-mode' }, BUFFER_MODES.map((m) => h('option', { value: m.mode }, m.label)))
  const empty = h('input', { type: 'checkbox', id: 'stage-empty', onchange: () => { text.disabled = empty.checked; file.disabled = empty.checked } })
  const file = h('input', { type: 'file', id: 'stage-file', accept: '.yaml,.yml,application/x-yaml,application/yaml,text/yaml,text/plain', onchange: () => { readFile() } })
  // text edited after a file was read is no longer that file's: the file's name goes
  const text = h('textarea', { id: 'stage-yaml', rows: 10, spellcheck: 'false', autocapitalize: 'off', 'aria-describedby': 'stage-yaml-hint', oninput: () => { file.value = '' } })
  const submit = h('button', { type: 'submit', id: 'stage-submit' }, 'Stage…')
  const status = h('p', { id: 'stage-status', class: 'status', role: 'status', 'aria-live': 'polite' })
  const result = h('div', { id: 'stage-result', class: 'result' })
  const section = h('section', { class: 'panel', 'aria-labelledby': 'stage-title' },
    h('h2', { id: 'stage-title' }, 'Stage a collection'),
    h('form', { id: 'stage-form', onsubmit: (event) => { event.preventDefault(); stage() } },
      h('label', { class: 'field' }, h('span', {}, 'Collection'), name, known),
      h('label', { class: 'field' }, h('span', {}, 'Buffer mode'), mode),
      h('label', { class: 'check-row' }, empty, h('span', {}, 'Stage it empty: the collection is deleted at the next commit')),
      h('label', { class: 'field' }, h('span', {}, 'YAML documents: upload a file'), file),
      h('label', { class: 'field' }, h('span', { id: 'stage-yaml-hint' }, 'or paste them (documents separated by ---)'), text),
      h('div', { class: 'form-buttons' }, submit)),
    status, result)

  function say (line, isError = false) {
    setText(status, line)
    status.className = isError ? 'status error' : 'status'
  }

  /** The collections known to either version, offered as names. */
  function showKnown (list) {
    fill(known, list.map((c) => h('option', { value: c.collection_name })))
  }

  async function readFile () {
    const chosen = file.files?.[0]
    if (chosen === undefined) return
    try {
      text.value = await chosen.text()
    } catch (error) {
      say(`The file could not be read: ${error.message}`, true)
      return
    }
    const kept = typed && name.value.trim() !== ''
    name.value = nameForFile({ current: name.value, typed, fileName: chosen.name })
    const count = `Read ${chosen.name}: ${splitDocuments(text.value).length} documents`
    if (name.value === '') say(`${count}; its name makes no collection name: name the collection.`, true)
    else say(kept ? `${count}, to be staged as ${name.value}, the name you typed.` : `${count}, to be staged as ${name.value}.`)
  }

  async function stage () {
    fill(result)
    const collection = name.value.trim()
    const problem = collectionProblem(collection)
    if (problem !== null) { say(problem, true); return }
    const isEmpty = empty.checked
    const documents = isEmpty ? 0 : splitDocuments(text.value).length
    if (!isEmpty && documents === 0) { say('Upload or paste YAML documents, or stage the collection empty.', true); return }
    let list
    try {
      list = await buffer()
    } catch (error) {
      say('')
      fill(result, refusal(error))
      return
    }
    const committed = list.some((c) => c.collection_name === collection && c.base_status === 'present')
    const bytes = new TextEncoder().encode(text.value).length
    const staged = stagedOf(list)
    const question = stageConfirmation({ collection, mode: mode.value, empty: isEmpty, documents, bytes, staged, committed })
    if (!await confirm(question)) { say(''); return }
    submit.disabled = true
    say(`Staging ${collection}…`)
    try {
      const body = await api.send(stagePath(collection, mode.value, isEmpty), isEmpty ? { signal } : { signal, body: text.value, type: 'application/x-yaml' })
      const messages = messagesOf(body)
      const failed = messages.some((m) => m.error)
      say(`Staged ${collection}${isEmpty ? ' empty' : ''} (${mode.value}): ${verdictText(body).toLowerCase()}.`, failed)
      fill(result, messages.length === 0 ? '' : findingList(messages))
      // the name typed has been used: the next file read names its own collection
      typed = false
      await onStaged()
    } catch (error) {
      say('')
      fill(result, refusal(error))
    } finally {
      submit.disabled = false
    }
  }

  return { section, showKnown }
}
