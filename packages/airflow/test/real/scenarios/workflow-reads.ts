// GET /workflows and GET /workflows/{id} over the real engine's runs: the deploy_site run listed, its detail with
// every step and the task groups derived as sub-workflows, and one sub-workflow read alone.
import { expect, it } from 'vitest'
import type { RealStack } from '../helpers/real-stack.ts'
import { DEPLOY_SITE_STEPS, type Deployed } from './deploy.ts'

interface Workflow {
  workflow_id: string
  dag_id: string
  run_id: string
  execution_date: string
  start_date: string | null
  end_date: string | null
  state: string | null
  external_trigger: boolean
}
interface WorkflowDetail extends Workflow {
  steps: Array<{ task_id: string, state: string | null, try_number: number }>
  sub_dags: Workflow[]
}

const GROUPS = ['preflight', 'validate_site_design', 'drydock_build', 'armada_build']

export function workflowReadsScenario (real: RealStack, deployed: () => Deployed): void {
  it('lists the deploy_site run in GET /workflows and details it with its task groups as sub-workflows', async () => {
    const { api } = real
    const { id } = deployed()
    const list = await api.call('GET', '/workflows')
    expect(list.status, list.text).toBe(200)
    const run = list.json<Workflow[]>().find((w) => w.run_id === id)
    expect(run, list.text).toMatchObject({ dag_id: 'deploy_site', state: 'success', external_trigger: true })
    expect(run!.workflow_id).toMatch(/^deploy_site__\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}$/)
    const date = run!.workflow_id.slice('deploy_site__'.length)

    const detail = await api.call('GET', `/workflows/${run!.workflow_id}`)
    expect(detail.status, detail.text).toBe(200)
    const body = detail.json<WorkflowDetail>()
    expect(body).toMatchObject({ workflow_id: run!.workflow_id, dag_id: 'deploy_site', run_id: id, state: 'success' })
    expect(body.steps.map((s) => s.task_id)).toEqual(DEPLOY_SITE_STEPS)
    expect(body.steps.map((s) => s.state)).toEqual(DEPLOY_SITE_STEPS.map(() => 'success'))
    expect(body.sub_dags.map((w) => w.workflow_id)).toEqual(GROUPS.map((g) => `deploy_site.${g}__${date}`))
    expect(body.sub_dags.map((w) => [w.dag_id, w.state, w.external_trigger])).toEqual(GROUPS.map((g) => [`deploy_site.${g}`, 'success', false]))
    for (const sub of body.sub_dags) {
      expect(sub.start_date, sub.dag_id).not.toBeNull()
      expect(sub.end_date! >= sub.start_date!, sub.dag_id).toBe(true)
    }

    const group = await api.call('GET', `/workflows/deploy_site.drydock_build__${date}`)
    expect(group.status, group.text).toBe(200)
    const alone = group.json<WorkflowDetail>()
    expect(alone).toMatchObject({
      workflow_id: `deploy_site.drydock_build__${date}`, dag_id: 'deploy_site.drydock_build', run_id: id, state: 'success', sub_dags: []
    })
    expect(alone.steps.map((s) => s.task_id)).toEqual(['drydock_build.verify_site', 'drydock_build.prepare_site', 'drydock_build.prepare_and_deploy_nodes'])
    const drydock = body.sub_dags[2]!
    expect([alone.start_date, alone.end_date]).toEqual([drydock.start_date, drydock.end_date])

    const missing = await api.call('GET', `/workflows/deploy_site.no_such_group__${date}`)
    expect(missing.status).toBe(404)
    expect(missing.json()).toMatchObject({ message: 'Workflow not found' })
  })
}
