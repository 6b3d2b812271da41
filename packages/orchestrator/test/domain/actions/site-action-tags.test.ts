// The site-action tags: the backstop tag by the workflow's own rule, and settling them over the fakes — only a site
// action whose run has ended, the revision tagged only when the workflow's tag step did not succeed, each once.
import { describe, expect, it } from 'vitest'
import type { EngineTask } from '../../../src/clients/engine.ts'
import { siteActionTag } from '../../../src/domain/actions/site-action-tags.ts'
import { actionUseCases, freshCtx } from '../../helpers/action-use-cases.ts'
import { fakeEngine } from '../../helpers/fakes.ts'

const TAGGER = { contextMarker: 'tag-poller', user: 'slipway' }

describe('the backstop site-action tag', () => {
  const states = (all: Record<string, string>) => (taskId: string): string | null => all[taskId] ?? null
  it('is a failure when any step failed, even with the armada build done; a success when every step did its work', () => {
    const built = { 'armada_build.armada_get_releases': 'success', skip_upgrade_airflow: 'success' }
    expect(siteActionTag(states(built), ['success', 'success'])).toBe('site-action-success')
    expect(siteActionTag(states({ ...built, create_action_tag: 'failed' }), ['success', 'failed'])).toBe('site-action-failure')
    expect(siteActionTag(states({ 'armada_build.armada_get_releases': 'upstream_failed' }), [])).toBe('site-action-failure')
    expect(siteActionTag(states({}), [])).toBe('site-action-failure')
  })
})

/** The use cases with task instances the test sets per run. */
function withSteps () {
  const engine = fakeEngine()
  const steps = new Map<string, Record<string, string>>()
  engine.client.tasks = async (dagId, runId) => Object.entries(steps.get(runId) ?? {})
    .map(([taskId, state]) => ({ dag_id: dagId, dag_run_id: runId, task_id: taskId, map_index: -1, state }) as unknown as EngineTask)
  return { u: actionUseCases({ engine }), steps }
}

describe('settleTags', () => {
  it('waits for a site action\'s run to end, then tags its revision as the tag step would have, once', async () => {
    const { u, steps } = withSteps()
    const revision = await u.commitSite()
    const created = await u.create({ name: 'deploy_site', parameters: {} }, false, freshCtx())
    const id = created.body.id
    expect(await u.settleTags(TAGGER)).toBe(0)
    // stopped before the armada build ended: the tag step never ran
    await u.engine.client.setRunState('deploy_site', id, 'failed', {})
    steps.set(id, { 'armada_build.armada_post_apply': 'failed' })
    expect(await u.settleTags(TAGGER)).toBe(1)
    expect(u.store.revisions.find((r) => r.id === revision)?.tags).toEqual(['committed', 'site-action-failure'])
    expect(await u.settleTags(TAGGER)).toBe(0)
    expect(u.store.revisions.find((r) => r.id === revision)?.tags).toEqual(['committed', 'site-action-failure'])
  })

  it('writes no tag when the workflow\'s own tag step succeeded, and never waits on an action that is no site action', async () => {
    const { u, steps } = withSteps()
    const revision = await u.commitSite()
    const test = await u.create({ name: 'test_site', parameters: {} }, false, freshCtx())
    const deploy = await u.create({ name: 'deploy_site', parameters: {} }, false, freshCtx())
    expect(test.created && deploy.created).toBe(true)
    await u.engine.client.setRunState('deploy_site', deploy.body.id, 'success', {})
    steps.set(deploy.body.id, { 'armada_build.armada_get_releases': 'success', create_action_tag: 'success' })
    expect(await u.settleTags(TAGGER)).toBe(1)
    expect(u.store.revisions.find((r) => r.id === revision)?.tags).toEqual(['committed'])
    expect(await u.settleTags(TAGGER)).toBe(0)
  })

  it('tags a failure when the run is a success but a step failed (the tag step itself, say)', async () => {
    const { u, steps } = withSteps()
    const revision = await u.commitSite()
    const id = (await u.create({ name: 'update_software', parameters: {} }, false, freshCtx())).body.id
    await u.engine.client.setRunState('update_software', id, 'success', {})
    steps.set(id, { 'armada_build.armada_get_releases': 'success', create_action_tag: 'failed', final_deployment_status: 'success' })
    expect(await u.settleTags(TAGGER)).toBe(1)
    expect(u.store.revisions.find((r) => r.id === revision)?.tags).toEqual(['committed', 'site-action-failure'])
  })
})
