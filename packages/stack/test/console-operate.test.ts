// The console running a site (issue 26, part 3) in headless Chromium against the whole stack: a deploy_site refused
// before anything is committed (a 409 with its validation), staging the example site from a file and pasted, a buffer
// conflict, a dry run and the commit, the rendered documents of the committed version, deploy_site created and
// opened, a 403 naming the action's own rule, relabel_nodes on nodes picked from the site (its upstream_failed steps
// shown whole, on a narrow window too), a collection staged empty and committed only with force after a second
// confirmation naming the failures — refused while another operator's change staged meanwhile is unexamined — and
// signing out.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { browserPage, chromiumPresent } from './helpers/browser.ts'
import { consolePage } from './helpers/console-page.ts'
import { runningStack } from './helpers/running-stack.ts'

const SITE = resolve(import.meta.dirname, '../../../examples/site')
const ADMIN = 'console-operator-token'
const present = chromiumPresent('console browser tests (operating)')
const ULID = /^[0-9A-HJKMNP-TV-Z]{26}$/

describe.skipIf(!present)('running the site from the console in Chromium', () => {
  // the admin may do everything but start update_software: a 403 to see worded
  const policyDir = present ? mkdtempSync(join(tmpdir(), 'slipway-console-operate-policy-')) : ''
  if (present) writeFileSync(join(policyDir, 'policy.yaml'), '"workflow_orchestrator:action_update_software": "!"\n')
  afterAll(() => { if (policyDir !== '') rmSync(policyDir, { recursive: true, force: true }) })
  const running = runningStack({
    name: 'console-operate',
    adminToken: ADMIN,
    callTimeoutMs: 20_000,
    env: {
      // deploy_site runs until the test lets its last step go; relabel_nodes fails for good at get_rendered_doc,
      // so that every later step is upstream_failed
      engine: {
        ENGINE_TASK_MS: '200',
        ENGINE_RETRY_DELAY_MS: '100',
        ENGINE_HANG_TASKS: 'deploy_site/final_deployment_status',
        ENGINE_FAIL_TASKS: 'relabel_nodes/get_rendered_doc'
      },
      orchestrator: { POLICY_FILE: join(policyDir, 'policy.yaml'), TAG_POLL_INTERVAL_MS: '200' }
    }
  })
  const browser = browserPage({ name: 'console-operate' })
  const page = (): Page => browser.page
  const { go, signIn, answer, clippedBadges, brokenWords, pageWidth } = consolePage(page)
  const lifecycle = async (): Promise<string> => (await page().locator('dl.summary .badge').first().textContent()) ?? ''
  const openedId = (): string => /#\/actions\/([0-9A-Z]+)$/.exec(page().url())?.[1] ?? ''
  const collections = async (): Promise<string[]> => await page().locator('table.collections tbody tr').evaluateAll((rows) =>
    rows.map((r) => (r as unknown as { innerText: string }).innerText.replace(/\s+/g, ' ').trim()))
  let deployId = ''
  let relabelId = ''

  /** Chooses an action on the New action view and asks for it, answering the confirmation with `choice`. */
  async function createAction (name: string, pick: () => Promise<void> = async () => {}) {
    // a fresh form: the same hash again would keep the last one
    await go('#/actions')
    await go(`#/actions/new?name=${name}`)
    await expect.poll(async () => await page().inputValue('#action-name')).toBe(name)
    await pick()
    await page().click('#create-submit')
    return await answer('ok')
  }

  it('signs in; New action offers every action the orchestrator starts', async () => {
    await signIn(`${running.stack.urls.orchestrator}/console/`, ADMIN)
    await page().click('#new-action')
    await page().locator('#view h1', { hasText: 'New action' }).waitFor()
    expect(await page().locator('#action-name option').allTextContents())
      .toEqual(['deploy_site', 'update_site', 'update_software', 'redeploy_server', 'relabel_nodes', 'test_site'])
    expect(await page().isVisible('#allow-intermediate-commits')).toBe(true)
    expect(await page().isVisible('#target-nodes')).toBe(false)
    await browser.screenshot('create')
  })

  it('shows a 409\'s failed pre-run validation: deploy_site before anything is committed; the refused action is kept', async () => {
    const asked = await createAction('deploy_site')
    expect(asked.title).toBe('Create deploy_site?')
    expect(asked.text).toMatch(/^Deploys the whole site .* if a check fails, nothing starts and you see why\.$/)
    expect(asked.items).toEqual(['No parameters.'])
    await expect.poll(async () => await page().textContent('#create-status')).toBe('deploy_site did not start: a pre-run validation failed.')
    expect(await page().getAttribute('#create-status', 'class')).toContain('error')
    expect(await page().locator('.refused li').allTextContents())
      .toEqual(['No committed configdocs: Unable to locate a committed revision in the document store; commit configuration documents first.'])
    expect(page().url()).toMatch(/#\/actions\/new\?name=deploy_site$/)
    await browser.screenshot('create-409')
    await page().click('a.refused-action')
    await expect.poll(lifecycle).toBe('Failed')
    expect(openedId()).toMatch(ULID)
  })

  it('stages a collection from a file and one pasted, each with the store\'s validation; a buffer conflict says why', async () => {
    await go('#/documents')
    await expect.poll(async () => await page().textContent('#buffer-summary')).toBe('Nothing is staged: the buffer is empty.')
    expect(await page().isDisabled('#dry-run')).toBe(true)
    await page().setInputFiles('#stage-file', join(SITE, 'global.yaml'))
    await expect.poll(async () => await page().inputValue('#stage-collection')).toBe('global')
    expect(await page().inputValue('#stage-yaml')).toBe(readFileSync(join(SITE, 'global.yaml'), 'utf8'))
    await page().click('#stage-submit')
    const first = await answer('ok')
    expect(first.title).toBe('Stage global?')
    expect(first.text).toMatch(/^\d+ documents \([\d.]+ KiB\) are staged as the collection global; the store checks them now\. The buffer is empty now\. /)
    expect(first.items).toEqual(['buffermode: rejectOnContents'])
    await expect.poll(async () => await page().textContent('#stage-status')).toBe('Staged global (rejectOnContents): validations succeeded.')
    await expect.poll(collections).toEqual([expect.stringMatching(/^global not present .* created .*Diff$/)])

    // pasted, into a buffer that holds something: rejectOnContents is refused (409) with the orchestrator's hint
    await page().fill('#stage-collection', 'site')
    await page().fill('#stage-yaml', readFileSync(join(SITE, 'site.yaml'), 'utf8'))
    await page().click('#stage-submit')
    expect((await answer('ok')).text).toContain('The buffer holds global (created), so rejectOnContents is refused; append stages beside it, replace instead of it.')
    await expect.poll(async () => await page().textContent('#stage-result p.error')).toBe('Invalid collection specified for buffer: Buffermode : rejectOnContents')
    expect(await page().textContent('#stage-result .findings')).toContain('Another buffermode (append or replace) may do what you want.')
    // what the store says of a broken document is shown as text, whatever it holds
    await page().fill('#stage-collection', 'broken')
    await page().fill('#stage-yaml', 'schema: x\nmetadata: {name: [<img src=x id=injected>\n')
    await page().selectOption('#buffer-mode', 'append')
    await page().click('#stage-submit')
    await answer('ok')
    await expect.poll(async () => await page().textContent('#stage-result p.error')).toBe('Document(s) invalid syntax or otherwise unsuitable')
    expect(await page().textContent('#stage-result .findings')).toMatch(/^error The request body must be properly formatted YAML\. [^]*<img src=x id=injected>/)
    expect(await page().locator('#injected').count()).toBe(0)
    await page().fill('#stage-collection', 'site')
    await page().fill('#stage-yaml', readFileSync(join(SITE, 'site.yaml'), 'utf8'))
    await page().click('#stage-submit')
    expect((await answer('ok')).text).toContain('It is added beside what is staged now: global (created).')
    await expect.poll(async () => await page().textContent('#stage-status')).toBe('Staged site (append): validations succeeded.')
    await expect.poll(collections).toEqual([expect.stringMatching(/^global .* created /), expect.stringMatching(/^site .* created /)])
    await browser.screenshot('staged', true)
  })

  it('commits after a dry run showing the aggregated validations; the rendered documents are then the committed ones', async () => {
    await expect.poll(async () => await page().textContent('#buffer-summary')).toBe('The buffer changes 2 collections: global (created), site (created).')
    expect(await page().isDisabled('#commit')).toBe(true)
    await page().click('#dry-run')
    await expect.poll(async () => await page().textContent('#commit-status')).toMatch(/^Dry run: validations succeeded(, \d+ notes?)?\. Nothing was committed\.$/)
    expect(await running.call('GET', '/configdocs/global?version=committed').then((r) => r.status)).toBe(404)
    await page().click('#commit')
    const asked = await answer('ok')
    expect(asked).toEqual({
      title: 'Commit the buffer?',
      text: 'The buffer becomes the committed version and is emptied; the next site action runs on it.',
      items: ['global: created', 'site: created']
    })
    await expect.poll(async () => await page().textContent('#commit-status')).toBe('Committed: Validations succeeded. The buffer is now the committed version.')
    await expect.poll(async () => await page().textContent('#buffer-summary')).toBe('Nothing is staged: the buffer is empty.')
    expect((await running.call('GET', '/configdocs/global?version=committed')).status).toBe(200)
    // the buffer is empty now: the rendered documents default to the committed version, which answers
    expect(await page().inputValue('#rendered-version')).toBe('committed')
    await page().click('#rendered-open')
    await expect.poll(async () => await page().textContent('#rendered-status')).toMatch(/^\d+ documents rendered from the committed version, secrets redacted\.$/)
    expect(await page().locator('.rendered details').count()).toBeGreaterThan(20)
  })

  it('creates deploy_site: the confirmation says what will happen, and the new action opens', async () => {
    const asked = await createAction('deploy_site', async () => { await page().check('#allow-intermediate-commits') })
    expect(asked.items).toEqual(['allow-intermediate-commits: true'])
    expect(asked.text).toContain('(commits no site action has used are allowed)')
    await expect.poll(openedId).toMatch(ULID)
    deployId = openedId()
    await expect.poll(async () => await page().textContent('#view h1')).toBe('deploy_site')
    await expect.poll(lifecycle).toMatch(/^(Pending|Processing)$/)
    const created = (await running.call('GET', `/actions/${deployId}`)).json()
    expect(created.user).toBe('admin')
    expect(created.parameters).toEqual({})
  })

  it('names the action\'s own rule in a 403, and the site action running in a 409', async () => {
    await createAction('update_software')
    await expect.poll(async () => await page().textContent('#create-result p.error')).toBe('Forbidden: your token lacks the permission workflow_orchestrator:action_update_software.')
    await createAction('relabel_nodes', async () => { await page().locator('#target-nodes input[value="n1"]').check() })
    await expect.poll(async () => await page().textContent('#create-status')).toBe('relabel_nodes did not start: a pre-run validation failed.')
    expect(await page().textContent('.refused li')).toMatch(new RegExp(`^Another site action is in progress: Workflow run deploy_site/${deployId} is running`))
    await running.releaseHang('deploy_site', deployId, 'final_deployment_status')
    await running.until('deploy_site Complete', async () => (await running.call('GET', `/actions/${deployId}`)).json().action_lifecycle === 'Complete' ? true : undefined)
  })

  it('relabels nodes picked from the site: the action opens with them, its upstream_failed steps shown whole, on a narrow window too', async () => {
    await go('#/actions')
    await go('#/actions/new?name=relabel_nodes')
    await expect.poll(async () => await page().locator('#target-nodes input').evaluateAll((inputs) => inputs.map((i) => (i as unknown as { value: string }).value))).toEqual(['n0', 'n1', 'n2', 'n3'])
    await page().click('#create-submit')
    await expect.poll(async () => await page().textContent('#create-status')).toBe('Choose at least one node: relabel_nodes acts on the nodes you choose.')
    expect(await page().locator('#confirm').getAttribute('open')).toBe(null)
    const asked = await createAction('relabel_nodes', async () => {
      await page().locator('#target-nodes input[value="n1"]').check()
      await page().locator('#target-nodes input[value="n3"]').check()
    })
    expect(asked.items).toEqual(['target_nodes: n1, n3'])
    expect(asked.text).toMatch(/^Sets the Kubernetes labels of the chosen nodes .* Nodes: n1, n3\. /)
    await expect.poll(openedId).toMatch(ULID)
    const id = openedId()
    relabelId = id
    expect((await running.call('GET', `/actions/${id}`)).json().parameters).toEqual({ target_nodes: ['n1', 'n3'] })
    await expect.poll(async () => await page().textContent('dl.summary dd.parameters')).toBe('target_nodes: n1, n3')
    await expect.poll(lifecycle, { timeout: 60_000, interval: 250 }).toBe('Failed')
    // in the operator's words, the engine's in the title
    const notRun = page().locator('table.steps tr[data-step] .badge[data-state="upstream_failed"]')
    await expect.poll(async () => await notRun.count()).toBeGreaterThan(3)
    expect(await notRun.first().textContent()).toBe('not run: an earlier step failed')
    expect(await notRun.first().getAttribute('title')).toBe('the engine says: upstream_failed')
    expect(await clippedBadges('table.steps')).toEqual([])
    await browser.screenshot('relabel-failed')
    await page().setViewportSize({ width: 390, height: 844 })
    try {
      await expect.poll(async () => await clippedBadges('table.steps')).toEqual([])
      expect(await brokenWords('table.steps .step-open, table.steps .group-name')).toEqual([])
      expect(await pageWidth()).toBeLessThanOrEqual(390)
      await browser.screenshot('relabel-narrow', true)
    } finally {
      await page().setViewportSize({ width: 1280, height: 800 })
    }
  })

  it('reads a failed step\'s log: its error lines highlighted, long lines wrapped on request, the try downloaded', async () => {
    await go(`#/actions/${relabelId}`)
    await page().click('button.step-open[data-step="get_rendered_doc"]')
    await expect.poll(async () => await page().textContent('#log-title')).toBe('Log of get_rendered_doc')
    const errorLines = page().locator('pre.log .error-line')
    await expect.poll(async () => await errorLines.count()).toBeGreaterThan(0)
    expect((await errorLines.allTextContents()).join('')).toMatch(/Traceback \(most recent call last\)/)
    // lines that are not errors are not marked
    expect((await errorLines.allTextContents()).join('')).not.toMatch(/\] INFO - /)
    expect(await page().textContent('#log-errors')).toMatch(/^\d+ error lines? highlighted$/)
    const whiteSpace = async (): Promise<string> => await page().locator('pre.log').evaluate((el) =>
      (globalThis as unknown as { getComputedStyle: (e: unknown) => { whiteSpace: string } }).getComputedStyle(el).whiteSpace)
    expect(await whiteSpace()).toBe('pre')
    await page().check('#log-wrap')
    expect(await whiteSpace()).toBe('pre-wrap')
    await browser.screenshot('log-wrapped', true)
    await page().uncheck('#log-wrap')
    expect(await whiteSpace()).toBe('pre')
    const tries = await page().locator('button.try').count()
    const [download] = await Promise.all([page().waitForEvent('download'), page().click('#log-download')])
    expect(download.suggestedFilename()).toBe(`${relabelId}-get_rendered_doc-try${tries}.log`)
    const saved = readFileSync(await download.path(), 'utf8')
    const served = await running.call('GET', `/actions/${relabelId}/steps/get_rendered_doc/logs?try=${tries}`)
    expect(served.status).toBe(200)
    expect(saved).toBe(served.text)
    expect(saved).toMatch(/Traceback/)
  })

  it('lists an action created elsewhere within a poll (3 s), and searches the list by name, id or user', async () => {
    await go('#/actions')
    const names = async (): Promise<string[]> => await page().locator('table.actions tbody tr a').allTextContents()
    await expect.poll(names).toContain('relabel_nodes')
    const created = await running.call('POST', '/actions', { json: { name: 'test_site' } })
    expect(created.status, created.text).toBe(201)
    const id = String(created.json().id)
    const since = Date.now()
    // one poll (3 s) and a read: well within 6 s on a busy machine
    await expect.poll(async () => await page().locator(`table.actions tbody a[href="#/actions/${id}"]`).count(), { timeout: 6_000, interval: 100 }).toBe(1)
    console.log(`console: an action created through the API showed on the open list after ${Date.now() - since} ms`)
    expect((await names())[0]).toBe('test_site')
    const all = (await names()).length
    const listed = (await running.call('GET', '/actions')).json() as unknown as Array<{ name: string }>
    const named = (name: string): string[] => listed.filter((a) => a.name === name).map((a) => a.name)
    expect(listed).toHaveLength(all)

    await page().fill('#action-search', 'relabel')
    await expect.poll(names).toEqual(named('relabel_nodes'))
    expect(named('relabel_nodes').length).toBeGreaterThan(0)
    expect(page().url()).toMatch(/#\/actions\?q=relabel$/)
    await page().fill('#action-search', id.slice(-10).toLowerCase())
    await expect.poll(names).toEqual(['test_site'])
    await page().fill('#action-search', 'ADMIN')
    await expect.poll(async () => (await names()).length).toBe(all)
    await page().fill('#action-search', 'admin deploy')
    await expect.poll(names).toEqual(named('deploy_site'))
    await page().fill('#action-search', '<b>nobody</b>')
    await expect.poll(names).toEqual([])
    expect(await page().textContent('.empty')).toBe('No actions match “<b>nobody</b>”.')
    await browser.screenshot('actions-search')
    // the search stays with the list as it is read again, and in the address
    await page().reload()
    await page().locator('#view h1', { hasText: 'Actions' }).waitFor()
    expect(await page().inputValue('#action-search')).toBe('<b>nobody</b>')
    await expect.poll(async () => await page().textContent('.empty')).toBe('No actions match “<b>nobody</b>”.')
    await page().fill('#action-search', '')
    await expect.poll(async () => (await names()).length).toBe(all)
  })

  it('stages a collection empty (deleted at commit), and commits it past failed validations only after a second confirmation naming them', async () => {
    await go('#/documents')
    await page().fill('#stage-collection', 'global')
    await page().check('#stage-empty')
    expect(await page().isDisabled('#stage-yaml')).toBe(true)
    await page().selectOption('#buffer-mode', 'rejectOnContents')
    await page().click('#stage-submit')
    const asked = await answer('ok')
    expect(asked.title).toBe('Stage global empty?')
    expect(asked.text).toMatch(/^global is staged empty: at the next commit the collection is deleted, with every document it holds\. /)
    expect(asked.items).toEqual(['buffermode: rejectOnContents', 'empty-collection: true'])
    await expect.poll(async () => await page().textContent('#stage-status')).toMatch(/^Staged global empty \(rejectOnContents\): /)
    await expect.poll(collections).toEqual([expect.stringMatching(/^global present .* deleted /), expect.stringMatching(/^site present .* unmodified /)])
    expect((await running.call('GET', '/configdocs/global?version=buffer')).text).toBe('')

    await page().click('#dry-run')
    await expect.poll(async () => await page().textContent('#commit-status')).toMatch(/^Dry run: \d+ validations? failed.*\. Nothing was committed\.$/)
    // each failure as the dry run lists it: its component, then its message
    const failures = await page().locator('#commit-result li.error').evaluateAll((items) => items.map((li) => {
      const item = li as unknown as { querySelector: (s: string) => { textContent: string } | null }
      return `${item.querySelector('strong')?.textContent ?? ''}: ${item.querySelector('.finding-text')?.textContent ?? ''}`
    }))
    expect(failures.length).toBeGreaterThan(0)
    expect(await page().textContent('#commit')).toBe('Commit despite failures…')
    await browser.screenshot('dry-run-failed', true)

    // the second question names each failure; saying no to it commits nothing
    await page().click('#commit')
    const go1 = await answer('ok', true)
    expect(go1.title).toBe('Commit the buffer despite failed validations?')
    expect(go1.items).toEqual(['global: deleted, its documents go'])
    await browser.screenshot('force')
    const force = await answer('cancel')
    expect(force.title).toBe(`Force the commit past ${failures.length} failed ${failures.length === 1 ? 'validation' : 'validations'}?`)
    expect(force.items).toEqual(failures)
    expect((await running.call('GET', '/configdocs/global?version=committed')).status).toBe(200)

    // another operator stages the deletion of site while the force question is open: the commit names the buffer
    // revision the dry run examined, so it is refused and nothing is committed
    await page().click('#commit')
    await answer('ok', true)
    await page().locator('#confirm[open]').waitFor()
    const other = await running.call('POST', '/configdocs/site?buffermode=append&empty-collection=true', { type: 'application/x-yaml', body: '' })
    expect(other.status).toBe(201)
    await answer('ok')
    await expect.poll(async () => await page().textContent('#commit-status'))
      .toMatch(/^The buffer changed after the dry run: another change was staged \(revision \d+, not \d+\)\. Nothing was committed\. Run the dry run again\.$/)
    expect((await running.call('GET', '/configdocs/global?version=committed')).status).toBe(200)
    expect((await running.call('GET', '/configdocs/site?version=committed')).status).toBe(200)
    expect(await page().isDisabled('#commit')).toBe(true)
    expect(await page().textContent('#commit')).toBe('Commit…')
    // the buffer as the commit panel read it again: both deletions
    expect(await page().textContent('#buffer-summary')).toBe('The buffer changes 2 collections: global (deleted), site (deleted).')

    // a new dry run examines both deletions; its commit goes through with force
    await page().click('#dry-run')
    await expect.poll(async () => await page().textContent('#commit-status')).toMatch(/^Dry run: \d+ validations? failed.*\. Nothing was committed\.$/)
    await page().click('#commit')
    expect((await answer('ok', true)).items).toEqual(['global: deleted, its documents go', 'site: deleted, its documents go'])
    await answer('ok')
    await expect.poll(async () => await page().textContent('#commit-status')).toBe('Committed: Validations failed FORCED SUCCESS. The buffer is now the committed version.')
    expect((await running.call('GET', '/configdocs/global?version=committed')).status).toBe(404)
    expect((await running.call('GET', '/configdocs/site?version=committed')).status).toBe(404)
    await expect.poll(collections).toEqual([])
  })

  it('signs out with a plain note, not an error', async () => {
    await page().click('#sign-out')
    await page().locator('#sign-in').waitFor()
    expect(await page().textContent('#sign-in-message')).toBe('Signed out.')
    expect(await page().getAttribute('#sign-in-message', 'class')).toBe('status')
    expect(browser.errors.filter((e) => !/status of 4\d\d/.test(e))).toEqual([])
  })
})
