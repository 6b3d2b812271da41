// Committing the buffer from the Documents view: a dry run first, showing the aggregated validations of every
// validating component; then the commit, after a confirmation of what it changes; past failed validations only with
// force, after a second confirmation naming each failure. A dry run speaks for the buffer revision it examined, and
// the commit names that revision: once the buffer changes — before the commit, or while its confirmations are open —
// the orchestrator refuses it (409), nothing is committed, and a new dry run is asked for.
import { ApiError, api } from './api.js'
import { fill, h, setText } from './dom.js'
import { bufferRevisionOf, bufferSignature, commitConfirmation, commitPath, forceConfirmation, stagedOf } from './staging.js'
import { failuresOf, findingList, messagesOf, refusal, verdictText } from './validations.js'

/** `buffer()` reads committed against buffer afresh; `onCommitted()` after a commit. */
export function commitPanel ({ signal, confirm, buffer, onCommitted }) {
  const summary = h('p', { id: 'buffer-summary', class: 'muted' })
  const dryRun = h('button', { type: 'button', id: 'dry-run', disabled: true, onclick: () => { check() } }, 'Dry run')
  const commitButton = h('button', { type: 'button', id: 'commit', disabled: true, onclick: () => { commit() } }, 'Commit…')
  const status = h('p', { id: 'commit-status', class: 'status', role: 'status', 'aria-live': 'polite' })
  const result = h('div', { id: 'commit-result', class: 'result' })
  const section = h('section', { class: 'panel', 'aria-labelledby': 'commit-title' },
    h('h2', { id: 'commit-title' }, 'Commit the buffer'),
    h('p', { class: 'muted' }, 'A dry run first: every validating component examines the buffer and nothing is committed. The commit then makes the buffer the version site actions run on.'),
    summary, h('div', { class: 'form-buttons' }, dryRun, commitButton), status, result)
  let list = []
  // the last dry run: the buffer it examined (its signature and revision) and what failed
  let checked = null

  function say (line, isError = false) {
    setText(status, line)
    status.className = isError ? 'status error' : 'status'
  }

  /** Shows the buffer as `fresh` (committed against buffer) has it; a dry run of another buffer no longer counts. */
  function update (fresh) {
    list = fresh
    const staged = stagedOf(list)
    setText(summary, staged.length === 0
      ? 'Nothing is staged: the buffer is empty.'
      : `The buffer changes ${staged.length === 1 ? '1 collection' : `${staged.length} collections`}: ${staged.map((c) => `${c.name} (${c.status})`).join(', ')}.`)
    if (checked !== null && checked.signature !== bufferSignature(list)) {
      checked = null
      fill(result)
      say(staged.length === 0 ? '' : 'The buffer changed since the dry run: run it again before committing.')
    }
    dryRun.disabled = staged.length === 0
    commitButton.disabled = checked === null
    const forcing = checked !== null && checked.failures.length > 0
    setText(commitButton, forcing ? 'Commit despite failures…' : 'Commit…')
    commitButton.classList.toggle('danger', forcing)
  }

  /** Reads the buffer again; false (and a shown error) when it cannot be read. */
  async function reread () {
    try {
      update(await buffer())
      return true
    } catch (error) {
      say('')
      fill(result, refusal(error))
      return false
    }
  }

  /**
   * After a 409: true (and said) when the buffer is no longer `revision` — another change was staged — so that what
   * was asked for speaks of a buffer that is gone.
   */
  async function bufferMoved (error, revision, what) {
    if (!(error instanceof ApiError) || error.status !== 409 || !await reread()) return false
    const now = bufferRevisionOf(list)
    if (now === revision) return false
    checked = null
    fill(result)
    say(`The buffer changed ${what}: ${now === null ? 'it is empty now' : `another change was staged (revision ${now}, not ${revision})`}. ` +
      `Nothing was committed.${now === null ? '' : ' Run the dry run again.'}`, true)
    update(list)
    return true
  }

  async function check () {
    if (!await reread()) return
    const signature = bufferSignature(list)
    const revision = bufferRevisionOf(list)
    if (revision === null) return
    dryRun.disabled = true
    say('Dry run: the components examine the buffer…')
    fill(result)
    try {
      const body = await api.send(commitPath({ revision, dryrun: true }), { signal })
      checked = { signature, revision, failures: failuresOf(body) }
      say(`Dry run: ${verdictText(body).toLowerCase()}. Nothing was committed.`, checked.failures.length > 0)
      const messages = messagesOf(body)
      fill(result, messages.length === 0 ? '' : findingList(messages))
    } catch (error) {
      if (await bufferMoved(error, revision, 'while the dry run was asked for')) return
      say('')
      fill(result, refusal(error))
    }
    update(list)
  }

  async function commit () {
    if (!await reread() || checked === null) return
    const { failures, signature, revision } = checked
    if (!await confirm(commitConfirmation(stagedOf(list), failures))) return
    if (failures.length > 0 && !await confirm(forceConfirmation(failures))) return
    commitButton.disabled = true
    dryRun.disabled = true
    say(failures.length > 0 ? 'Committing with force…' : 'Committing…')
    try {
      // the revision the dry run examined: a change staged while the questions were open is refused, not committed
      const body = await api.send(commitPath({ revision, force: failures.length > 0 }), { signal })
      checked = null
      say(`Committed: ${body?.message ?? 'done'}. The buffer is now the committed version.`)
      const messages = messagesOf(body)
      fill(result, messages.length === 0 ? '' : findingList(messages))
      await onCommitted()
    } catch (error) {
      if (error instanceof ApiError && error.status === 400 && error.body?.reason === 'Validation') {
        // the buffer failed where its dry run did not: nothing was committed, and only force goes on now
        checked = { signature, revision, failures: failuresOf(error.body) }
        say(`Not committed: ${verdictText(error.body).toLowerCase()}.`, true)
        fill(result, findingList(messagesOf(error.body)))
      } else if (await bufferMoved(error, revision, 'after the dry run')) {
        return
      } else {
        say('')
        fill(result, refusal(error))
      }
      update(list)
    }
  }

  return { section, update }
}
