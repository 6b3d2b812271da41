// Every call the console makes to the orchestrator's API, and the sign-in token they carry. The token lives in
// sessionStorage (this tab, until it closes or the user signs out) and only ever travels in X-Auth-Token.
const API = '/api/v1.0'
const TOKEN_KEY = 'slipway.console.token'

export const session = {
  token: () => sessionStorage.getItem(TOKEN_KEY),
  signIn: (token) => { sessionStorage.setItem(TOKEN_KEY, token) },
  signOut: () => { sessionStorage.removeItem(TOKEN_KEY) }
}

// the policy rule guarding each call (as the orchestrator names it), so that a 403 can say which permission is missing
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
  [/^GET \/site_statuses$/, 'get_site_statuses'],
  [/^GET \/workflows$/, 'list_workflows'],
  [/^POST \/actions$/, 'create_action'],
  [/^POST \/configdocs\/[^/]+$/, 'create_configdocs'],
  [/^POST \/commitconfigdocs$/, 'commit_configdocs']
]

/**
 * The rules a call needs, e.g. `['workflow_orchestrator:get_action']`. Cleartext secrets need a second one, and so
 * does creating an action: its own rule, `action_<name>`, after create_action (`actionName` is the body's name).
 */
export function rulesOf (method, path, actionName) {
  const [pathname, query = ''] = path.split('?')
  const found = RULES.find(([pattern]) => pattern.test(`${method} ${pathname}`))
  if (found === undefined) return []
  const rule = `workflow_orchestrator:${found[1]}`
  if (found[1] === 'create_action' && typeof actionName === 'string' && actionName !== '') return [rule, `workflow_orchestrator:action_${actionName}`]
  return new URLSearchParams(query).get('cleartext-secrets') === 'true' ? [rule, `${rule}_cleartext`] : [rule]
}

/**
 * A refused or failed call: the status, the error body's message and reason, and the body itself
 * (`body`): a refused action's validations, a commit's validation aggregate.
 */
export class ApiError extends Error {
  constructor (status, message, reason, rules = [], body = undefined) {
    super(message)
    this.name = 'ApiError'
    this.status = status
    this.reason = reason
    this.rules = rules
    this.body = body
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

  /** The body's own list (details.errorList or messageList), each message once, those the line says left out. */
  entries () {
    const details = this.body?.details ?? {}
    const listed = (value) => Array.isArray(value) ? value : []
    const list = [...listed(details.errorList), ...listed(details.messageList)]
    const seen = new Set([this.message, this.reason])
    const out = []
    for (const e of list) {
      if (typeof e?.message !== 'string' || e.message === '' || seen.has(e.message)) continue
      seen.add(e.message)
      out.push({ name: typeof e.name === 'string' ? e.name : null, error: e.error !== false, message: e.message })
    }
    return out
  }
}

let onUnauthenticated = () => {}
/** Called once a call answers 401: the token is gone or was never good, and sign-in must come back. */
export function whenUnauthenticated (handler) { onUnauthenticated = handler }

async function errorOf (response, rules) {
  let body
  try { body = JSON.parse(await response.text()) } catch { /* not an error body: the status says enough */ }
  const message = typeof body?.message === 'string' ? body.message : `${response.status} ${response.statusText}`
  return new ApiError(response.status, message, typeof body?.reason === 'string' ? body.reason : '', rules, body)
}

const send = async (method, path, token, { signal, body, type, etag }) => await fetch(`${API}${path}`, {
  method,
  headers: {
    'X-Auth-Token': token,
    ...(type === undefined ? {} : { 'Content-Type': type }),
    ...(etag === undefined || etag === null ? {} : { 'If-None-Match': etag })
  },
  body,
  signal,
  cache: 'no-store',
  credentials: 'omit'
})

/**
 * Calls `path` (under /api/v1.0) with the token; resolves to the response, or throws an ApiError. `body` and `type`
 * for a request body; `actionName` when creating an action (its own rule).
 */
async function call (method, path, { signal, body, type, actionName, etag } = {}) {
  const token = session.token()
  if (token === null) {
    onUnauthenticated()
    throw new ApiError(401, 'Not signed in', '')
  }
  let response
  try {
    response = await send(method, path, token, { signal, body, type, etag })
  } catch (error) {
    if (error.name === 'AbortError') throw error
    throw new ApiError(0, 'The orchestrator did not answer (is it running?)', '')
  }
  if (response.ok || (response.status === 304 && etag !== undefined && etag !== null)) return response
  const error = await errorOf(response, rulesOf(method, path, actionName))
  if (response.status === 401) onUnauthenticated(error)
  if (response.status === 403 && error.rules.length > 1) error.rules = await refusedRule(method, path, token, error.rules, signal)
  throw error
}

/**
 * Of a call's two rules, the one that refused, told apart by a second call that needs only the first rule and
 * changes nothing: the same read without cleartext; for a new action, a body without a name, which the first rule
 * lets through to be refused as invalid (400) — the rule is checked before the body is read — and creates nothing.
 */
export function probeOf (method, path) {
  if (method === 'GET') return { method, path: path.replace('cleartext-secrets=true', 'cleartext-secrets=false') }
  if (method === 'POST' && path.split('?')[0] === '/actions') return { method, path: '/actions', body: '{}', type: 'application/json' }
  return undefined
}

/** Which of `rules` the probe's status blames: its own 403 the first, its passing the first the second. */
export function blamed (status, rules) {
  if (status === 403) return [rules[0]]
  if ((status >= 200 && status < 300) || status === 400) return [rules[1]]
  return rules
}

async function refusedRule (method, path, token, rules, signal) {
  const probe = probeOf(method, path)
  if (probe === undefined) return rules
  try {
    const answer = await send(probe.method, probe.path, token, { signal, body: probe.body, type: probe.type })
    await answer.body?.cancel()
    return blamed(answer.status, rules)
  } catch { /* no answer: both stay named */ }
  return rules
}

/** A JSON answer, or null for an empty one. */
const jsonOf = async (response) => {
  const text = await response.text()
  return text === '' ? null : JSON.parse(text)
}

export const api = {
  json: async (path, signal) => await (await call('GET', path, { signal })).json(),
  text: async (path, signal) => await (await call('GET', path, { signal })).text(),
  /** A conditional GET: `{ status: 304 }` while the answer is still the one `etag` names, else `{ status, etag, text }`. */
  conditional: async (path, etag, signal) => {
    const response = await call('GET', path, { signal, etag })
    if (response.status === 304) return { status: 304 }
    return { status: response.status, etag: response.headers.get('ETag'), text: await response.text() }
  },
  post: async (path, signal) => { await call('POST', path, { signal }) },
  /** POST with a body; the JSON answer. `options`: signal, body, type, actionName. */
  send: async (path, options = {}) => await jsonOf(await call('POST', path, options))
}

/** A path segment, escaped. */
export const seg = (value) => encodeURIComponent(value)
