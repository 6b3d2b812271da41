// Which actions the list shows, without the DOM: a lifecycle, and a search by name, id or user.

/** The search's words, each of which an action must match (case aside) in its name, id or user. */
export const searchWords = (text) => String(text ?? '').toLowerCase().split(/\s+/).filter((w) => w !== '')

/** True when every word of `query` is part of the action's name, id or user. */
export function matchesSearch (action, query) {
  const words = searchWords(query)
  if (words.length === 0) return true
  const haystack = [action.name, action.id, action.user].filter((v) => typeof v === 'string').join(' ').toLowerCase()
  return words.every((w) => haystack.includes(w))
}

/** The list's address for a lifecycle and a search: `#/actions`, `#/actions?lifecycle=Failed&q=ops`. */
export function listHash (lifecycle, query) {
  const params = new URLSearchParams()
  if (lifecycle !== '') params.set('lifecycle', lifecycle)
  if (String(query ?? '').trim() !== '') params.set('q', query.trim())
  const text = params.toString()
  return text === '' ? '#/actions' : `#/actions?${text}`
}
