// How the console reads the action list while it is open, without the DOM: a window of the newest actions (the
// orchestrator's `limit` extension; a site's whole history is not read every 3 s), asked for with the last answer's
// ETag, so that while nothing changed the orchestrator answers 304 and neither side makes or reads the list again.

/** How many of the newest actions the list shows at first, and how many more each "Show older" adds. */
export const LIST_WINDOW = 500

/** The list's path for a window of `limit` actions. */
export const listPath = (limit) => `/actions?limit=${limit}`

/**
 * A reader of one list that remembers the last answer: `read(path)` calls `fetchList(path, etag)`, which answers
 * `{ status: 304 }` or `{ status: 200, etag, text }`, and resolves to `{ changed, text }` — on a 304 the text kept.
 * A new path is read whole (its ETag is another's).
 */
export function listReader (fetchList) {
  let last = { path: null, etag: null, text: null }
  return async function read (path) {
    const etag = last.path === path ? last.etag : null
    const answer = await fetchList(path, etag)
    if (answer.status === 304 && etag !== null) return { changed: false, text: last.text }
    const changed = last.path !== path || answer.text !== last.text
    last = { path, etag: answer.etag ?? null, text: answer.text }
    return { changed, text: answer.text }
  }
}

/** Whether the window may hold fewer than all actions: the answer filled it. */
export const mayHaveOlder = (count, limit) => count >= limit
