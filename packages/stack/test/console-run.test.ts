// The console telling the truth (issue 37 item 6) in headless Chromium against the whole stack: a second file staged
// is staged as its own collection, not under the first file's name.
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
})
