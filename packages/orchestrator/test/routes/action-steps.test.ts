// An action's steps over the fakes: the workflow's whole step list from the start, each at its fixed index, null for
// a step the engine has not made yet; the list and a step's own read give the same indexes. A real run's steps
// through them: routes/actions.test.ts.
import { describe, expect, it } from 'vitest'
import { AUTH } from '@slipway/common/testing'
import type { EngineTask } from '../../src/clients/engine.ts'
import { buildTestApp } from '../helpers/test-app.ts'
import { fakeEngine } from '../helpers/fakes.ts'
import { GLOBAL_YAML, SITE_YAML } from '../helpers/example-site.ts'
import { DEPLOY_STEPS } from '../helpers/deploy-steps.ts'

/** An app whose fake engine answers the task instances in `made` (none at first). */
async function appWithTasks () {
  const engine = fakeEngine()
  const made: EngineTask[] = []
  engine.client.tasks = async (dagId, runId) => made.filter((t) => t.dag_id === dagId && t.dag_run_id === runId)
  engine.client.tasksOfRuns = async (filter) =>
    made.filter((t) => filter.runIds.includes(t.dag_run_id) && (filter.dagIds === undefined || filter.dagIds.includes(t.dag_id)))
  const t = await buildTestApp({ engine: engine.client })
  const yaml = { ...AUTH, 'content-type': 'application/x-yaml' }
  await t.app.inject({ method: 'POST', url: '/api/v1.0/configdocs/global', headers: yaml, payload: GLOBAL_YAML })
  await t.app.inject({ method: 'POST', url: '/api/v1.0/configdocs/site?buffermode=append', headers: yaml, payload: SITE_YAML })
  expect((await t.app.inject({ method: 'POST', url: '/api/v1.0/commitconfigdocs', headers: AUTH })).statusCode).toBe(200)
  return { t, made }
}

describe('an action\'s steps', () => {
  it('lists the workflow\'s whole step list from the start, with stable indexes and null for steps not yet made', async () => {
    const { t, made } = await appWithTasks()
    const created = await t.app.inject({
      method: 'POST', url: '/api/v1.0/actions', headers: { ...AUTH, 'content-type': 'application/json' }, payload: '{"name":"deploy_site"}'
    })
    expect(created.statusCode, created.body).toBe(201)
    const id = String(created.json().id)
    const now = new Date().toISOString()
    const times = { logical_date: now, run_after: now, start_date: now, end_date: now }
    made.push({ dag_id: 'deploy_site', dag_run_id: id, task_id: 'action_xcom', map_index: -1, state: 'success', try_number: 1, ...times } as unknown as EngineTask)

    type Step = { id: string, index: number, state: string | null }
    const steps = (await t.app.inject({ url: `/api/v1.0/actions/${id}`, headers: AUTH })).json().steps as Step[]
    expect(steps.map((s) => s.id)).toEqual(DEPLOY_STEPS)
    expect(steps.map((s) => s.index)).toEqual(Array.from({ length: 17 }, (_, i) => i + 1))
    expect(steps[0]).toMatchObject({ id: 'action_xcom', index: 1, state: 'success' })
    // the steps the engine has not made are listed, at their place, without a state
    expect(steps.find((s) => s.id === 'drydock_build.prepare_and_deploy_nodes')).toMatchObject({ index: 13, state: null })
    expect(steps.find((s) => s.id === 'final_deployment_status')).toMatchObject({ index: 17, state: null })
    expect(steps.slice(1).every((s) => s.state === null)).toBe(true)
    const list = (await t.app.inject({ url: '/api/v1.0/actions', headers: AUTH })).json() as Array<{ steps: Step[] }>
    expect(list[0]?.steps.map((s) => `${s.index}:${s.id}`)).toEqual(steps.map((s) => `${s.index}:${s.id}`))
    const detail = (await t.app.inject({ url: `/api/v1.0/actions/${id}/steps/action_xcom`, headers: AUTH })).json()
    expect(detail).toMatchObject({ task_id: 'action_xcom', index: 1, state: 'success' })
  })
})
