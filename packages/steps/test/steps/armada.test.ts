import { describe, expect, it } from 'vitest'
import { REVISION, run, startSite, stepCall } from '../helpers/site.ts'

describe('armada_apply', () => {
  it('applies the site manifest and hands on that Shipyard\'s release was upgraded', async () => {
    const site = await startSite()
    site.armada.applied = { install: ['ucp-barbican'], upgrade: ['ucp-shipyard', 'ucp-deckhand'], diff: [{ chart: 'x' }], purge: [], protected: [] }
    const { result, io } = await run('armada_apply', stepCall(), site.deps)
    expect(result?.output).toMatchObject({ upgrade_airflow_worker: true })
    const [apply] = site.armada.callsTo('POST', '/apply')
    expect(apply!.body).toEqual({ hrefs: [`deckhand+${site.deckhand.url}/revisions/${REVISION}/rendered-documents`], overrides: [] })
    expect(apply!.query).toMatchObject({ target_manifest: 'full-site', timeout: '2700' })
    expect(io.text()).toContain('Armada install: ucp-barbican')
    expect(io.text()).toContain('Armada upgrade: ucp-shipyard, ucp-deckhand')
    expect(io.text()).toContain('Armada purge: none')
    expect(io.text()).toContain('Armada diff: {"chart":"x"}')
  })

  it('hands on no upgrade when Shipyard\'s release was not upgraded', async () => {
    const site = await startSite()
    site.armada.applied.install = ['ucp-shipyard']
    const { result } = await run('armada_apply', stepCall(), site.deps)
    expect(result?.output).toMatchObject({ upgrade_airflow_worker: false })
  })

  it('fails naming Armada when the apply answers without a message', async () => {
    const site = await startSite()
    site.armada.applied = undefined as never
    const { error } = await run('armada_apply', stepCall(), site.deps)
    expect(error?.message).toBe('DownstreamError: Downstream failure: armada (Armada answered POST /apply without a message: {})')
  })
})

describe('decide_upgrade', () => {
  it.each([
    [{ upgrade_airflow_worker: true }, 'upgrade_airflow'],
    [{ upgrade_airflow_worker: false }, 'skip_upgrade_airflow'],
    [undefined, 'skip_upgrade_airflow']
  ])('follows what the apply handed on (%j → %s)', async (applied, follow) => {
    const site = await startSite()
    const { result } = await run('decide_upgrade', stepCall({ xcom: { 'armada_build.armada_post_apply': applied } }), site.deps)
    expect(result).toEqual({ follow: [follow] })
  })
})

describe('armada_test', () => {
  it('passes when every release\'s tests pass', async () => {
    const site = await startSite()
    const { error, io } = await run('armada_test', stepCall(), site.deps)
    expect(error).toBeUndefined()
    expect(site.armada.callsTo('GET', '/test/').map((c) => c.path)).toEqual(['/test/ucp-deckhand', '/test/ucp-shipyard'])
    expect(io.text()).toContain('Tests of 2 release(s) passed')
  })

  it('fails naming the release whose tests failed', async () => {
    const site = await startSite()
    site.armada.tests['ucp-shipyard'] = { result: 'FAILED', message: 'ucp-shipyard-api-test failed' }
    const { error, io } = await run('armada_test', stepCall(), site.deps)
    expect(error?.message).toBe('Release tests failed: ucp-shipyard')
    expect(io.lines).toContainEqual({ event: 'Tests of ucp-shipyard: FAILED: ucp-shipyard-api-test failed', level: 'error' })
  })

  it('reads the result, not words in the message, when there is a result', async () => {
    const site = await startSite()
    site.armada.tests['ucp-shipyard'] = { result: 'PASSED', message: '3 passed, 0 failed' }
    const { error } = await run('armada_test', stepCall(), site.deps)
    expect(error).toBeUndefined()
  })
})

describe('armada_releases', () => {
  it('lists the releases by namespace', async () => {
    const site = await startSite()
    const { result, io } = await run('armada_releases', stepCall(), site.deps)
    expect(result?.output).toEqual({ ucp: ['ucp-deckhand', 'ucp-shipyard'] })
    expect(io.text()).toContain('Releases in ucp: ucp-deckhand, ucp-shipyard')
  })
})
