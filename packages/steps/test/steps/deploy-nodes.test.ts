import { describe, expect, it } from 'vitest'
import type { SuccessCriteria } from '../../src/domain/deployment-groups.ts'
import type { DrydockTaskRecord } from '../helpers/fake-peers.ts'
import { fastConfiguration, run, startSite, stepCall, strategyDocument, type Site } from '../helpers/site.ts'

const WITH_STRATEGY = stepCall({ xcom: { deployment_configuration: fastConfiguration({ 'physical_provisioner.deployment_strategy': 'my-strategy' }) } })
const NODES = ['n1', 'n2', 'n3', 'n4']

/** A site whose Drydock selects the workers by label and whose nodes all join the cluster Ready. */
async function siteWith (groups: unknown[]): Promise<Site> {
  const site = await startSite({ nodes: NODES })
  site.deckhand.documents.push(strategyDocument('my-strategy', groups))
  site.drydock.nodeFilter = (filter) => {
    const sets = (filter as { filter_set: Array<{ node_names: string[], node_labels: Record<string, string> }> }).filter_set
    return sets.flatMap((s) => s.node_labels?.role === 'worker' ? ['n3', 'n4'] : s.node_names ?? [])
  }
  return site
}

const tasks = (site: Site): Array<[string, string[]]> => site.drydock.tasks.map((t: DrydockTaskRecord) => [t.action, t.nodes])

const control = { name: 'control', critical: true, depends_on: [], selectors: [{ node_names: ['n1', 'n2'] }], success_criteria: { percent_successful_nodes: 100 } }
const workers = {
  name: 'workers', critical: false, depends_on: ['control'], selectors: [{ node_labels: ['role:worker'] }], success_criteria: { percent_successful_nodes: 100 }
}

describe('deploy_nodes (prepare_and_deploy_nodes)', () => {
  it('deploys group by group: a non-critical group failing a node does not fail the step', async () => {
    const site = await siteWith([workers, control])
    site.drydock.plan = (action, nodes) => action === 'deploy_nodes' && nodes.includes('n4')
      ? { result: 'partial_success', successes: ['n3'], failures: ['n4'] }
      : { result: 'success', successes: nodes }
    const { result, error, io } = await run('deploy_nodes', WITH_STRATEGY, site.deps)
    expect(error).toBeUndefined()
    expect(tasks(site)).toEqual([
      ['prepare_nodes', ['n1', 'n2']], ['deploy_nodes', ['n1', 'n2']], ['prepare_nodes', ['n3', 'n4']], ['deploy_nodes', ['n3', 'n4']]
    ])
    expect(result?.output).toEqual({
      groups: { control: 'DEPLOYED', workers: 'FAILED' },
      nodes: { n1: 'DEPLOYED', n2: 'DEPLOYED', n3: 'DEPLOYED', n4: 'FAILED' }
    })
    expect(io.text()).toContain('Deployment strategy my-strategy has 2 group(s)')
    expect(io.lines).toContainEqual({ event: 'Group workers missed its success criteria on the way to DEPLOYED: percent_successful_nodes: 50 < 100', level: 'error' })
    expect(io.text()).toContain('Group summary: control [critical] DEPLOYED; workers FAILED')
    expect(site.kubernetes.callsTo('GET', '/api/v1/nodes/n3')).not.toHaveLength(0)
  })

  it('fails when a critical group fails, failing its dependents without Drydock tasks', async () => {
    const site = await siteWith([control, workers])
    site.drydock.plan = (action, nodes) => action === 'prepare_nodes'
      ? { result: 'partial_success', successes: ['n2'], failures: ['n1'] }
      : { result: 'success', successes: nodes }
    const { error, io } = await run('deploy_nodes', WITH_STRATEGY, site.deps)
    expect(error?.message).toBe('Critical deployment group(s) failed: control; failed nodes: n1')
    expect(tasks(site)).toEqual([['prepare_nodes', ['n1', 'n2']]])
    expect(io.lines).toContainEqual({ event: 'Group workers fails with control, which it depends on', level: 'warning' })
    expect(io.text()).toContain('Group summary: control [critical] FAILED; workers FAILED')
  })

  it.each<[SuccessCriteria, boolean]>([
    [{ percent_successful_nodes: 75 }, true],
    [{ percent_successful_nodes: 76 }, false],
    [{ minimum_successful_nodes: 3 }, true],
    [{ minimum_successful_nodes: 4 }, false],
    [{ maximum_failed_nodes: 1 }, true],
    [{ maximum_failed_nodes: 0 }, false]
  ])('judges a critical group of four with one node failing by %j (passes: %s)', async (criteria, passes) => {
    const site = await siteWith([{ name: 'all', critical: true, depends_on: [], selectors: [{ node_names: NODES }], success_criteria: criteria }])
    site.drydock.plan = (action, nodes) => action === 'deploy_nodes'
      ? { result: 'partial_success', successes: nodes.filter((n) => n !== 'n4'), failures: ['n4'] }
      : { result: 'success', successes: nodes }
    const { error } = await run('deploy_nodes', WITH_STRATEGY, site.deps)
    if (passes) expect(error).toBeUndefined()
    else expect(error?.message).toBe('Critical deployment group(s) failed: all; failed nodes: n4')
  })

  it('fails a node that Drydock deployed but that never becomes Ready in the cluster', async () => {
    const site = await siteWith([control])
    site.kubernetes.nodes.delete('n2')
    const call = stepCall({
      xcom: {
        deployment_configuration: fastConfiguration({ 'physical_provisioner.deployment_strategy': 'my-strategy', 'kubernetes.node_status_timeout': 0.3 })
      }
    })
    const { error, io } = await run('deploy_nodes', call, site.deps)
    expect(error?.message).toBe('Critical deployment group(s) failed: control; failed nodes: n2')
    expect(io.lines).toContainEqual({ event: 'Node n2 did not join the Kubernetes cluster and become Ready in time', level: 'error' })
  })

  it('runs no deploy task for a group with no prepared node, which would select every node', async () => {
    const site = await siteWith([{ ...control, critical: false, success_criteria: undefined }])
    site.drydock.plan = (action, nodes) => action === 'prepare_nodes' ? { result: 'failure', failures: nodes } : { result: 'success', successes: nodes }
    const { error, io } = await run('deploy_nodes', WITH_STRATEGY, site.deps)
    expect(error).toBeUndefined()
    expect(tasks(site)).toEqual([['prepare_nodes', ['n1', 'n2']]])
    expect(io.lines).toContainEqual({ event: 'Group control has no prepared node to deploy', level: 'warning' })
  })

  it('deploys every node with upstream\'s default strategy when the configuration names none', async () => {
    const site = await startSite({ nodes: NODES })
    site.drydock.nodeFilter = () => NODES
    const { error, io } = await run('deploy_nodes', stepCall(), site.deps)
    expect(error).toBeUndefined()
    expect(site.drydock.callsTo('POST', '/nodefilter')[0]!.body).toMatchObject({ node_filter: null })
    expect(tasks(site)).toEqual([['prepare_nodes', NODES], ['deploy_nodes', NODES]])
    expect(io.text()).toContain('Deployment strategy all-at-once (defaulted) has 1 group(s)')
  })
})
