// The console telling the truth about an action's state (issue 37 item 6), in headless Chromium against the whole
// stack: the controls of a run from its first second (a queued run is stopped from the console, as the orchestrator
// allows), and what a stopped action shows (stopped by whom and when; its skipped steps and groups not shown as done,
// started or a success); and an action whose run the engine does not have after the engine changed under the same
// data folder (its folder replaced, as when switching between the stand-in and Airflow) says why, not "Pending, 0 of 0".
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { browserPage, chromiumPresent } from './helpers/browser.ts'
import { consolePage } from './helpers/console-page.ts'
import { runningStack } from './helpers/running-stack.ts'
import { startStack, type Stack } from '../src/stack.ts'

const ADMIN = 'console-truth-token'
const present = chromiumPresent('console browser tests (the truth of an action\'s state)')

describe.skipIf(!present)('the console says what an action\'s run is doing, in Chromium', () => {
  const running = runningStack({
    name: 'console-truth',
    adminToken: ADMIN,
    callTimeoutMs: 20_000,
    env: {
      // one run of a workflow at a time, and test_site's deployment_configuration runs until the test lets it go: a second test_site
      // stays queued for as long as the first one runs
      engine: { ENGINE_TASK_MS: '200', ENGINE_MAX_ACTIVE_RUNS: '1', ENGINE_HANG_TASKS: 'test_site/deployment_configuration' },
      orchestrator: {}
    }
  })
  const browser = browserPage({ name: 'console-truth' })
  const page = (): Page => browser.page
  const { go, signIn, answer } = consolePage(page)
  const { call, until } = running
  const lifecycle = async (): Promise<string> => (await page().locator('dl.summary .badge').first().textContent()) ?? ''
  const enabledControls = async (): Promise<string[]> => await page().locator('.controls button:not([disabled])').evaluateAll((buttons) =>
    buttons.map((b) => (b as unknown as { dataset: { verb: string } }).dataset.verb))
  const text = async (selector: string): Promise<string> => ((await page().textContent(selector)) ?? '').replace(/\s+/g, ' ').trim()
  let firstId = ''
  let queuedId = ''
  afterAll(async () => {
    // the held run is stopped (if a test failed before it did), so that nothing is left running when the stack stops
    if (firstId !== '') await call('POST', `/actions/${firstId}/control/stop`).catch(() => undefined)
  })

  async function create (name: string): Promise<string> {
    const created = await call('POST', '/actions', { json: { name } })
    expect(created.status, created.text).toBe(201)
    return String(created.json().id)
  }

  it('offers Stop for a run still queued, as the orchestrator accepts it, and the stop ends the action', async () => {
    await signIn(`${running.stack.urls.orchestrator}/console/`, ADMIN)
    firstId = await create('test_site')
    let seen = ''
    await until('the first test_site holding its workflow\'s one run slot', async () => {
      const steps = (await call('GET', `/actions/${firstId}`)).json().steps as Array<{ id: string, state: string | null }>
      seen = JSON.stringify(steps.map((s) => [s.id, s.state]))
      return steps.find((s) => s.id === 'deployment_configuration')?.state === 'running' ? true : undefined
    }, 20_000).catch((error: unknown) => { throw new Error(`${String(error)}: ${seen}`) })
    queuedId = await create('test_site')
    await go(`#/actions/${queuedId}`)
    await expect.poll(async () => await text('dl.summary div:nth-child(3) dd')).toBe('queued')
    expect(await lifecycle()).toBe('Pending')
    // stop is accepted for a queued run; pause is not (the run is not running yet)
    await expect.poll(enabledControls).toEqual(['stop'])
    expect((await call('POST', `/actions/${queuedId}/control/pause`)).status).toBe(409)
    await page().click('button[data-verb="stop"]')
    expect((await answer('ok')).title).toBe(`Stop test_site (${queuedId})?`)
    await expect.poll(lifecycle).toBe('Failed')
    expect(await enabledControls()).toEqual([])
    expect((await call('GET', `/actions/${queuedId}`)).json().command_audit).toEqual([
      expect.objectContaining({ command: 'invoke' }), expect.objectContaining({ command: 'stop', user: 'admin' })
    ])
  })

  const startCells = async (): Promise<string[]> => await page().locator('table.steps tr[data-step] td:nth-child(5)').allTextContents()
  const gridLine = async (group: string): Promise<string | null> => await page().locator(`.grid-line[data-group="${group}"]`).getAttribute('data-state')
  const groupHead = async (): Promise<string> => ((await page().locator('table.steps tr.group-head .badge').first().textContent()) ?? '')

  it('says who stopped an action and when; its skipped steps are neither done nor started, its skipped groups no success', async () => {
    // the run stopped while queued: no step ran, the engine skipped every one
    await go(`#/actions/${queuedId}`)
    await expect.poll(async () => await text('#state-note')).toMatch(
      /^Stopped by admin at \S.*\. Steps under way were failed and those not started skipped: 4 steps not run \(skipped\)\.$/)
    expect(await text('dl.summary div:nth-child(2) dd')).toBe('0 of 4 steps done, 4 skipped')
    expect(await lifecycle()).toBe('Failed')
    await expect.poll(startCells).toEqual(['—', '—', '—', '—'])
    expect(await gridLine('preflight')).toBe('skipped')
    expect(await groupHead()).toBe('skipped')
    await browser.screenshot('stopped-queued', true)

    // the run stopped while its third step ran: that step failed, the last one was skipped
    await go(`#/actions/${firstId}`)
    await expect.poll(lifecycle).toBe('Processing')
    await expect.poll(enabledControls).toEqual(['pause', 'stop'])
    await page().click('button[data-verb="stop"]')
    await answer('ok')
    await expect.poll(lifecycle).toBe('Failed')
    await expect.poll(async () => await text('#state-note')).toMatch(
      /^Stopped by admin at \S.*\. Steps under way were failed and those not started skipped: 1 step failed, 1 step not run \(skipped\)\.$/)
    expect(await text('dl.summary div:nth-child(2) dd')).toBe('2 of 4 steps done, 1 failed, 1 skipped')
    // the steps that ran keep their start; the skipped one has none
    await expect.poll(async () => (await startCells()).map((t) => t === '—')).toEqual([false, false, false, true])
    expect(await gridLine('preflight')).toBe('success')
    await browser.screenshot('stopped-running', true)
  })
})

describe.skipIf(!present)('an action whose run the engine lost, in Chromium', () => {
  const token = 'console-truth-switch-token'
  let dataDir = ''
  let stack: Stack | undefined
  const start = async (): Promise<Stack> => await startStack({
    dataDir,
    adminToken: token,
    ports: { orchestrator: 0, bootstrap: 0, store: 0, engine: 0, site: 0 },
    env: { engine: { ENGINE_TASK_MS: '50' } },
    output: () => {}
  })
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'slipway-console-truth-switch-'))
    stack = await start()
  }, 60_000)
  afterAll(async () => {
    await stack?.close()
    if (dataDir !== '') rmSync(dataDir, { recursive: true, force: true })
  })
  const browser = browserPage({ name: 'console-truth-switch' })
  const page = (): Page => browser.page
  const { go, signIn } = consolePage(page)
  const api = async (method: string, path: string, json?: unknown): Promise<{ status: number, body: Record<string, unknown> }> => {
    const response = await fetch(`${stack!.urls.orchestrator}/api/v1.0${path}`, {
      method,
      headers: { 'x-auth-token': token, ...(json === undefined ? {} : { 'content-type': 'application/json' }) },
      body: json === undefined ? undefined : JSON.stringify(json),
      signal: AbortSignal.timeout(20_000)
    })
    return { status: response.status, body: await response.json() as Record<string, unknown> }
  }

  it('says the engine has no run of a finished action, instead of "Pending, 0 of 0 steps"', async () => {
    const created = await api('POST', '/actions', { name: 'test_site' })
    expect(created.status).toBe(201)
    const id = String(created.body.id)
    // nothing is committed, so test_site fails at its deployment_configuration step: a finished action
    await expect.poll(async () => (await api('GET', `/actions/${id}`)).body.action_lifecycle, { timeout: 60_000 }).toBe('Failed')
    // the engine's data folder replaced, as when the stack is started on Airflow after the stand-in (or back)
    await stack!.close()
    stack = undefined
    rmSync(join(dataDir, 'engine'), { recursive: true, force: true })
    stack = await start()
    const read = (await api('GET', `/actions/${id}`)).body
    expect(read).toMatchObject({ dag_status: null, start_status: 'started', steps: [] })
    expect(read.start_reason).toMatch(new RegExp(`^The engine has no run ${id} of test_site: its runs are not in this engine's database`))

    await signIn(`${stack.urls.orchestrator}/console/`, token)
    await go(`#/actions/${id}`)
    const text = async (selector: string): Promise<string> => ((await page().textContent(selector)) ?? '').replace(/\s+/g, ' ').trim()
    await expect.poll(async () => await text('dl.summary .badge')).toBe('No run in the engine')
    expect(await text('dl.summary div:nth-child(2) dd')).toBe('not known: the engine has no run of this action')
    expect(await text('#state-note')).toBe(read.start_reason)
    await go('#/actions')
    await expect.poll(async () => await page().locator('table.actions tbody .count').allTextContents()).toEqual(['not known'])
    expect(await page().locator('table.actions tbody .badge').first().textContent()).toBe('No run in the engine')
    await browser.screenshot('run-missing', true)
  }, 180_000)
})
