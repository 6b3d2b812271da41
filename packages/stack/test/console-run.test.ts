// The console telling the truth about a run (issue 37 item 6) in headless Chromium against the whole stack: a second
// file staged is staged as its own collection, not the first file's; the site's nodes with the labels the committed
// design gives them; a deploy_site's run with its start, end and duration, a link to the run in Airflow's UI, a grid of
// its task groups, a step search and state filter; and a pause accepted while the last step runs, which the engine
// leaves open until the action is unpaused — said so, rather than a Paused action with every step done for good.
import { readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { browserPage, chromiumPresent } from './helpers/browser.ts'
import { consolePage } from './helpers/console-page.ts'
import { runningStack } from './helpers/running-stack.ts'

const SITE = resolve(import.meta.dirname, '../../../examples/site')
const ADMIN = 'console-run-token'
// no engine UI answers there: the test reads the link, it never follows it
const ENGINE_UI = 'http://127.0.0.1:9/airflow'
const present = chromiumPresent('console browser tests (the run view)')

describe.skipIf(!present)('the run view and the staging form telling the truth, in Chromium', () => {
  const running = runningStack({
    name: 'console-run',
    adminToken: ADMIN,
    callTimeoutMs: 20_000,
    env: {
      // deploy_site's last step runs until the test lets it go: a pause is asked for while it runs
      engine: { ENGINE_TASK_MS: '200', ENGINE_HANG_TASKS: 'deploy_site/final_deployment_status' },
      orchestrator: { ENGINE_UI_URL: ENGINE_UI, TAG_POLL_INTERVAL_MS: '200' }
    }
  })
  const browser = browserPage({ name: 'console-run' })
  const page = (): Page => browser.page
  const { go, signIn, answer } = consolePage(page)
  const text = async (selector: string): Promise<string> => ((await page().textContent(selector)) ?? '').trim()
  const lifecycle = async (): Promise<string> => await text('dl.summary .badge')
  const visibleSteps = async (): Promise<string[]> => await page().locator('table.steps tr[data-step]:visible').evaluateAll((rows) =>
    rows.map((r) => (r as unknown as { dataset: { step: string } }).dataset.step))
  let deployId = ''

  it('stages a second file as its own collection, not under the first file\'s name', async () => {
    await signIn(`${running.stack.urls.orchestrator}/console/`, ADMIN)
    await go('#/documents')
    await page().setInputFiles('#stage-file', join(SITE, 'global.yaml'))
    await expect.poll(async () => await page().inputValue('#stage-collection')).toBe('global')
    await page().click('#stage-submit')
    expect((await answer('ok')).title).toBe('Stage global?')
    await expect.poll(async () => await text('#stage-status')).toBe('Staged global (rejectOnContents): validations succeeded.')

    // the second file names its own collection: under the first's name, replace would overwrite global with site.yaml
    await page().setInputFiles('#stage-file', join(SITE, 'site.yaml'))
    await expect.poll(async () => await page().inputValue('#stage-yaml')).toBe(readFileSync(join(SITE, 'site.yaml'), 'utf8'))
    expect(await page().inputValue('#stage-collection')).toBe('site')
    expect(await text('#stage-status')).toMatch(/^Read site\.yaml: \d+ documents, to be staged as site\.$/)
    await page().selectOption('#buffer-mode', 'append')
    await page().click('#stage-submit')
    expect((await answer('ok')).title).toBe('Stage site?')
    await expect.poll(async () => await text('#stage-status')).toBe('Staged site (append): validations succeeded.')
    const global = await running.call('GET', '/configdocs/global?version=buffer')
    expect(global.status).toBe(200)
    expect(global.text).not.toContain('drydock/BaremetalNode/v1')
    expect((await running.call('POST', '/commitconfigdocs')).status).toBe(200)
  })

  it('shows each node with the labels the committed design gives it', async () => {
    await go('#/site')
    await expect.poll(async () => await text('#labels-status')).toMatch(/^Labels as the committed design gives them/)
    const labelsOf = async (node: string): Promise<string[]> => await page().locator(`tr[data-node="${node}"] code.label`).allTextContents()
    await expect.poll(async () => await labelsOf('n0')).toEqual(['kubernetes-apiserver=enabled', 'kubernetes-etcd=enabled', 'node-role=control'])
    expect(await labelsOf('n2')).toEqual(['node-role=worker'])
    await browser.screenshot('site-labels')
  })

  it('shows the run\'s start, its time running, a link to it in Airflow, a grid of its task groups, and finds steps', async () => {
    const created = await running.call('POST', '/actions', { json: { name: 'deploy_site' } })
    expect(created.status, created.text).toBe(201)
    deployId = String(created.json().id)
    await go(`#/actions/${deployId}`)
    await expect.poll(async () => await page().locator('#run-started time').count(), { timeout: 30_000 }).toBe(1)
    expect(await text('#run-ended')).toBe('not yet')
    expect(await text('#run-duration')).toMatch(/^running for [\d.]+ s$/)
    expect(await page().getAttribute('#engine-link', 'href')).toBe(`${ENGINE_UI}/dags/deploy_site/runs/${deployId}`)
    expect(await page().isVisible('#engine-link')).toBe(true)

    // the grid: a line per task group and one for the workflow's own steps, a square per step
    await expect.poll(async () => await page().locator('#group-grid .grid-cell').count()).toBe(17)
    expect(await page().locator('#group-grid .grid-line').evaluateAll((lines) => lines.map((l) => (l as unknown as { dataset: { group: string } }).dataset.group)))
      .toEqual(['', 'preflight', '', 'validate_site_design', '', 'drydock_build', 'armada_build', ''])
    expect(await page().locator('#group-grid .grid-name').allTextContents()).toEqual(['action_xcom, dag_concurrency_check', 'preflight',
      'deployment_configuration, get_rendered_doc', 'validate_site_design', 'deployment_status', 'drydock_build', 'armada_build',
      'create_action_tag, final_deployment_status'])
    expect(await page().getAttribute('#group-grid .grid-cell[data-step="action_xcom"]', 'title')).toMatch(/^action_xcom: /)

    await page().fill('#step-search', 'ARMADA build')
    await expect.poll(visibleSteps).toEqual(['armada_build.armada_post_apply', 'armada_build.armada_get_releases'])
    expect(await text('#step-count')).toBe('2 of 17 steps shown')
    // a sub-workflow none of whose steps is shown goes with them
    expect(await page().isVisible('tbody[data-group="drydock_build"]')).toBe(false)
    await page().fill('#step-search', '')
    await page().selectOption('#step-state', 'done')
    await expect.poll(async () => (await visibleSteps()).length).toBeGreaterThan(0)
    expect(await page().locator('table.steps tr[data-step]:visible .badge').allTextContents()).toEqual(expect.arrayContaining(['success']))
    expect(new Set(await page().locator('table.steps tr[data-step]:visible .badge').allTextContents())).toEqual(new Set(['success']))
    await page().selectOption('#step-state', 'all')
    await expect.poll(async () => (await visibleSteps()).length).toBe(17)
    expect(await text('#step-count')).toBe('')
  })

  it('says what a pause accepted during the last step does: the run stays open, Paused, until it is unpaused, then ends', async () => {
    // the last step runs (held by the engine) once every other step has ended
    await expect.poll(async () => await page().getAttribute('#group-grid .grid-cell[data-step="final_deployment_status"]', 'data-state'), { timeout: 60_000 }).toBe('running')
    await expect.poll(async () => await page().locator('#group-grid .grid-cell[data-state="success"]').count(), { timeout: 60_000 }).toBe(16)
    expect(await page().isVisible('#state-note')).toBe(false)
    await page().click('button[data-verb="pause"]')
    expect((await answer('ok')).text).toBe('Nothing is left to start: the steps under way finish whether paused or not, and a pause then only ' +
      'keeps the run open (Paused) until the action is unpaused, which ends it.')
    await expect.poll(lifecycle).toBe('Paused')
    await expect.poll(async () => await text('#state-note')).toBe('Pause requested while the last step runs: it finishes, and nothing is left to start. ' +
      'The engine then keeps the run open, Paused, until the action is unpaused; unpause (or stop) ends it.')
    await browser.screenshot('paused-last-step')

    // the last step ends: every step is done, the engine still calls the run running, and the page says why
    await running.releaseHang('deploy_site', deployId, 'final_deployment_status')
    await expect.poll(async () => await text('#state-note'), { timeout: 30_000 }).toBe('Paused after the last step: every step has ended, but the engine ' +
      'does not close a paused workflow\'s run. It ends, Complete or Failed, once the action is unpaused.')
    expect(await lifecycle()).toBe('Paused')
    expect((await running.call('GET', `/actions/${deployId}`)).json().dag_status).toBe('running')
    expect(await text('#run-ended')).toBe('not yet')
    await page().click('button[data-verb="unpause"]')
    await answer('ok')
    await expect.poll(lifecycle, { timeout: 30_000 }).toBe('Complete')
    expect(await page().isVisible('#state-note')).toBe(false)
    await expect.poll(async () => await page().locator('#run-ended time').count()).toBe(1)
    expect(await text('#run-duration')).toMatch(/^[\d.]+ s$|^\d+ min \d\d s$/)
    await browser.screenshot('complete', true)
    expect(browser.errors.filter((e) => !/status of 4\d\d/.test(e))).toEqual([])
  })
})
