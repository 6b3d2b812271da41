// The console's entry: sign-in and sign-out, the hash routes of the views, the confirmation dialog and how
// errors are shown. A 401 from any call brings the sign-in back; nothing but the views' own API calls leaves the page.
import { ApiError, session, whenUnauthenticated } from './api.js'
import { fill, h, setText } from './dom.js'

const $ = (id) => document.getElementById(id)
// each view's module is loaded when the view is first shown: a page opened on one view fetches only what it uses
const ROUTES = [
  { pattern: /^\/actions\/new$/, load: async () => (await import('./create-view.js')).createView, nav: 'actions' },
  { pattern: /^\/actions\/([0-9A-Za-z]+)$/, load: async () => (await import('./action-view.js')).actionView, nav: 'actions', params: (m) => ({ id: m[1] }) },
  { pattern: /^\/actions$/, load: async () => (await import('./actions-view.js')).actionsView, nav: 'actions' },
  { pattern: /^\/documents$/, load: async () => (await import('./documents-view.js')).documentsView, nav: 'documents' },
  { pattern: /^\/site$/, load: async () => (await import('./site-view.js')).siteView, nav: 'site' }
]

let current = null

/** Shows an error in `el`: the API's own words, a 403's missing permission; nothing for an aborted call. */
function report (el, error, kind = 'error') {
  if (error?.name === 'AbortError') return
  if (error instanceof ApiError && error.status === 401) return
  el.className = 'status error'
  el.dataset.kind = kind
  setText(el, error instanceof ApiError ? error.describe() : `Unexpected: ${error?.message ?? error}`)
}

/**
 * Asks before anything that changes the site; resolves true only when the reader confirms (Escape and Cancel say
 * no). `items`: lines listed under the text (what is sent, the failures a force goes past).
 */
function confirm ({ title, text, items = [], confirmLabel, danger }) {
  const dialog = $('confirm')
  setText($('confirm-title'), title)
  setText($('confirm-text'), text)
  fill($('confirm-list'), items.map((item) => h('li', {}, item)))
  $('confirm-list').hidden = items.length === 0
  const ok = $('confirm-ok')
  setText(ok, confirmLabel)
  ok.classList.toggle('danger', danger === true)
  return new Promise((resolve) => {
    dialog.addEventListener('close', () => { resolve(dialog.returnValue === 'ok') }, { once: true })
    dialog.returnValue = ''
    dialog.showModal()
    // the safe choice has the focus: Enter alone never stops an action
    $('confirm-cancel').focus()
  })
}

async function route () {
  current?.abort()
  current = null
  if (session.token() === null) { showSignIn(''); return }
  const [path = '', search = ''] = location.hash.replace(/^#/, '').split('?')
  const match = ROUTES.map((r) => ({ r, m: r.pattern.exec(path) })).find((x) => x.m !== null)
  if (match === undefined) { location.replace('#/actions'); return }
  showApp()
  const controller = new AbortController()
  current = controller
  const root = $('view')
  let view
  try {
    view = await match.r.load()
  } catch (error) {
    if (current === controller) fill(root, h('p', { class: 'status error', role: 'alert' }, `This view could not be loaded (${error.message}); reload the page.`))
    return
  }
  // another route was taken while the module loaded
  if (controller.signal.aborted) return
  const { title } = view({
    root,
    params: match.r.params?.(match.m) ?? {},
    query: new URLSearchParams(search),
    signal: controller.signal,
    report,
    confirm
  })
  document.title = `${title} · Slipway console`
  for (const link of document.querySelectorAll('#nav a')) {
    if (link.dataset.view === match.r.nav) link.setAttribute('aria-current', 'page')
    else link.removeAttribute('aria-current')
  }
  // keyboard and screen-reader users land on the new view's heading
  root.querySelector('h1')?.focus({ preventScroll: true })
}

function showApp () {
  $('sign-in').hidden = true
  $('nav').hidden = false
  $('sign-out').hidden = false
  $('view').hidden = false
}

/** The sign-in form, with why it is back: an error (a refused token) in red, a plain note (signed out) not. */
function showSignIn (why, isError = false) {
  current?.abort()
  current = null
  $('view').replaceChildren()
  $('view').hidden = true
  $('nav').hidden = true
  $('sign-out').hidden = true
  $('sign-in').hidden = false
  const message = $('sign-in-message')
  setText(message, why)
  message.className = isError ? 'status error' : 'status'
  message.setAttribute('role', isError ? 'alert' : 'status')
  document.title = 'Sign in · Slipway console'
  $('token').focus()
}

$('sign-in').addEventListener('submit', (event) => {
  event.preventDefault()
  const token = $('token').value.trim()
  if (token === '') return
  $('token').value = ''
  session.signIn(token)
  performance.clearMarks('console:actions-rendered')
  performance.mark('console:sign-in')
  // a new hash routes by its hashchange event; the same hash is routed here
  if (!location.hash.startsWith('#/')) location.hash = '#/actions'
  else route()
})

$('sign-out').addEventListener('click', () => {
  session.signOut()
  showSignIn('Signed out.')
})

whenUnauthenticated((error) => {
  session.signOut()
  showSignIn(error === undefined ? '' : `The orchestrator did not accept the token (${error.describe()}). Sign in again.`, error !== undefined)
})

window.addEventListener('hashchange', route)
route()
