// What the workflows do when the site misbehaves, on stub-engine over the stand-ins' own faults (no private step
// protocol): a Drydock task that never completes fails its step at the deployment configuration's timeout, naming the
// task; an Armada apply answered with a 5xx fails each try naming Armada and the status, retried as the DAG says; a
// deployment strategy with a dependency cycle fails Drydock's validation step before any node is touched.
import { describe, expect, it } from 'vitest'
import { AUTH } from '@slipway/common/testing'
import { buildTestStack, GLOBAL_YAML, SITE_YAML } from '../helpers/stack.ts'

type Stack = Awaited<ReturnType<typeof buildTestStack>>
const JSON_HEADERS = { ...AUTH, 'content-type': 'application/json' }

async function commit (stack: Stack, global: string, force = false): Promise<void> {
  const yaml = { ...AUTH, 'content-type': 'application/x-yaml' }
  await stack.app.inject({ method: 'POST', url: '/api/v1.0/configdocs/global', headers: yaml, payload: global })
  await stack.app.inject({ method: 'POST', url: '/api/v1.0/configdocs/site?buffermode=append', headers: yaml, payload: SITE_YAML })
  const res = await stack.app.inject({ method: 'POST', url: `/api/v1.0/commitconfigdocs${force ? '?force=true' : ''}`, headers: AUTH })
  expect(res.statusCode, res.body).toBe(200)
}

async function run (stack: Stack, body: unknown): Promise<Record<string, any>> {
  const created = await stack.app.inject({ method: 'POST', url: '/api/v1.0/actions', headers: JSON_HEADERS, payload: JSON.stringify(body) })
  expect(created.statusCode, created.body).toBe(201)
  const id = String(created.json().id)
  const deadline = Date.now() + 60_000
  for (;;) {
    const action = (await stack.app.inject({ url: `/api/v1.0/actions/${id}`, headers: AUTH })).json()
    if (['Complete', 'Failed'].includes(action.action_lifecycle)) return action
    if (Date.now() > deadline) throw new Error(`action ${id} stayed ${String(action.action_lifecycle)}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

const stepState = (action: Record<string, any>, id: string): string => action.steps.find((s: { id: string }) => s.id === id)?.state

async function log (stack: Stack, id: string, step: string, tryNumber?: number): Promise<string> {
  const query = tryNumber === undefined ? '' : `?try=${tryNumber}`
  return (await stack.app.inject({ url: `/api/v1.0/actions/${id}/steps/${step}/logs${query}`, headers: AUTH })).body
}

async function siteControl (stack: Stack, path: string, body: unknown): Promise<void> {
  const res = await fetch(`${stack.site.url}/_stub/${path}`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
  expect(res.status, await res.text()).toBe(200)
}

/** The example site's global documents with more deployment configuration (under physical_provisioner). */
const withProvisioner = (lines: string): string => GLOBAL_YAML.replace('    join_wait: 0.5\n', `    join_wait: 0.5\n${lines}`)

describe('the workflows on a misbehaving site', () => {
  it('fails verify_site at the configured timeout when Drydock\'s task never completes, naming the task', async () => {
    const stack = await buildTestStack()
    await commit(stack, withProvisioner('    verify_timeout: 1\n'))
    await siteControl(stack, 'task-faults', { stuck_tasks: ['verify_site'] })
    const action = await run(stack, { name: 'deploy_site' })
    expect(action.action_lifecycle).toBe('Failed')
    expect(stepState(action, 'drydock_build.verify_site')).toBe('failed')
    expect(stepState(action, 'drydock_build.prepare_site')).toBe('upstream_failed')
    const text = await log(stack, String(action.id), 'drydock_build.verify_site')
    expect(text).toMatch(/Drydock verify_site task (\S+) did not complete within 1 s \(still running\)/)
    expect(text).toMatch(/Drydock verify_site task \S+ timed out after 1 s/)
  })

  it('fails each try of armada_post_apply when Armada answers 500, naming Armada and the status, retried five times', async () => {
    const stack = await buildTestStack({ engineEnv: { ENGINE_RETRY_DELAY_MS: '10' } })
    await commit(stack, GLOBAL_YAML)
    await siteControl(stack, 'armada/faults', { fail_apply: ['ucp-shipyard'], fail_tests: [] })
    const action = await run(stack, { name: 'update_software' })
    expect(action.action_lifecycle).toBe('Failed')
    const id = String(action.id)
    const step = (await stack.app.inject({ url: `/api/v1.0/actions/${id}/steps/armada_build.armada_post_apply`, headers: AUTH })).json()
    expect(step).toMatchObject({ state: 'failed', try_number: 6 })
    for (const tryNumber of [1, 6]) {
      expect(await log(stack, id, 'armada_build.armada_post_apply', tryNumber)).toMatch(/Downstream failure: armada \(The armada answered POST \/apply with 500\)/)
    }
    expect(await log(stack, id, 'create_action_tag')).toMatch(/tagged site-action-failure/)
  })

  it('fails Drydock\'s validation of a strategy whose groups depend on each other, before any Drydock task', async () => {
    const stack = await buildTestStack({ engineEnv: { ENGINE_RETRY_DELAY_MS: '10' } })
    const cyclic = GLOBAL_YAML.replace('      depends_on: []\n      selectors:\n        - node_names: [n0]', '      depends_on: [workers]\n      selectors:\n        - node_names: [n0]')
    expect(cyclic).not.toBe(GLOBAL_YAML)
    // the orchestrator refuses such a commit and such an action itself; forced and continue-on-fail, the workflow sees it
    await commit(stack, cyclic, true)
    const action = await run(stack, { name: 'deploy_site', parameters: { 'continue-on-fail': 'true' } })
    expect(action.action_lifecycle).toBe('Failed')
    expect(stepState(action, 'validate_site_design.drydock_validate_site_design')).toBe('failed')
    expect(stepState(action, 'drydock_build.prepare_and_deploy_nodes')).toBe('upstream_failed')
    expect(await log(stack, String(action.id), 'validate_site_design.drydock_validate_site_design', 2))
      .toMatch(/The deployment groups .* depend on each other in a cycle/)
    const tasks = await (await fetch(`${stack.site.url}/api/v1.0/tasks`)).json() as unknown[]
    expect(tasks).toEqual([])
  })
})
