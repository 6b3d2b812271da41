// Steps that fail for good on the real Airflow (the stack's injection file): an update_software whose
// armada_get_releases fails every try tags its revision site-action-failure and is Failed, though the engine calls
// its run a success (its tail, create_action_tag and final_deployment_status, runs whatever happened before it and
// succeeds); a test_site whose release tests fail in Armada (the stand-in's own fault) is Failed, its run too; a
// deploy_site with a worker that Drydock fails to deploy is Complete (its group meets its criteria), one whose
// critical node fails to prepare is Failed before its dependent group starts.
import { expect, it } from 'vitest'
import type { RealStack } from '../helpers/real-stack.ts'
import { STEPS } from './site-actions.ts'

export function failuresScenario (real: RealStack): void {
  it('tags the revision site-action-failure when update_software\'s armada_get_releases fails for good', async () => {
    const { api } = real
    const { id, revision, done } = await real.injecting({ fail: 'update_software/armada_get_releases' }, async () => {
      const created = await api.created('update_software')
      expect(created.committed_rev_id).toBeGreaterThan(0)
      expect(await real.tags(created.committed_rev_id!)).not.toContain('site-action-failure')
      return { id: created.id, revision: created.committed_rev_id!, done: await api.finished(created.id, 300_000) }
    })
    const state = Object.fromEntries(done.steps.map((s) => [s.id, s.state]))
    expect(done.steps.map((s) => s.id)).toEqual(STEPS.update_software)
    expect(state).toMatchObject({
      'armada_build.armada_post_apply': 'success',
      'armada_build.armada_get_releases': 'failed',
      decide_airflow_upgrade: 'upstream_failed',
      upgrade_airflow: 'upstream_failed',
      skip_upgrade_airflow: 'upstream_failed',
      create_action_tag: 'success',
      final_deployment_status: 'success'
    })
    expect(done.action_lifecycle).toBe('Failed')
    expect(done.dag_status).toBe('success')

    const failed = await api.step(id, 'armada_get_releases')
    expect(failed).toMatchObject({ state: 'failed', try_number: 1 })
    expect(await api.log(id, 'armada_get_releases')).toContain('Injected failure of try 1')
    expect(await api.log(id, 'create_action_tag')).toContain(`Revision ${revision} tagged site-action-failure`)
    expect(await real.tags(revision)).toContain('site-action-failure')
    // the orchestrator's own reading of the tags: the last site action ran on this revision
    const last = await api.call('GET', '/configdocs/site?version=last_site_action')
    expect(last.status, last.text).toBe(200)
  })

  it('ends a test_site whose release tests fail in Armada as Failed, the failing release named in the step\'s log', async () => {
    const { api } = real
    // the Armada stand-in's own fault: the Helm tests of Shipyard's release fail
    const { id, done } = await real.siteFault('armada/faults', { fail_apply: [], fail_tests: ['ucp-shipyard'] }, { fail_apply: [], fail_tests: [] }, async () => {
      const id = await api.create('test_site')
      return { id, done: await api.finished(id, 180_000) }
    })
    expect(done.action_lifecycle).toBe('Failed')
    expect(done.dag_status).toBe('failed')
    expect(done.steps.map((s) => [s.id, s.state])).toEqual([
      ['action_xcom', 'success'], ['preflight.ucp_preflight_check', 'success'], ['deployment_configuration', 'success'], ['armada_test_releases', 'failed']
    ])
    const log = await api.log(id, 'armada_test_releases')
    expect(log).toContain('Tests of airship-ucp-shipyard: FAILED')
    expect(log).toContain('Release tests failed: airship-ucp-shipyard')
    expect(log).toMatch(/AirflowException/)
  })

  it('deploys the site with a worker Drydock fails: the non-critical group meets its criteria, the node named', async () => {
    const { api } = real
    const done = await real.siteFault('task-faults', { fail_nodes: ['deploy_nodes:n3'] }, { fail_nodes: [] }, async () =>
      await api.finished(await api.create('deploy_site'), 300_000))
    expect(done.action_lifecycle, real.tail()).toBe('Complete')
    const log = await api.log(done.id, 'drydock_build.prepare_and_deploy_nodes')
    expect(log).toMatch(/Drydock deploy_nodes task \S+ ended complete\/partial_success: successes \[n1, n2\], failures \[n3\]/)
    expect(log).toContain('Nodes FAILED: n3')
    expect(log).toContain('Group summary: control-plane [critical] DEPLOYED; workers DEPLOYED')
  })

  it('fails deploy_site when Drydock fails the critical group\'s node: the dependent group never starts', async () => {
    const { api } = real
    const done = await real.siteFault('task-faults', { fail_nodes: ['prepare_nodes:n0'] }, { fail_nodes: [] }, async () =>
      await api.finished(await api.create('deploy_site'), 300_000))
    expect(done.action_lifecycle).toBe('Failed')
    const state = Object.fromEntries(done.steps.map((s) => [s.id, s.state]))
    expect(state).toMatchObject({ 'drydock_build.prepare_and_deploy_nodes': 'failed', 'armada_build.armada_post_apply': 'upstream_failed' })
    const log = await api.log(done.id, 'drydock_build.prepare_and_deploy_nodes')
    expect(log).toContain('Group workers fails with control-plane, which it depends on')
    expect(log).toContain('Critical deployment group(s) failed: control-plane')
    expect(log).not.toMatch(/Drydock prepare_nodes task \S+ created for n1/)
  })
}
