// What the orchestrator tells the console of its configuration (GET /console/settings.json, no token): read once
// per page, and again after a failed read.
let pending = null

/** `{ engine_ui_url }`: the engine UI's address, or null. A failed read answers null for each. */
export async function consoleSettings () {
  pending ??= fetch('/console/settings.json', { headers: { accept: 'application/json' } })
    .then(async (response) => {
      if (!response.ok) throw new Error(`settings answered ${response.status}`)
      return await response.json()
    })
    .catch(() => { pending = null; return { engine_ui_url: null } })
  return await pending
}
