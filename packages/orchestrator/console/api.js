// Every call the console makes to the orchestrator's API, and the sign-in token they carry. The token lives in
// sessionStorage (this tab, until it closes or the user signs out) and only ever travels in X-Auth-Token.
const API = '/api/v1.0'
const TOKEN_KEY = 'slipway.console.token'

export const session = {
  token: () => sessionStorage.getItem(TOKEN_KEY),
  signIn: (token) => { sessionStorage.setItem(TOKEN_KEY, token) },
  signOut: () => { sessionStorage.removeItem(TOKEN_KEY) }
}

// spec/orchestrator.md §1.4: the policy rule guarding each call, so that a 403 can say which permission is missing
// (the error body says only "Credentials do not permit access")
const RULES = [
  [/^GET \/actions$/, 'list_actions'],
  [/^GET \/actions\/[^/]+$/, 'get_action'],
  [/^GET \/actions\/[^/]+\/validations\/[^/]+$/, 'get_action_validation'],
  [/^GET \/actions\/[^/]+\/steps\/[^/]+$/, 'get_action_step'],
  [/^GET \/actions\/[^/]+\/steps\/[^/]+\/logs$/, 'get_action_step_logs'],
  [/^POST \/actions\/[^/]+\/control\/[^/]+$/, 'invoke_action_control'],
  [/^GET \/configdocs$/, 'get_configdocs_status'],
  [/^GET \/configdocs\/[^/]+$/, 'get_configdocs'],
  [/^GET \/renderedconfigdocs$/, 'get_renderedconfigdocs'],
  [/^GET \/site_statuses$/, 'get_site_statuses']
]

/** The rules a call needs, e.g. `['workflow_orchestrator:get_action']`; cleartext secrets need a second one. */
export function rulesOf (method, path) {
  const [pathname, query = ''] = path.split('?')
  const found = RULES.find(([pattern]) => pattern.test(`${method} ${pathname}`))
  if (found === undefined) return []
  const rule = `workflow_orchestrator:${found[1]}`
  return new URLSearchParams(query).get('cleartext-secrets') === 'true' ? [rule, `${rule}_cleartext`] : [rule]
}

/** A refused or failed call: the status, and the error body's message and reason (seed 000 §7.1). */
export class ApiError extends Error {
  constructor (status, message, reason, rules = []) {
    super(message)
    this.name = 'ApiError'
    this.status = status
    this.reason = reason
    this.rules = rules
  }

  /** One line for the page. */
  describe () {
    if (this.status === 403) {
      const because = this.reason && this.reason !== 'Credentials do not permit access' ? ` (${this.reason})` : ''
      if (this.rules.length === 1) return `Forbidden: your token lacks the permission ${this.rules[0]}${because}.`
      if (this.rules.length > 1) return `Forbidden: this needs the permissions ${this.rules.join(' and ')}; your token lacks at least one${because}.`
      return `Forbidden${because}.`
    }
    if (this.status === 0) return this.message
    return this.reason && this.reason !== this.message ? `${this.message}: ${this.reason}` : this.message
  }
}

let onUnauthenticated = () => {}
/** Called once a call answers 401: the token is gone or was never good, and sign-in must come back. */
export function whenUnauthenticated (handler) { onUnauthenticated = handler }

async function errorOf (response, method, path) {
  let body = {}
  try { body = JSON.parse(await response.text()) } catch { /* not an error body: the status says enough */ }
  const message = typeof body.message === 'string' ? body.message : `${response.status} ${response.statusText}`
  return new ApiError(response.status, message, typeof body.reason === 'string' ? body.reason : '', rulesOf(method, path))
}

/** Calls `path` (under /api/v1.0) with the token; resolves to the response, or throws an ApiError. */
async function call (method, path, signal) {
  const token = session.token()
  if (token === null) {
    onUnauthenticated()
    throw new ApiError(401, 'Not signed in', '')
  }
  let response
  try {
    response = await fetch(`${API}${path}`, { method, headers: { 'X-Auth-Token': token }, signal, cache: 'no-store', credentials: 'omit' })
  } catch (error) {
    if (error.name === 'AbortError') throw error
    throw new ApiError(0, 'The orchestrator did not answer (is it running?)', '')
  }
  if (response.ok) return response
  const error = await errorOf(response, method, path)
  if (response.status === 401) onUnauthenticated(error)
  if (response.status === 403 && error.rules.length > 1) error.rules = await refusedRule(path, token, error.rules, signal)
  throw error
}

/** Of a cleartext read's two rules, the one that refused: the same read without cleartext tells them apart. */
async function refusedRule (path, token, rules, signal) {
  try {
    const plain = await fetch(`${API}${path.replace('cleartext-secrets=true', 'cleartext-secrets=false')}`, { headers: { 'X-Auth-Token': token }, signal, cache: 'no-store', credentials: 'omit' })
    await plain.body?.cancel()
    if (plain.ok) return [rules[1]]
    if (plain.status === 403) return [rules[0]]
  } catch { /* no answer: both stay named */ }
  return rules
}

export const api = {
  json: async (path, signal) => await (await call('GET', path, signal)).json(),
  text: async (path, signal) => await (await call('GET', path, signal)).text(),
  post: async (path, signal) => { await call('POST', path, signal) }
}

/** A path segment, escaped. */
export const seg = (value) => encodeURIComponent(value)
