// GET /workflows and /workflows/{id} over the fakes: a run of the engine as a workflow, its steps in the workflow's
// step order, its task groups as sub-workflows `D.G__<date>` each with its own steps, and the ids refused (400) or
// naming no run or group (404). What the real engine's runs look like through them: routes/actions.test.ts.
import { describe, expect, it } from 'vitest'
import { AUTH } from '@slipway/common/testing'
import type { EngineRun, EngineTask } from '../../src/clients/engine.ts'
import { buildTestApp } from '../helpers/test-app.ts'
import { fakeEngine } from '../helpers/fakes.ts'

const RUN_ID = '01KB0000000000000000000000'
const LOGICAL = '2026-11-26T10:00:00.123Z'
const DATE = '2026-11-26T10:00:00.123000'

const times = { logical_date: LOGICAL, run_after: LOGICAL }
const run = { dag_id: 'deploy_site', dag_run_id: RUN_ID, ...times, state: 'running', run_type: 'manual', start_date: '2026-11-26T10:00:01Z', end_date: null } as unknown as EngineRun

const task = (taskId: string, state: string | null, start: string | null, end: string | null): EngineTask =>
  ({ dag_id: 'deploy_site', dag_run_id: RUN_ID, task_id: taskId, map_index: -1, state, start_date: start, end_date: end, ...times, try_number: 1 }) as unknown as EngineTask

// the engine's answer out of step order: the detail puts them in the workflow's order
const TASKS = [
  task('drydock_build.verify_site', 'running', '2026-11-26T10:00:09Z', null),
  task('validate_site_design.armada_validate_site_design', 'success', '2026-11-26T10:00:06Z', '2026-11-26T10:00:08Z'),
  task('action_xcom', 'success', '2026-11-26T10:00:02Z', '2026-11-26T10:00:03Z'),
  task('validate_site_design.deckhand_validate_site_design', 'success', '2026-11-26T10:00:05Z', '2026-11-26T10:00:07Z'),
  task('preflight.ucp_preflight_check', 'success', '2026-11-26T10:00:03Z', '2026-11-26T10:00:04Z')
]

async function appWithRun () {
  const engine = fakeEngine()
  engine.triggered.push(run)
  engine.client.tasks = async (dagId, runId) => TASKS.filter((t) => t.dag_id === dagId && t.dag_run_id === runId)
  const t = await buildTestApp({ engine: engine.client })
  const get = async (url: string) => await t.app.inject({ url: `/api/v1.0${url}`, headers: AUTH })
  return { t, get }
}

describe('GET /api/v1.0/workflows', () => {
  it('lists the engine\'s runs as workflows named after their workflow and date; 400 for a since that is no date', async () => {
    const { get } = await appWithRun()
    const list = await get('/workflows?since=P1D')
    expect(list.statusCode).toBe(200)
    expect(list.json()).toEqual([expect.objectContaining({
      workflow_id: `deploy_site__${DATE}`, dag_id: 'deploy_site', run_id: RUN_ID, state: 'running', external_trigger: true
    })])
    const bad = await get('/workflows?since=yesterday')
    expect(bad.statusCode).toBe(400)
    expect(bad.json()).toMatchObject({ status: 'Failure', message: 'Invalid since parameter' })
  })
})

describe('GET /api/v1.0/workflows/{id}', () => {
  it('answers the run with its steps in step order and its task groups as sub-workflows, each with its own steps', async () => {
    const { get } = await appWithRun()
    const detail = (await get(`/workflows/deploy_site__${DATE}`)).json()
    expect(detail).toMatchObject({ workflow_id: `deploy_site__${DATE}`, dag_id: 'deploy_site', run_id: RUN_ID, state: 'running' })
    expect(detail.steps.map((s: { task_id: string }) => s.task_id)).toEqual([
      'action_xcom', 'preflight.ucp_preflight_check', 'validate_site_design.deckhand_validate_site_design',
      'validate_site_design.armada_validate_site_design', 'drydock_build.verify_site'
    ])
    // sub-workflows derived from the task groups, in the step order of their first task; a group ended when all its
    // steps did, at the last one's end
    expect(detail.sub_dags.map((s: Record<string, unknown>) => [s.workflow_id, s.state, s.end_date])).toEqual([
      [`deploy_site.preflight__${DATE}`, 'success', '2026-11-26 10:00:04.000000'],
      [`deploy_site.validate_site_design__${DATE}`, 'success', '2026-11-26 10:00:08.000000'],
      [`deploy_site.drydock_build__${DATE}`, 'running', null]
    ])
    for (const sub of detail.sub_dags) {
      expect(sub).toMatchObject({ run_id: RUN_ID, execution_date: detail.execution_date, external_trigger: false })
    }
    const preflight = await get(`/workflows/deploy_site.preflight__${DATE}`)
    expect(preflight.statusCode).toBe(200)
    expect(preflight.json()).toEqual({ ...detail.sub_dags[0], steps: [detail.steps[1]], sub_dags: [] })
  })

  it('answers 400 for an id without a date and 404 for a date or group with no run', async () => {
    const { get } = await appWithRun()
    const malformed = await get('/workflows/nounderscores')
    expect(malformed.statusCode).toBe(400)
    expect(malformed.json()).toMatchObject({ status: 'Failure', message: 'Invalid Workflow ID specified' })
    for (const id of [`deploy_site.nothing__${DATE}`, 'deploy_site__2001-01-01T00:00:00.000000']) {
      const missing = await get(`/workflows/${id}`)
      expect(missing.statusCode, id).toBe(404)
      expect(missing.json()).toMatchObject({ status: 'Failure', message: 'Workflow not found' })
    }
  })
})
