// The operator's console (issue 20) in headless Chromium against the whole stack, as `npm start` runs it: sign in,
// watch a running deploy_site reach Complete without a reload, read a step's log per try, pause and unpause a
// running action and see a refusal's message, diff a collection, see the site's nodes, sign out (changing the site
// from the console: console-operate.test.ts). Prints where the screenshots are, the bytes the action view costs and
// the time from sign-in to the first action list.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import type { Page, Route } from 'playwright-core'
import { browserPage, chromiumPresent } from './helpers/browser.ts'
import { consolePage } from './helpers/console-page.ts'
import { runningStack } from './helpers/running-stack.ts'

const SITE = resolve(import.meta.dirname, '../../../examples/site')
const ADMIN = 'console-admin-token'
const present = chromiumPresent('console browser tests')

/** The page's own globals as the tests read them inside page.evaluate (this package's types have no DOM). */
interface PageGlobals {
  location: { hash: string }
  sessionStorage: { length: number, setItem: (key: string, value: string) => void }
  performance: {
    measure: (name: string, start: string, end: string) => { duration: number }
    getEntriesByName: (name: string) => Array<{ startTime: number }>
  }
  document: { documentElement: { scrollWidth: number } }
  getComputedStyle: (element: unknown) => { fontFamily: string }
  PerformanceObserver: new (
    callback: (list: { getEntries: () => Array<{ value: number, hadRecentInput: boolean }> }) => void
  ) => { observe: (options: { type: string }) => void }
  shifts: number
  stayed?: boolean
}

describe.skipIf(!present)('the operator\'s console in Chromium', () => {
  // the admin may read documents but not their secrets in cleartext: a 403 to see worded
  const policyDir = present ? mkdtempSync(join(tmpdir(), 'slipway-console-policy-')) : ''
  if (present) writeFileSync(join(policyDir, 'policy.yaml'), '"workflow_orchestrator:get_configdocs_cleartext": "!"\n')
  afterAll(() => { if (policyDir !== '') rmSync(policyDir, { recursive: true, force: true }) })
  const running = runningStack({
    name: 'console',
    adminToken: ADMIN,
    callTimeoutMs: 20_000,
    env: {
      // steps of a few hundred milliseconds: a deploy runs for seconds, long enough to watch, and its last step runs
      // until the test lets it go (a busy machine may take longer to show the page than the steps take); its first
      // Armada step fails once (two tries to read), test_site's last step runs until it is stopped, and update_site
      // waits in the middle of its drydock_build group (paused there, the group stops growing)
      engine: {
        ENGINE_TASK_MS: '300',
        ENGINE_RETRY_DELAY_MS: '200',
        ENGINE_FAIL_TASKS: 'deploy_site/armada_build.armada_post_apply=1',
        ENGINE_HANG_TASKS: 'test_site/armada_test_releases,deploy_site/final_deployment_status,update_site/drydock_build.prepare_site'
      },
      orchestrator: { POLICY_FILE: join(policyDir, 'policy.yaml'), TAG_POLL_INTERVAL_MS: '200' }
    }
  })
  const browser = browserPage({ name: 'console' })
  const { call } = running
  const page = (): Page => browser.page
  const consoleUrl = (): string => `${running.stack.urls.orchestrator}/console/`
  const lifecycle = async (): Promise<string> => (await page().locator('dl.summary .badge').first().textContent()) ?? ''
  let deployId = ''
  let refusedId = ''

  async function create (name: string): Promise<string> {
    const created = await call('POST', '/actions', { json: { name } })
    expect(created.status, created.text).toBe(201)
    return String(created.json().id)
  }

  /** Moves the page to a view as a link would: a new hash, never a reload. */
  async function go (hash: string): Promise<void> {
    await page().evaluate((to) => { (globalThis as unknown as PageGlobals).location.hash = to }, hash)
  }

  const status = async (): Promise<string> => (await page().textContent('#view p.status')) ?? ''
  const enabledControls = async (): Promise<string[]> => await page().locator('.controls button:not([disabled])').evaluateAll((buttons) =>
    buttons.map((b) => (b as unknown as { dataset: { verb: string } }).dataset.verb))

  /**
   * Holds the page's reads of one action until released: `holding` resolves once a read waits, so that what the page
   * shows is known to be from before anything the test does next.
   */
  async function holdReads (actionId: string): Promise<{ holding: Promise<void>, release: () => Promise<void> }> {
    let letGo = (): void => {}
    const gate = new Promise<void>((resolve) => { letGo = resolve })
    let waiting = (): void => {}
    const holding = new Promise<void>((resolve) => { waiting = resolve })
    const url = `**/api/v1.0/actions/${actionId}`
    const inFlight = new Set<Promise<void>>()
    const handler = async (route: Route): Promise<void> => {
      const handled = (async () => {
        if (route.request().method() === 'GET') { waiting(); await gate }
        await route.continue()
      })()
      inFlight.add(handled)
      await handled.finally(() => { inFlight.delete(handled) })
    }
    await page().route(url, handler)
    // the held reads go on before the route is taken away (else they would be answered twice)
    return { holding, release: async () => { letGo(); await Promise.all([...inFlight]); await page().unroute(url, handler) } }
  }

  async function confirmWith (button: string, how: 'click' | 'keyboard' = 'click'): Promise<void> {
    await page().click(`button[data-verb="${button}"]`)
    await page().locator('#confirm[open]').waitFor()
    if (how === 'click') await page().click('#confirm-ok')
    else await page().keyboard.press('Tab').then(async () => { await page().keyboard.press('Enter') })
    await page().locator('#confirm[open]').waitFor({ state: 'detached' }).catch(() => {})
    await expect.poll(async () => await page().locator('#confirm').getAttribute('open')).toBe(null)
  }

  it('stages and commits the example site, then stages a change to one collection', async () => {
    // before anything is committed a deploy is refused by a pre-run validation, and kept with it (saved, answered 409)
    const refused = await call('POST', '/actions', { json: { name: 'deploy_site' } })
    expect(refused.status).toBe(409)
    refusedId = String(refused.json().id)
    expect((await call('POST', '/configdocs/global', { body: readFileSync(join(SITE, 'global.yaml'), 'utf8'), type: 'application/x-yaml' })).status).toBe(201)
    expect((await call('POST', '/configdocs/site?buffermode=append', { body: readFileSync(join(SITE, 'site.yaml'), 'utf8'), type: 'application/x-yaml' })).status).toBe(201)
    expect((await call('POST', '/commitconfigdocs')).status).toBe(200)
    const changed = readFileSync(join(SITE, 'site.yaml'), 'utf8').replace('10.0.0.53', '10.0.0.54')
    expect((await call('POST', '/configdocs/site', { body: changed, type: 'application/x-yaml' })).status).toBe(201)
  })

  it('serves the page with its CSP and asks for a token first; a token the orchestrator refuses is said so', async () => {
    const response = await page().goto(consoleUrl())
    expect(response?.headers()['content-security-policy']).toMatch(/^default-src 'self'/)
    await page().locator('#sign-in').waitFor()
    await browser.screenshot('sign-in')
    await page().fill('#token', 'not-a-token')
    await page().press('#token', 'Enter')
    await expect.poll(async () => await page().textContent('#sign-in-message')).toMatch(/did not accept the token/)
    expect(await page().getAttribute('#sign-in-message', 'class')).toBe('status error')
    expect(await page().evaluate(() => (globalThis as unknown as PageGlobals).sessionStorage.length)).toBe(0)
  })

  it('signs in with the admin token and lists the actions', async () => {
    await page().fill('#token', ADMIN)
    await page().click('#sign-in button[type=submit]')
    await page().locator('#view h1', { hasText: 'Actions' }).waitFor()
    await expect.poll(async () => await page().locator('table.actions tbody tr a').allTextContents()).toEqual(['deploy_site'])
    expect(page().url()).not.toContain(ADMIN)
  })

  it('shows a running deploy_site move to Complete by itself, without a reload and without layout shifts', async () => {
    deployId = await create('deploy_site')
    await go(`#/actions/${deployId}`)
    await expect.poll(lifecycle).toMatch(/^(Pending|Processing)$/)
    await page().locator('table.steps tbody tr[data-step]').nth(16).waitFor()
    await page().evaluate(() => {
      const w = globalThis as unknown as PageGlobals
      w.shifts = 0
      w.stayed = true
      new w.PerformanceObserver((list) => {
        for (const entry of list.getEntries()) if (!entry.hadRecentInput) w.shifts += entry.value
      }).observe({ type: 'layout-shift' })
    })
    let navigations = 0
    page().on('framenavigated', () => { navigations++ })
    // the page shows the deploy running; now its last step may finish
    await running.releaseHang('deploy_site', deployId, 'final_deployment_status')
    await expect.poll(lifecycle, { timeout: 60_000, interval: 250 }).toBe('Complete')
    expect(await page().evaluate(() => (globalThis as unknown as PageGlobals).stayed)).toBe(true)
    expect(navigations).toBe(0)
    expect(await page().evaluate(() => (globalThis as unknown as PageGlobals).shifts)).toBeLessThan(0.01)
    const states = await page().locator('table.steps tr[data-step] .badge').allTextContents()
    expect(states).toHaveLength(17)
    expect(states.every((s) => s === 'success')).toBe(true)
    expect(await page().locator('table.steps tr.group-head').count()).toBe(4)
    await expect.poll(async () => await page().locator('table.steps tr[data-step] td.num').allTextContents()).not.toContain('')
    // the retried step shows both tries on the timeline: the failed first one, then the second
    const retried = page().locator('tr[data-step="armada_build.armada_post_apply"] .track')
    await expect.poll(async () => await retried.locator('.bar.try-bar[data-try="1"]:not([hidden])').count()).toBe(1)
    expect(await retried.locator('.bar.try-bar').getAttribute('title')).toMatch(/^try 1: /)
    const lefts = await retried.locator('.bar').evaluateAll((bars) => bars.map((b) => parseFloat((b as unknown as { style: { left: string } }).style.left)))
    expect(lefts).toHaveLength(2)
    expect(lefts[0]).toBeLessThan(lefts[1] ?? 0)
    await browser.screenshot('action')
  })

  it('opens a step\'s log at its latest try, and an earlier try', async () => {
    await page().locator('button.step-open[data-step="armada_build.armada_post_apply"]').focus()
    await page().keyboard.press('Enter')
    await expect.poll(async () => await page().textContent('#log-title')).toBe('Log of armada_build.armada_post_apply')
    await expect.poll(async () => await page().textContent('pre.log')).toMatch(/Marking task as SUCCESS/)
    expect(await page().locator('button.try[aria-pressed="true"]').textContent()).toBe('Try 2 (latest)')
    await page().click('button.try[data-try="1"]')
    await expect.poll(async () => await page().textContent('pre.log')).toMatch(/Traceback \(most recent call last\)/)
    expect(await page().locator('pre.log').evaluate((el) => (globalThis as unknown as PageGlobals).getComputedStyle(el).fontFamily)).toMatch(/mono/i)
    await browser.screenshot('step-log', true)
  })

  it('offers only the controls that fit the state, asks before each, and shows a 409\'s message until it is stale', async () => {
    const testId = await create('test_site')
    await go(`#/actions/${testId}`)
    await expect.poll(lifecycle, { timeout: 30_000 }).toBe('Processing')
    await expect.poll(enabledControls).toEqual(['pause', 'stop'])
    // Escape (or Cancel) sends nothing
    await page().click('button[data-verb="stop"]')
    await page().locator('#confirm[open]').waitFor()
    await page().keyboard.press('Escape')
    await confirmWith('pause')
    await expect.poll(lifecycle).toBe('Paused')
    await expect.poll(status).toBe('Pause accepted.')
    await expect.poll(enabledControls).toEqual(['unpause', 'stop'])
    await confirmWith('unpause', 'keyboard')
    await expect.poll(lifecycle).toBe('Processing')
    await expect.poll(enabledControls).toEqual(['pause', 'stop'])
    // a note is old news after a few seconds
    await expect.poll(status, { timeout: 20_000 }).toBe('')

    // the page shows the action running while it was paused behind its back (its reads held): Pause is refused
    const held = await holdReads(testId)
    await held.holding
    expect((await call('POST', `/actions/${testId}/control/pause`)).status).toBe(202)
    await confirmWith('pause')
    await expect.poll(status).toBe('Unable to pause action: The action is already paused')
    expect(await page().getAttribute('#view p.status', 'class')).toContain('error')
    await browser.screenshot('action-409')
    // once the page reads the action again the refusal no longer holds, and goes
    await held.release()
    await expect.poll(lifecycle).toBe('Paused')
    await expect.poll(status).toBe('')
    await expect.poll(enabledControls).toEqual(['unpause', 'stop'])

    await confirmWith('stop')
    await expect.poll(lifecycle).toBe('Failed')
    await expect.poll(async () => await page().locator('table.audit tbody td:first-child').allTextContents()).toEqual(['invoke', 'pause', 'unpause', 'pause', 'stop'])
    expect(await enabledControls()).toEqual([])
    await expect.poll(status, { timeout: 20_000 }).toBe('')
  })

  it('shows the validations of a refused action, each opening its detail', async () => {
    await go(`#/actions/${refusedId}`)
    await expect.poll(lifecycle).toBe('Failed')
    const validation = page().locator('.validations details').first()
    await validation.locator('summary').click()
    await expect.poll(async () => await validation.locator('dl.drill dt').allTextContents()).toContain('validation_name')
    expect(await validation.locator('dl.drill').textContent()).toContain(refusedId)
  })

  it('lists the actions newest first, and filters them by lifecycle', async () => {
    await go('#/actions')
    await expect.poll(async () => await page().locator('table.actions tbody tr a').allTextContents()).toEqual(['test_site', 'deploy_site', 'deploy_site'])
    // the stopped test_site counts a step the stop failed, and one it skipped, apart, never as done (its steps' end
    // states depend on when it was stopped: one not yet started is skipped); the Failed actions' rows are red
    const counts = await page().locator('table.actions tbody .count').allTextContents()
    expect(counts.slice(1)).toEqual(['17 of 17', '0 of 0'])
    expect(counts[0]).toMatch(/^[0-3] of 4(, [1-4] failed)?(, [1-4] skipped)?$/)
    expect(await page().locator('table.actions tbody tr').evaluateAll((rows) => rows.map((r) => (r as unknown as { className: string }).className))).toEqual(['failed', '', 'failed'])
    const when = page().locator('table.actions tbody time').first()
    expect(await when.getAttribute('title')).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC$/)
    await browser.screenshot('actions')
    await page().selectOption('#lifecycle-filter', 'Failed')
    await expect.poll(async () => await page().locator('table.actions tbody tr a').allTextContents()).toEqual(['test_site', 'deploy_site'])
    expect(page().url()).toMatch(/#\/actions\?lifecycle=Failed$/)
  })

  it('marks a pause on the timeline: the paused group stops growing and says it is paused', async () => {
    const updateId = await create('update_site')
    await go(`#/actions/${updateId}`)
    const group = page().locator('table.steps tr.group-head', { hasText: 'drydock_build' })
    const groupState = async (): Promise<string> => (await group.locator('.badge').textContent()) ?? ''
    await expect.poll(groupState, { timeout: 30_000 }).toBe('running')
    // paused once its hanging step runs: the group's first steps poll Drydock's tasks and take a while of their own
    const prepareState = async (): Promise<string> => (await page().locator('tr[data-step="drydock_build.prepare_site"] .badge').textContent()) ?? ''
    await expect.poll(prepareState, { timeout: 30_000 }).toBe('running')
    await confirmWith('pause')
    await expect.poll(lifecycle).toBe('Paused')
    // the step running when the pause came finishes; the next one does not start
    await running.releaseHang('update_site', updateId, 'drydock_build.prepare_site')
    await expect.poll(prepareState, { timeout: 30_000 }).toBe('success')
    await expect.poll(groupState).toBe('paused')
    expect(await page().locator('tr[data-step="drydock_build.verify_nodes_exist"] .badge').textContent()).toBe('not started')
    const mark = group.locator('.pause-mark')
    expect(await mark.isVisible()).toBe(true)
    expect(await mark.getAttribute('title')).toMatch(/^paused at \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC$/)
    const place = async (): Promise<string[]> => await group.locator('.bar, .pause-mark').evaluateAll((els) =>
      els.map((el) => { const { style } = el as unknown as { style: { left: string, width: string } }; return `${style.left} ${style.width}` }))
    const before = await place()
    // two more reads of the action later, nothing has moved
    for (let i = 0; i < 2; i++) await page().waitForResponse((r) => r.url().endsWith(`/api/v1.0/actions/${updateId}`) && r.request().method() === 'GET')
    expect(await place()).toEqual(before)
    await browser.screenshot('action-paused')
    await confirmWith('stop')
    await expect.poll(lifecycle).toBe('Failed')
    await expect.poll(async () => await mark.isVisible()).toBe(false)
  })

  it('shows a collection\'s diff, buffer against committed, the rendered documents, and which permission cleartext needs', async () => {
    await go('#/documents')
    await expect.poll(async () => await page().locator('table.collections tbody th').allTextContents()).toEqual(['global', 'site'])
    expect(await page().locator('table.collections tbody tr').nth(1).textContent()).toMatch(/modified/)
    await page().click('button.diff-open[data-collection="site"]')
    await expect.poll(async () => await page().textContent('#diff-title')).toBe('Diff of site: committed → buffer')
    await expect.poll(async () => await page().locator('.diff .line.del .text').allTextContents()).toEqual(["-    - '10.0.0.53'"])
    expect(await page().locator('.diff .line.add .text').allTextContents()).toEqual(["+    - '10.0.0.54'"])
    expect(await page().locator('.diff .hunk').allTextContents()).toEqual(['@@ -15,7 +15,7 @@'])
    await page().click('text=List the rendered documents')
    await expect.poll(async () => await page().locator('.rendered details').count()).toBeGreaterThan(20)
    expect(await page().locator('.rendered summary', { hasText: 'CertificateKey/v1 kubelet-n0' }).first().textContent()).toMatch(/encrypted/)
    await browser.screenshot('documents', true)
    await page().check('#cleartext')
    await expect.poll(async () => await page().textContent('#diff-status')).toBe('Forbidden: your token lacks the permission workflow_orchestrator:get_configdocs_cleartext.')
  })

  it('shows each node\'s provisioning status and power state', async () => {
    await go('#/site')
    await expect.poll(async () => await page().locator('table.nodes tbody th').allTextContents()).toEqual(['n0', 'n1', 'n2', 'n3'])
    expect(await page().locator('table.nodes tbody .badge').allTextContents()).toEqual(['Deployed', 'on', 'Deployed', 'on', 'Deployed', 'on', 'Deployed', 'on'])
    await browser.screenshot('site')
  })

  it('fits a narrow window', async () => {
    await page().setViewportSize({ width: 390, height: 844 })
    await go(`#/actions/${deployId}`)
    await page().locator('table.steps tbody tr[data-step]').nth(16).waitFor()
    const scrollWidth = await page().evaluate(() => (globalThis as unknown as PageGlobals).document.documentElement.scrollWidth)
    expect(scrollWidth).toBeLessThanOrEqual(390)
    // step names wrap after a '_' or a '.', never inside a word; no state is clipped
    const { brokenWords, clippedBadges } = consolePage(page)
    expect(await brokenWords('table.steps .step-open, table.steps .group-name')).toEqual([])
    expect(await clippedBadges('table.steps')).toEqual([])
    await browser.screenshot('action-narrow', true)
    await page().setViewportSize({ width: 1280, height: 800 })
  })

  it('signs out, keeping the token out of every URL, and measures sign-in to the first action list', async () => {
    await page().click('#sign-out')
    await page().locator('#sign-in').waitFor()
    // a note, not an error
    expect(await page().textContent('#sign-in-message')).toBe('Signed out.')
    expect(await page().getAttribute('#sign-in-message', 'class')).toBe('status')
    expect(await page().evaluate(() => (globalThis as unknown as PageGlobals).sessionStorage.length)).toBe(0)
    expect(await page().locator('#view').isHidden()).toBe(true)
    await go('#/site')
    await page().locator('#sign-in').waitFor()
    await go('#/actions')
    await page().fill('#token', ADMIN)
    await page().click('#sign-in button[type=submit]')
    await page().locator('table.actions tbody tr').nth(2).waitFor()
    const ms = await page().evaluate(() => (globalThis as unknown as PageGlobals).performance.measure('sign-in to list', 'console:sign-in', 'console:actions-rendered').duration)
    console.log(`console: sign-in to the first rendered action list (3 actions) ${ms.toFixed(0)} ms`)
    expect(browser.sent.length).toBeGreaterThan(50)
    expect(browser.sent.filter((s) => s.url.includes(ADMIN))).toEqual([])
    expect(browser.sent.filter((s) => s.url.includes('/api/')).every((s) => s.headers['x-auth-token'] === ADMIN || s.headers['x-auth-token'] === 'not-a-token')).toBe(true)
    expect(browser.errors.filter((e) => !/status of 4\d\d/.test(e))).toEqual([])
  })

  it('measures the bytes of the action view, and a cold page\'s time to its first action list, from an empty cache', async () => {
    const cold = await browser.freshPage()
    await cold.page.addInitScript((token) => { (globalThis as unknown as PageGlobals).sessionStorage.setItem('slipway.console.token', token) }, ADMIN)
    await cold.page.goto(`${consoleUrl()}#/actions`)
    await cold.page.locator('table.actions tbody tr').nth(2).waitFor()
    const listMs = await cold.page.evaluate(() => (globalThis as unknown as PageGlobals).performance.getEntriesByName('console:actions-rendered')[0]?.startTime ?? -1)
    console.log(`console: a cold page (empty cache, token in the session) renders the action list ${listMs.toFixed(0)} ms after navigation starts`)
    await cold.page.context().close()

    const { page: fresh, sent } = await browser.freshPage()
    await fresh.addInitScript((token) => { (globalThis as unknown as PageGlobals).sessionStorage.setItem('slipway.console.token', token) }, ADMIN)
    await fresh.goto(`${consoleUrl()}#/actions/${deployId}`, { waitUntil: 'networkidle' })
    await fresh.locator('table.steps tbody tr[data-step]').nth(16).waitFor()
    await fresh.waitForLoadState('networkidle')
    const files = sent.filter((s) => s.url.includes('/console/'))
    const api = sent.filter((s) => s.url.includes('/api/'))
    const total = (list: typeof sent) => list.reduce((sum, s) => sum + s.bytes, 0)
    console.log(`console: the action view transferred ${total(sent)} bytes — page and modules ${total(files)} in ${files.length} files, API ${total(api)} in ${api.length} calls`)
    expect(files.length).toBeGreaterThanOrEqual(10)
    // the action, its 17 steps, the log of the retried step's first try (to place that try on the timeline), and the
    // run's dates (GET /workflows, once: the run has ended)
    expect(api.length).toBe(1 + 17 + 1 + 1)
    expect(api.filter((s) => s.url.includes('/api/v1.0/workflows?'))).toHaveLength(1)
    expect(files.every((s) => s.headers['x-auth-token'] === undefined)).toBe(true)
    await fresh.context().close()
  })
})
