// deploy_site from POST /actions to Complete on the real Airflow: its 17 steps in step order, each successful, one
// try each but for the step made to fail once (the stack's injection file), which succeeds on its retry; times that
// follow the workflow's dependencies and the durations the engine reports; one step alone; a step's log per try.
import { expect, it } from 'vitest'
import type { RealStack } from '../helpers/real-stack.ts'
import { recordFigure, seconds } from '../helpers/figures.ts'
import type { StepDetail } from '../helpers/api.ts'
import { at, engineDuration, lasted } from '../helpers/durations.ts'

export const DEPLOY_SITE_STEPS = [
  'action_xcom', 'dag_concurrency_check', 'preflight.ucp_preflight_check', 'deployment_configuration', 'get_rendered_doc',
  'validate_site_design.deckhand_validate_site_design', 'validate_site_design.drydock_validate_site_design',
  'validate_site_design.promenade_validate_site_design', 'validate_site_design.armada_validate_site_design', 'deployment_status',
  'drydock_build.verify_site', 'drydock_build.prepare_site', 'drydock_build.prepare_and_deploy_nodes',
  'armada_build.armada_post_apply', 'armada_build.armada_get_releases', 'create_action_tag', 'final_deployment_status'
]
const RETRIED = 'armada_build.armada_post_apply'

export interface Deployed { id: string, steps: Map<string, StepDetail> }

/** Registers the deploy_site scenario; `done` receives the finished action for the scenarios that read it. */
export function deployScenario (real: RealStack, done: (deployed: Deployed) => void): void {
  it('runs deploy_site from POST /actions to Complete: 17 steps in order, all successful, one retried', async () => {
    const { api } = real
    const started = Date.now()
    const { id, action } = await real.injecting({ fail: 'deploy_site/armada_post_apply=1' }, async () => {
      const id = await api.create('deploy_site')
      return { id, action: await api.finished(id, 300_000) }
    })
    const wallMs = Date.now() - started
    recordFigure('deploy_site wall time', seconds(wallMs))

    expect(action.action_lifecycle, real.tail()).toBe('Complete')
    expect(action.dag_status).toBe('success')
    expect(action.parameters).toEqual({})
    expect(action.steps.map((s) => s.id)).toEqual(DEPLOY_SITE_STEPS)
    expect(action.steps.map((s) => s.index)).toEqual(DEPLOY_SITE_STEPS.map((_, i) => i + 1))
    expect(action.steps.map((s) => s.state)).toEqual(DEPLOY_SITE_STEPS.map(() => 'success'))
    expect(action.steps[0]!.url).toBe(`/actions/${id}/steps/action_xcom`)

    const steps = new Map<string, StepDetail>()
    for (const stepId of DEPLOY_SITE_STEPS) steps.set(stepId, await api.step(id, stepId))
    for (const [stepId, step] of steps) {
      expect(step, stepId).toMatchObject({ task_id: stepId, dag_id: 'deploy_site', state: 'success', try_number: stepId === RETRIED ? 2 : 1 })
      expect(lasted(step), stepId).toBeGreaterThan(0)
      expect(step.duration, stepId).toBeCloseTo(engineDuration(step), 2)
    }
    // the engine ran them as the workflow orders them: each starts after what it waits for has ended
    const after = (later: string, earlier: string): void => {
      expect(at(steps.get(later)!.start_date) >= at(steps.get(earlier)!.end_date), `${later} after ${earlier}`).toBe(true)
    }
    const chain = ['action_xcom', 'deployment_configuration', 'get_rendered_doc', 'validate_site_design.deckhand_validate_site_design',
      'drydock_build.verify_site', 'drydock_build.prepare_site', 'drydock_build.prepare_and_deploy_nodes', RETRIED,
      'armada_build.armada_get_releases', 'create_action_tag', 'final_deployment_status']
    chain.slice(1).forEach((stepId, i) => { after(stepId, chain[i]!) })
    after('preflight.ucp_preflight_check', 'action_xcom')
    // the whole run lasts at least as long as that chain of steps one after another
    expect(wallMs).toBeGreaterThan(chain.reduce((sum, s) => sum + lasted(steps.get(s)!), 0))

    const nodes = await real.nodes()
    expect([...nodes.keys()].sort()).toEqual(['n0', 'n1', 'n2', 'n3'])
    expect([...nodes.values()].map((n) => `${n.status}/${n.power}`)).toEqual(['Deployed/on', 'Deployed/on', 'Deployed/on', 'Deployed/on'])
    done({ id, steps })
  })
}

/** One step alone, by its engine id and by its bare name, and the logs of the retried step per try. */
export function stepScenario (real: RealStack, deployed: () => Deployed): void {
  it('answers one step by id and by bare name, and a step\'s log per try', async () => {
    const { api } = real
    const { id, steps } = deployed()
    const one = await api.step(id, RETRIED)
    expect(one).toEqual(steps.get(RETRIED))
    expect(one.operator).toBe('ArmadaPostApplyOperator')
    expect(await api.step(id, 'armada_post_apply')).toEqual(one)
    const unknown = await api.call('GET', `/actions/${id}/steps/no_such_step`)
    expect(unknown.status).toBe(404)
    expect(unknown.json()).toMatchObject({ message: 'Step not found', reason: 'Unknown step no_such_step' })

    const first = await api.log(id, RETRIED, 1)
    expect(first).toContain('Injected failure of try 1')
    expect(first).toMatch(/Traceback \(most recent call last\)/)
    const last = await api.log(id, RETRIED)
    expect(last).not.toContain('Injected failure')
    expect(last).toContain('Armada apply of manifest full-site')
    expect(await api.log(id, RETRIED, 2)).toBe(last)
    const beyond = await api.call('GET', `/actions/${id}/steps/${RETRIED}/logs?try=3`)
    expect(beyond.status).toBe(404)
    expect(beyond.json()).toMatchObject({ message: 'Step Not Found!', reason: `Step ${RETRIED} has no try 3 (tries: 2)` })
    // a site step's log holds what it did over the peers' protocols: Drydock's tasks, group by group
    const nodesLog = await api.log(id, 'drydock_build.prepare_and_deploy_nodes')
    expect(nodesLog).toMatch(/Drydock deploy_nodes task \S+ created for n0/)
    expect(nodesLog).toContain('Group summary: control-plane [critical] DEPLOYED; workers DEPLOYED')
    expect(nodesLog).toContain('Nodes DEPLOYED: n0, n1, n2, n3')
    expect(await api.log(id, 'final_deployment_status')).toMatch(/ConfigMap ucp\/deployment-status (created|updated): status completed, results successful/)
  })
}
