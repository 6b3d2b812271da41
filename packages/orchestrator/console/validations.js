// The validation answers of staging and committing (`details.messageList`, one entry per finding with
// the component's name, whether it is an error, and its message) in words and as a list, and the errors of a refused
// call with the list its body carries.
import { ApiError } from './api.js'
import { h } from './dom.js'

/** `[{ name, error, message }]` of a validation body; an entry without a message is left out. */
export function messagesOf (body) {
  const list = body?.details?.messageList
  if (!Array.isArray(list)) return []
  return list.filter((m) => typeof m?.message === 'string' && m.message !== '')
    .map((m) => ({ name: typeof m.name === 'string' && m.name !== '' ? m.name : null, error: m.error !== false, message: m.message }))
}

/** The findings that are errors. */
export const failuresOf = (body) => messagesOf(body).filter((m) => m.error)

const count = (n, one, many) => `${n} ${n === 1 ? one : many}`

/** `Validations succeeded`, `…, 1 note`, `2 validations failed (3 findings)`: what a validation body says. */
export function verdictText (body) {
  const messages = messagesOf(body)
  const failed = messages.filter((m) => m.error).length
  if (failed === 0) {
    const notes = messages.length
    return notes === 0 ? 'Validations succeeded' : `Validations succeeded, ${count(notes, 'note', 'notes')}`
  }
  return messages.length === failed ? `${count(failed, 'validation', 'validations')} failed` : `${count(failed, 'validation', 'validations')} failed (${count(messages.length, 'finding', 'findings')} in all)`
}

/** `Deckhand: Document … is invalid`: one finding in a line. */
export const findingText = (m) => m.name === null ? m.message : `${m.name}: ${m.message}`

/** A list of findings, each with its kind in words (error or note), the component, and the message. */
export function findingList (messages) {
  return h('ul', { class: 'findings' }, messages.map((m) => h('li', { class: m.error ? 'finding error' : 'finding' },
    h('span', { class: `badge ${m.error ? 'bad' : 'idle'}` }, m.error ? 'error' : 'note'), ' ',
    m.name === null ? '' : [h('strong', {}, m.name), ': '], h('span', { class: 'finding-text' }, m.message))))
}

/**
 * What a refused call shows: its line (the API's words, a 403's missing permission) and the list its body carries
 * (a buffer conflict's hint, a document's errors). Nothing for an aborted call or a 401 (sign-in comes back).
 */
export function refusal (error) {
  if (error?.name === 'AbortError') return null
  if (error instanceof ApiError && error.status === 401) return null
  const entries = error instanceof ApiError ? error.entries() : []
  // an entry that begins with the reason says it in full (a store's refusal with the lines it points at): the line
  // then gives the message alone, so that nothing is said twice
  const inFull = error instanceof ApiError && error.status !== 403 && error.reason !== '' && entries.some((e) => e.message.startsWith(error.reason))
  const text = error instanceof ApiError ? (inFull ? error.message : error.describe()) : `Unexpected: ${error?.message ?? error}`
  const line = h('p', { class: 'status error', role: 'alert' }, text)
  return entries.length === 0 ? line : [line, findingList(entries)]
}
