import Fastify from 'fastify'
import { describe, expect, it, onTestFinished } from 'vitest'
import { parse as parseYaml } from 'yaml'
import { AUTH } from '@slipway/common/testing'
import { buildTestStack, GLOBAL_YAML, SITE_YAML } from '../helpers/stack.ts'
import { DEPLOY_STEPS } from '../helpers/deploy-steps.ts'

const JSON_HEADERS = { ...AUTH, 'content-type': 'application/json' }
const ULID = /^[0-7][0-9A-HJKMNP-TV-Z]{25}$/
type Stack = Awaited<ReturnType<typeof buildTestStack>>

async function commitSite (stack: Stack): Promise<void> {
  const yaml = { ...AUTH, 'content-type': 'application/x-yaml' }
  await stack.app.inject({ method: 'POST', url: '/api/v1.0/configdocs/global', headers: yaml, payload: GLOBAL_YAML })
  await stack.app.inject({ method: 'POST', url: '/api/v1.0/configdocs/site?buffermode=append', headers: yaml, payload: SITE_YAML })
  const res = await stack.app.inject({ method: 'POST', url: '/api/v1.0/commitconfigdocs', headers: AUTH })
  expect(res.statusCode).toBe(200)
}

async function create (stack: Stack, body: unknown) {
  return await stack.app.inject({ method: 'POST', url: '/api/v1.0/actions', headers: JSON_HEADERS, payload: JSON.stringify(body) })
}

async function waitFor (stack: Stack, id: string, lifecycles: string[], timeoutMs = 20_000): Promise<Record<string, unknown>> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const action = (await stack.app.inject({ url: `/api/v1.0/actions/${id}`, headers: AUTH })).json()
    if (lifecycles.includes(action.action_lifecycle)) return action
    if (Date.now() > deadline) throw new Error(`action ${id} stayed ${String(action.action_lifecycle)}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

describe('POST /api/v1.0/actions', () => {
  it('answers 201 with the entity and Location, triggers the run with run id = action id, and unpauses the DAG', async () => {
    const stack = await buildTestStack()
    await commitSite(stack)
    const res = await create(stack, { name: 'deploy_site' })
    expect(res.statusCode).toBe(201)
    const body = res.json()
    expect(body).toMatchObject({ name: 'deploy_site', parameters: {}, dag_id: 'deploy_site', dag_status: 'SCHEDULED', user: 'admin', committed_rev_id: 2, allow_intermediate_commits: false })
    expect(body.id).toMatch(ULID)
    expect(body.dag_execution_date).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/)
    expect(body.timestamp).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{6}$/)
    expect(res.headers.location).toBe(`/api/v1.0/actions/${String(body.id)}`)
    const run = await stack.engineClient.run('deploy_site', body.id)
    expect(run?.conf).toMatchObject({ action: { id: body.id, name: 'deploy_site', committed_rev_id: 2 } })
    expect(String((run?.conf as { design_ref: string }).design_ref)).toMatch(/^deckhand\+http:\/\/.*\/revisions\/2\/rendered-documents$/)
    expect((await stack.engineClient.dag('deploy_site')).is_paused).toBe(false)
  })

  it('sends the run every conf key upstream Shipyard\'s operators read, target_nodes as the comma string they split', async () => {
    const stack = await buildTestStack()
    await commitSite(stack)
    const res = await create(stack, { name: 'relabel_nodes', parameters: { target_nodes: ['n1', 'n2'] } })
    expect(res.statusCode, res.body).toBe(201)
    const body = res.json()
    const conf = (await stack.engineClient.run('relabel_nodes', body.id))?.conf as { action: Record<string, unknown>, design_ref: string }
    // a site running upstream's own DAGs behind this orchestrator finds every key its operators read
    expect(Object.keys(conf.action).sort()).toEqual(['committed_rev_id', 'context_marker', 'dag_id', 'id', 'name', 'parameters', 'timestamp', 'user'])
    expect(conf.action).toMatchObject({
      id: body.id,
      name: 'relabel_nodes',
      dag_id: 'relabel_nodes',
      user: 'admin',
      committed_rev_id: 2,
      context_marker: body.context_marker,
      parameters: { target_nodes: 'n1,n2' }
    })
    expect(conf.action.timestamp).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{6}$/)
    expect(conf.design_ref).toMatch(/^deckhand\+http:\/\/.*\/revisions\/2\/rendered-documents$/)
  })
})

describe('reading actions, steps and logs', () => {
  it('follows an action through Pending/Processing to Complete, with steps, audit and notes', async () => {
    const stack = await buildTestStack()
    await commitSite(stack)
    const id = String((await create(stack, { name: 'deploy_site' })).json().id)
    const done = await waitFor(stack, id, ['Complete', 'Failed'])
    expect(done.action_lifecycle).toBe('Complete')
    expect(done.dag_status).toBe('success')
    expect(done.datetime).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{6}\+00:00$/)
    const steps = done.steps as Array<{ id: string, url: string, index: number, state: string }>
    expect(steps.map((s) => s.id)).toEqual(DEPLOY_STEPS)
    expect(steps.map((s) => s.index)).toEqual(DEPLOY_STEPS.map((_, i) => i + 1))
    expect(steps.every((s) => s.state === 'success')).toBe(true)
    expect(steps[0]).toMatchObject({ id: 'action_xcom', url: `/actions/${id}/steps/action_xcom`, index: 1, state: 'success' })
    expect(done.validations).toEqual([])
    expect(done.command_audit).toMatchObject([{ command: 'invoke', action_id: id }])
    expect(done.notes).toMatchObject([{ note_val: 'Configdoc revision 2', sub_type: 'action metadata', verbosity: 1 }])
    expect(((await stack.app.inject({ url: `/api/v1.0/actions/${id}?verbosity=0`, headers: AUTH })).json()).notes).toEqual([])

    const list = (await stack.app.inject({ url: '/api/v1.0/actions', headers: AUTH })).json()
    expect(list).toHaveLength(1)
    expect(list[0]).toMatchObject({ id, action_lifecycle: 'Complete', dag_status: 'success' })
    expect(list[0]).not.toHaveProperty('command_audit')
    // the list carries the same steps as the detail (grouped steps included), each without notes
    expect(list[0].steps).toEqual(steps.map((s) => ({ ...s, notes: [] })))

    const step = (await stack.app.inject({ url: `/api/v1.0/actions/${id}/steps/drydock_build.prepare_and_deploy_nodes`, headers: AUTH })).json()
    expect(step).toMatchObject({ task_id: 'drydock_build.prepare_and_deploy_nodes', dag_id: 'deploy_site', index: 13, state: 'success', try_number: 1, run_id: id })
    expect(step.start_date).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{6}$/)
    // a bare task name that names one grouped task resolves to it (scripts of the sub-workflow era keep working)
    const bare = (await stack.app.inject({ url: `/api/v1.0/actions/${id}/steps/prepare_and_deploy_nodes`, headers: AUTH })).json()
    expect(bare).toEqual(step)
    const log = await stack.app.inject({ url: `/api/v1.0/actions/${id}/steps/prepare_and_deploy_nodes/logs`, headers: AUTH })
    expect(log.statusCode).toBe(200)
    expect(log.headers['content-type']).toMatch(/^text\/plain/)
    expect(log.body).toContain('Nodes DEPLOYED: n0, n1, n2, n3')
  })

  it('serves the log of each try of a retried step', async () => {
    // the validation steps retry once, as in Shipyard's DAGs: fail the first try only
    const stack = await buildTestStack({ engineEnv: { ENGINE_FAIL_TASKS: 'deckhand_validate_site_design=1', ENGINE_RETRY_DELAY_MS: '20' } })
    await commitSite(stack)
    const id = String((await create(stack, { name: 'deploy_site' })).json().id)
    expect((await waitFor(stack, id, ['Complete', 'Failed'])).action_lifecycle).toBe('Complete')
    const step = (await stack.app.inject({ url: `/api/v1.0/actions/${id}/steps/deckhand_validate_site_design`, headers: AUTH })).json()
    expect(step).toMatchObject({ task_id: 'validate_site_design.deckhand_validate_site_design', state: 'success', try_number: 2 })
    const first = await stack.app.inject({ url: `/api/v1.0/actions/${id}/steps/deckhand_validate_site_design/logs?try=1`, headers: AUTH })
    const last = await stack.app.inject({ url: `/api/v1.0/actions/${id}/steps/deckhand_validate_site_design/logs`, headers: AUTH })
    expect(first.statusCode).toBe(200)
    expect(first.body).toMatch(/ERROR/)
    // the failed try's structured lines keep every key, and its exception reads as a Python traceback
    expect(first.body).toMatch(/ERROR - Task failed with exception logger=task/)
    expect(first.body).toMatch(/Traceback \(most recent call last\):\n {2}File "[^"]+\.py", line \d+, in run\n(?: {2}File .*\n)+AirflowException: Injected failure of try 1/)
    expect(last.body).not.toBe(first.body)
    expect(last.body).toContain('attempt=2')
    expect((await stack.app.inject({ url: `/api/v1.0/actions/${id}/steps/deckhand_validate_site_design/logs?try=3`, headers: AUTH })).statusCode).toBe(404)
    expect((await stack.app.inject({ url: `/api/v1.0/actions/${id}/steps/deckhand_validate_site_design/logs?try=x`, headers: AUTH })).statusCode).toBe(400)
  })
})

// the step list from the start, at fixed indexes, null for steps not yet made: routes/action-steps.test.ts (fakes)

describe('POST /api/v1.0/actions/{id}/control/{verb}', () => {
  it('pauses, unpauses and stops the run in the engine, each a 202 with an audit row', async () => {
    const stack = await buildTestStack({ engineEnv: { ENGINE_HANG_TASKS: 'test_site/armada_test_releases' } })
    await commitSite(stack)
    const id = String((await create(stack, { name: 'test_site' })).json().id)
    await waitFor(stack, id, ['Processing'])
    const control = async (verb: string) => await stack.app.inject({ method: 'POST', url: `/api/v1.0/actions/${id}/control/${verb}`, headers: AUTH })
    const pause = await control('pause')
    expect(pause.statusCode).toBe(202)
    expect(pause.body).toBe('')
    expect((await waitFor(stack, id, ['Paused'])).action_lifecycle).toBe('Paused')
    expect((await control('unpause')).statusCode).toBe(202)
    await waitFor(stack, id, ['Processing'])
    expect((await control('stop')).statusCode).toBe(202)
    const stopped = await waitFor(stack, id, ['Failed'])
    expect((stopped.command_audit as Array<{ command: string }>).map((a) => a.command)).toEqual(['invoke', 'pause', 'unpause', 'stop'])
  })
})

describe('site-action tags', () => {
  const tagsOf = async (stack: Stack, revision: number): Promise<string[]> =>
    Object.keys(parseYaml(await (await fetch(`${stack.store.url}/revisions/${revision}/tags`)).text()) as object).sort()

  it('gives each action one tag: the workflow\'s own, or the backstop\'s when the workflow did not tag', async () => {
    const stack = await buildTestStack({ engineEnv: { ENGINE_FAIL_TASKS: 'update_site/prepare_site', ENGINE_HANG_TASKS: 'update_software/armada_post_apply' } })
    await commitSite(stack)
    // deploy_site succeeds and its create_action_tag step tags revision 2; the backstop adds nothing
    const ok = String((await create(stack, { name: 'deploy_site' })).json().id)
    await waitFor(stack, ok, ['Complete'])
    expect(await stack.actions.settleTags({ contextMarker: 'm', user: 'test' })).toBe(1)
    expect(await tagsOf(stack, 2)).toEqual(['committed', 'site-action-success'])

    // update_site fails in the middle (prepare_site) but its all_done tail succeeds: the run is a success, the
    // action Failed, and the workflow tags the revision site-action-failure; the backstop writes no second, contrary tag
    await stack.app.inject({ method: 'POST', url: '/api/v1.0/configdocs/site?empty-collection=true', headers: AUTH })
    expect((await stack.app.inject({ method: 'POST', url: '/api/v1.0/commitconfigdocs', headers: AUTH })).statusCode).toBe(200)
    const bad = String((await create(stack, { name: 'update_site' })).json().id)
    const done = await waitFor(stack, bad, ['Complete', 'Failed'])
    expect(done).toMatchObject({ action_lifecycle: 'Failed', dag_status: 'success' })
    const state = (step: string) => (done.steps as Array<{ id: string, state: string }>).find((s) => s.id === step)?.state
    expect([state('drydock_build.prepare_site'), state('armada_build.armada_get_releases'), state('create_action_tag')]).toEqual(['failed', 'upstream_failed', 'success'])
    expect(await stack.actions.settleTags({ contextMarker: 'm', user: 'test' })).toBe(1)
    expect(await tagsOf(stack, 3)).toEqual(['committed', 'site-action-failure'])

    // update_software is stopped before its tag step: the backstop tags it, as a failure
    await stack.app.inject({ method: 'POST', url: '/api/v1.0/configdocs/site', headers: { ...AUTH, 'content-type': 'application/x-yaml' }, payload: SITE_YAML })
    expect((await stack.app.inject({ method: 'POST', url: '/api/v1.0/commitconfigdocs', headers: AUTH })).statusCode).toBe(200)
    const stopped = String((await create(stack, { name: 'update_software' })).json().id)
    await waitFor(stack, stopped, ['Processing'])
    expect((await stack.app.inject({ method: 'POST', url: `/api/v1.0/actions/${stopped}/control/stop`, headers: AUTH })).statusCode).toBe(202)
    await waitFor(stack, stopped, ['Failed'])
    expect(await stack.actions.settleTags({ contextMarker: 'm', user: 'test' })).toBe(1)
    expect(await stack.actions.settleTags({ contextMarker: 'm', user: 'test' })).toBe(0)
    expect(await tagsOf(stack, 4)).toEqual(['committed', 'site-action-failure'])
  })
})

describe('workflows, site statuses, notes', () => {
  it('lists a real run as a workflow and drills into it, with its task groups as sub-workflows', async () => {
    const stack = await buildTestStack()
    await commitSite(stack)
    const id = String((await create(stack, { name: 'deploy_site' })).json().id)
    await waitFor(stack, id, ['Complete'])
    const list = (await stack.app.inject({ url: '/api/v1.0/workflows?since=P1D', headers: AUTH })).json()
    expect(list).toHaveLength(1)
    expect(list[0]).toMatchObject({ dag_id: 'deploy_site', run_id: id, state: 'success', external_trigger: true })
    expect(list[0].workflow_id).toMatch(/^deploy_site__\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}$/)
    const workflowId = String(list[0].workflow_id)
    const date = workflowId.slice('deploy_site__'.length)
    const detail = (await stack.app.inject({ url: `/api/v1.0/workflows/${workflowId}`, headers: AUTH })).json()
    expect(detail).toMatchObject({ workflow_id: workflowId, dag_id: 'deploy_site', run_id: id, state: 'success' })
    expect(detail.steps.map((s: { task_id: string }) => s.task_id)).toEqual(DEPLOY_STEPS)
    expect(detail.steps.every((s: { dag_id: string }) => s.dag_id === 'deploy_site')).toBe(true)
    // sub-workflows derived from the task groups, in the step order of their first task
    expect(detail.sub_dags.map((s: { dag_id: string, workflow_id: string }) => [s.dag_id, s.workflow_id])).toEqual(
      ['preflight', 'validate_site_design', 'drydock_build', 'armada_build'].map((g) => [`deploy_site.${g}`, `deploy_site.${g}__${date}`]))
    for (const sub of detail.sub_dags) {
      expect(sub).toMatchObject({ run_id: id, execution_date: detail.execution_date, external_trigger: false, state: 'success' })
      expect(sub.start_date).not.toBeNull()
      expect(sub.end_date).not.toBeNull()
      expect(sub.start_date >= detail.start_date && sub.end_date <= detail.end_date).toBe(true)
    }
    // a sub-workflow's own detail, and the ids refused or naming no run: routes/workflows.test.ts, over the fakes
  })

  it('answers site statuses from the real provisioner; a 5xx naming it once it is down', async () => {
    const stack = await buildTestStack()
    await commitSite(stack)
    const all = (await stack.app.inject({ url: '/api/v1.0/site_statuses', headers: AUTH })).json()
    expect(all['nodes-provision-status']).toHaveLength(4)
    expect(all['machines-power-state'][0]).toMatchObject({ hostname: 'n0', power_state: 'off' })
    // the filters and the filter refused: routes/site-statuses.test.ts, over the fakes
    await stack.site.close()
    const down = await stack.app.inject({ url: '/api/v1.0/site_statuses', headers: AUTH })
    expect(down.statusCode).toBeGreaterThanOrEqual(500)
    expect(down.json()).toMatchObject({ message: 'Downstream failure: provisioner' })
  })

  it('answers a note whose URL redirects (302) as one whose URL fails: 500 with an error body, not a 200 with nothing', async () => {
    const stack = await buildTestStack()
    const source = Fastify()
    source.get('/moved', async (_request, reply) => await reply.code(302).header('location', '/elsewhere').send(''))
    await source.listen({ host: '127.0.0.1', port: 0 })
    onTestFinished(async () => { await source.close() })
    const port = (source.server.address() as { port: number }).port
    await stack.repos.notes.insert({
      note_id: '01ARZ3NDEKTSV4RRFFQ69G5FA4',
      assoc_id: 'other/x',
      subject: 's',
      sub_type: 'Linked Task Info',
      note_val: 'v',
      verbosity: 5,
      is_auth_link: false,
      note_timestamp: new Date().toISOString(),
      link_url: `http://127.0.0.1:${port}/moved`
    })
    const moved = await stack.app.inject({ url: '/api/v1.0/notedetails/01ARZ3NDEKTSV4RRFFQ69G5FA4', headers: AUTH })
    expect(moved.statusCode).toBe(500)
    expect(moved.json()).toMatchObject({ status: 'Failure', message: 'Unable to retrieve URL information for note' })
  })
})
