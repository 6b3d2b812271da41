// A failed deployment never reads as a success: each workflow whose tail runs whatever happened before it
// (all_done: deploy_site, update_site, update_software) ends as an engine success when a step fails for good, and
// the action is Failed all the same — in GET /actions and GET /actions/{id}, answered from the engine watch and from
// the engine itself — while dag_status keeps the engine's word and the revision is tagged site-action-failure.
import { describe, expect, it } from 'vitest'
import { parse as parseYaml } from 'yaml'
import { AUTH } from '@slipway/common/testing'
import { buildTestStack, GLOBAL_YAML, SITE_YAML } from '../helpers/stack.ts'

type Stack = Awaited<ReturnType<typeof buildTestStack>>
interface Action { id: string, action_lifecycle: string, dag_status: string | null, steps: Array<{ id: string, state: string | null }> }
const YAML = { ...AUTH, 'content-type': 'application/x-yaml' }

async function commitSite (stack: Stack): Promise<void> {
  await stack.app.inject({ method: 'POST', url: '/api/v1.0/configdocs/global', headers: YAML, payload: GLOBAL_YAML })
  await stack.app.inject({ method: 'POST', url: '/api/v1.0/configdocs/site?buffermode=append', headers: YAML, payload: SITE_YAML })
  expect((await stack.app.inject({ method: 'POST', url: '/api/v1.0/commitconfigdocs', headers: AUTH })).statusCode).toBe(200)
}

async function create (stack: Stack, name: string): Promise<{ id: string, revision: number }> {
  const created = await stack.app.inject({ method: 'POST', url: '/api/v1.0/actions', headers: { ...AUTH, 'content-type': 'application/json' }, payload: JSON.stringify({ name }) })
  expect(created.statusCode).toBe(201)
  return { id: String(created.json().id), revision: Number(created.json().committed_rev_id) }
}

const read = async (stack: Stack, url: string) => await stack.app.inject({ url: `/api/v1.0${url}`, headers: AUTH })

async function finished (stack: Stack, id: string, timeoutMs = 30_000): Promise<Action> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const action = (await read(stack, `/actions/${id}`)).json() as Action
    if (['success', 'failed'].includes(String(action.dag_status))) return action
    if (Date.now() > deadline) throw new Error(`action ${id} stayed ${action.action_lifecycle} (${String(action.dag_status)})`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

const tagsOf = async (stack: Stack, revision: number): Promise<string[]> =>
  Object.keys(parseYaml(await (await fetch(`${stack.store.url}/revisions/${revision}/tags`)).text()) as object).sort()

/** The steps after the armada build that each workflow runs, and the state each ends in once the build failed. */
const TAG_AND_STATUS = { create_action_tag: 'success', final_deployment_status: 'success' }
const UPGRADE_BRANCH = { decide_airflow_upgrade: 'upstream_failed', upgrade_airflow: 'upstream_failed', skip_upgrade_airflow: 'upstream_failed' }
const TAILS: Record<string, Record<string, string>> = {
  deploy_site: TAG_AND_STATUS,
  update_site: { ...UPGRADE_BRANCH, ...TAG_AND_STATUS },
  update_software: { ...UPGRADE_BRANCH, ...TAG_AND_STATUS }
}

describe('an action whose run ended with a step failed for good', () => {
  it.each(Object.keys(TAILS))('%s: Failed in the list and the detail, from the watch and from the engine; dag_status success; tagged failure', async (name) => {
    // armada_post_apply fails all six of its tries (five retries), as in a real site whose charts do not apply
    const stack = await buildTestStack({
      engineEnv: { ENGINE_FAIL_TASKS: `${name}/armada_post_apply`, ENGINE_RETRY_DELAY_MS: '10' },
      watch: { intervalMs: 50, staleMs: 60_000 }
    })
    await commitSite(stack)
    const { id, revision } = await create(stack, name)

    // read from the watch: it has seen the run end (reads of a fresh watch never reach the engine)
    const done = await finished(stack, id)
    expect(stack.watch!.status().fresh).toBe(true)
    const state = Object.fromEntries(done.steps.map((s) => [s.id, s.state]))
    expect(state).toMatchObject({ 'armada_build.armada_post_apply': 'failed', 'armada_build.armada_get_releases': 'upstream_failed', ...TAILS[name] })
    expect(done).toMatchObject({ action_lifecycle: 'Failed', dag_status: 'success' })
    expect((await read(stack, `/actions/${id}/steps/armada_post_apply`)).json()).toMatchObject({ state: 'failed', try_number: 6 })
    const listed = ((await read(stack, '/actions')).json() as Action[]).find((a) => a.id === id)
    expect(listed).toMatchObject({ id, action_lifecycle: 'Failed', dag_status: 'success' })
    expect(listed?.steps.map((s) => s.state)).toEqual(done.steps.map((s) => s.state))

    // the same answers straight from the engine (a stopped watch is never fresh)
    stack.watch!.stop()
    expect(stack.watch!.status().fresh).toBe(false)
    expect((await read(stack, `/actions/${id}`)).json()).toMatchObject({ action_lifecycle: 'Failed', dag_status: 'success' })
    expect(((await read(stack, '/actions')).json() as Action[]).find((a) => a.id === id)).toMatchObject({ action_lifecycle: 'Failed', dag_status: 'success' })

    // the workflow's own tag step tagged the revision a failure; the backstop adds nothing contrary
    await stack.actions.settleTags({ contextMarker: 'm', user: 'test' })
    expect(await tagsOf(stack, revision)).toEqual(['committed', 'site-action-failure'])
  })
})

describe('an action whose run ended with every step done', () => {
  it('is Complete after a step that failed a try and passed on its retry; a failed run with failed steps is Failed', async () => {
    const stack = await buildTestStack({ engineEnv: { ENGINE_FAIL_TASKS: 'deploy_site/armada_post_apply=2,test_site/armada_test_releases', ENGINE_RETRY_DELAY_MS: '10' } })
    await commitSite(stack)
    const deploy = (await create(stack, 'deploy_site')).id
    const retried = await finished(stack, deploy)
    expect(retried).toMatchObject({ action_lifecycle: 'Complete', dag_status: 'success' })
    expect(retried.steps.every((s) => s.state === 'success')).toBe(true)
    expect((await read(stack, `/actions/${deploy}/steps/armada_post_apply`)).json()).toMatchObject({ state: 'success', try_number: 3 })

    // test_site has no all_done tail: its last step failing fails the run itself
    const test = (await create(stack, 'test_site')).id
    expect(await finished(stack, test)).toMatchObject({ action_lifecycle: 'Failed', dag_status: 'failed' })
  })
})

describe('the backstop tag of a site action whose tag step failed', () => {
  it('is site-action-failure, as its lifecycle is Failed, though the armada build succeeded', async () => {
    const stack = await buildTestStack({ engineEnv: { ENGINE_FAIL_TASKS: 'deploy_site/create_action_tag' } })
    await commitSite(stack)
    const { id, revision } = await create(stack, 'deploy_site')
    const done = await finished(stack, id)
    const state = Object.fromEntries(done.steps.map((s) => [s.id, s.state]))
    expect(state).toMatchObject({ 'armada_build.armada_get_releases': 'success', create_action_tag: 'failed', final_deployment_status: 'success' })
    expect(done).toMatchObject({ action_lifecycle: 'Failed', dag_status: 'success' })
    expect(await tagsOf(stack, revision)).toEqual(['committed'])
    expect(await stack.actions.settleTags({ contextMarker: 'm', user: 'test' })).toBe(1)
    expect(await tagsOf(stack, revision)).toEqual(['committed', 'site-action-failure'])
  })
})
