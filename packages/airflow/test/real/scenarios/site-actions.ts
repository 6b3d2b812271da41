// The other five workflows to their end on the real Airflow, each step over its peer's own protocol: update_site and
// update_software (the upgrade branch skipped: Armada's apply changed nothing), redeploy_server (drained, destroyed,
// deployed again) and relabel_nodes (Drydock's task) touching only the node they name (the site stand-in's
// resourceVersion of every other node unchanged), and test_site (Armada's release tests).
import { expect, it } from 'vitest'
import type { Action } from '../helpers/api.ts'
import type { RealStack } from '../helpers/real-stack.ts'

const UPGRADE_TAIL = ['decide_airflow_upgrade', 'upgrade_airflow', 'skip_upgrade_airflow', 'create_action_tag', 'final_deployment_status']
const VALIDATE_ALL = ['deckhand', 'drydock', 'promenade', 'armada'].map((v) => `validate_site_design.${v}_validate_site_design`)

export const STEPS: Record<string, string[]> = {
  update_site: [
    'action_xcom', 'dag_concurrency_check', 'preflight.ucp_preflight_check', 'deployment_configuration', 'get_rendered_doc', ...VALIDATE_ALL,
    'deployment_status', 'drydock_build.verify_site', 'drydock_build.prepare_site', 'drydock_build.verify_nodes_exist',
    'drydock_build.prepare_and_deploy_nodes', 'armada_build.armada_post_apply', 'armada_build.armada_get_releases', ...UPGRADE_TAIL
  ],
  update_software: [
    'action_xcom', 'dag_concurrency_check', 'deployment_configuration', 'validate_site_design.deckhand_validate_site_design',
    'validate_site_design.armada_validate_site_design', 'deployment_status', 'armada_build.armada_post_apply', 'armada_build.armada_get_releases',
    ...UPGRADE_TAIL
  ],
  redeploy_server: [
    'action_xcom', 'dag_concurrency_check', 'deployment_configuration', ...VALIDATE_ALL.filter((v) => !v.includes('armada')), 'destroy_nodes',
    'drydock_build.verify_site', 'drydock_build.prepare_site', 'drydock_build.prepare_and_deploy_nodes'
  ],
  relabel_nodes: [
    'action_xcom', 'dag_concurrency_check', 'preflight.ucp_preflight_check', 'get_rendered_doc', 'deployment_configuration', ...VALIDATE_ALL, 'relabel_nodes'
  ],
  test_site: ['action_xcom', 'preflight.ucp_preflight_check', 'deployment_configuration', 'armada_test_releases']
}

/** Runs one action to its end and holds it to its workflow's steps: every one successful but the skipped branch. */
async function runToComplete (real: RealStack, name: string, parameters: Record<string, unknown> = {}): Promise<Action> {
  const id = await real.api.create(name, parameters)
  const done = await real.api.finished(id, 300_000)
  expect(done.action_lifecycle, `${name}: ${real.tail()}`).toBe('Complete')
  expect(done.dag_status).toBe('success')
  expect(done.steps.map((s) => s.id), name).toEqual(STEPS[name])
  const skipped = name.startsWith('update_') ? ['upgrade_airflow'] : []
  expect(done.steps.map((s) => s.state), name).toEqual(STEPS[name]!.map((s) => skipped.includes(s) ? 'skipped' : 'success'))
  return done
}

const versions = (nodes: Map<string, { resourceVersion: string }>): Record<string, string> =>
  Object.fromEntries([...nodes.entries()].map(([name, n]) => [name, n.resourceVersion]))

export function siteActionsScenario (real: RealStack): void {
  it('runs update_site and update_software to Complete, the upgrade branch skipped', async () => {
    for (const name of ['update_site', 'update_software']) {
      const done = await runToComplete(real, name)
      expect((await real.api.step(done.id, 'decide_airflow_upgrade')).operator).toBe('BranchPythonOperator')
      expect(await real.api.log(done.id, 'decide_airflow_upgrade')).toContain('Following branch skip_upgrade_airflow')
    }
  })

  it('redeploys only the node named in target_nodes', async () => {
    const before = await real.nodes()
    const done = await runToComplete(real, 'redeploy_server', { target_nodes: ['n2'] })
    expect(done.parameters).toEqual({ target_nodes: ['n2'] })
    // cordoned and drained through the Kubernetes eviction API, labels cleared, destroyed by Drydock, decommissioned
    const destroyed = await real.api.log(done.id, 'destroy_nodes')
    for (const line of ['Node n2 cordoned', 'Node n2 drained', 'Labels of n2 cleared', 'Node n2 decommissioned']) expect(destroyed).toContain(line)
    expect(destroyed).toMatch(/Evicted ucp\//)
    expect(destroyed).toMatch(/Drydock destroy_nodes task \S+ created for n2/)
    expect(await real.api.log(done.id, 'drydock_build.prepare_and_deploy_nodes')).toMatch(/Drydock deploy_nodes task \S+ created for n2/)
    const after = await real.nodes()
    expect(after.get('n2')).toMatchObject({ status: 'Deployed', power: 'on' })
    // back in the cluster with its design's labels
    expect(after.get('n2')!.labels).toMatchObject({ 'node-role': 'worker' })
    expect(Number(after.get('n2')!.resourceVersion)).toBeGreaterThan(Number(before.get('n2')!.resourceVersion))
    const untouched = ['n0', 'n1', 'n3']
    const of = (nodes: Map<string, { resourceVersion: string }>): Record<string, string | undefined> =>
      Object.fromEntries(untouched.map((n) => [n, versions(nodes)[n]]))
    expect(of(after)).toEqual(of(before))
  })

  it('relabels only the node named in target_nodes (the comma-separated form)', async () => {
    // a label n1's design does not give it: Drydock's relabel_nodes sets the design's and drops it
    await real.patchNode('n1', { metadata: { labels: { 'slipway.io/stray': 'yes' } } })
    const before = await real.nodes()
    const done = await runToComplete(real, 'relabel_nodes', { target_nodes: 'n1' })
    expect(await real.api.log(done.id, 'relabel_nodes')).toMatch(/Drydock relabel_nodes task \S+ created for n1[\s\S]*Relabelled n1/)
    const after = await real.nodes()
    expect(after.get('n1')!.labels).not.toHaveProperty('slipway.io/stray')
    expect(after.get('n1')!.labels).toMatchObject({ 'node-role': 'worker' })
    expect(Number(after.get('n1')!.resourceVersion)).toBeGreaterThan(Number(before.get('n1')!.resourceVersion))
    for (const other of ['n0', 'n2', 'n3']) {
      expect(after.get(other), other).toEqual(before.get(other))
    }
  })

  it('runs test_site to Complete', async () => {
    const done = await runToComplete(real, 'test_site')
    expect(await real.api.log(done.id, 'armada_test_releases')).toMatch(/Tests of \d+ release\(s\) passed/)
  })
}
