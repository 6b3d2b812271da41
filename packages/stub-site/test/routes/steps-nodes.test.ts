// POST /_stub/steps/{step}: the node steps on the site's own nodes (n1..n3, Ready and off): every node for the
// site-wide workflows, the named ones for the targeted workflows, and relabelling through the bootstrap service.
import { describe, expect, it } from 'vitest'
import { stepSite } from '../helpers/steps.ts'

const info = (event: string) => ({ level: 'info', event })
const warn = (event: string) => ({ level: 'warning', event })
const error = (event: string) => ({ level: 'error', event })

const redeploy = (targetNodes: unknown) => ({
  body: { dag_id: 'redeploy_server' },
  action: { name: 'redeploy_server', parameters: targetNodes === undefined ? {} : { target_nodes: targetNodes } }
})

describe('verify_site and verify_nodes_exist', () => {
  it('verify_site counts the site\'s nodes (it has no failure of its own: the site is this service)', async () => {
    const { step } = await stepSite()
    expect((await step('verify_site')).json()).toEqual({ outcome: 'success', log: [info('Site answers with 3 node(s)')] })
  })

  it('verify_nodes_exist passes for every node of a site-wide workflow, and for named nodes the site knows', async () => {
    const { step } = await stepSite()
    expect((await step('verify_nodes_exist', { body: { dag_id: 'update_site' } })).json()).toEqual({ outcome: 'success', log: [info('Every target node exists')] })
    expect((await step('verify_nodes_exist', redeploy('n1, n3'))).json()).toEqual({ outcome: 'success', log: [info('Every target node exists')] })
  })

  it('verify_nodes_exist fails naming the nodes the site does not know', async () => {
    const { step } = await stepSite()
    expect((await step('verify_nodes_exist', redeploy('n1,ghost,phantom'))).json()).toEqual({
      outcome: 'failed',
      log: [error('Nodes not known to the site: ghost, phantom')]
    })
  })
})

describe('deploy_nodes', () => {
  it('moves every node of a site-wide workflow Allocated, Deploying, Deployed with power on', async () => {
    const { step, nodes } = await stepSite()
    expect((await step('deploy_nodes')).json()).toEqual({
      outcome: 'success',
      log: [
        info('Provisioning 3 node(s): n1, n2, n3'),
        info('Nodes now Allocated (power on)'),
        info('Nodes now Deploying (power on)'),
        info('Nodes now Deployed (power on)')
      ]
    })
    expect(await nodes()).toEqual({ n1: 'Deployed/on', n2: 'Deployed/on', n3: 'Deployed/on' })
  })

  it('moves only the named nodes of a targeted workflow', async () => {
    const { step, nodes } = await stepSite()
    expect((await step('deploy_nodes', redeploy('n2'))).json().outcome).toBe('success')
    expect(await nodes()).toEqual({ n1: 'Ready/off', n2: 'Deployed/on', n3: 'Ready/off' })
  })

  it('fails for a named node the site does not know', async () => {
    const { step } = await stepSite()
    expect((await step('deploy_nodes', redeploy('ghost'))).json()).toEqual({
      outcome: 'failed',
      log: [info('Provisioning 1 node(s): ghost'), error('Node ghost is not known to the site')]
    })
  })

  it('fails a targeted workflow whose target_nodes is a list, missing, another type or names no node, moving nothing', async () => {
    const { step, nodes } = await stepSite()
    const cases: Array<[unknown, string]> = [
      [['n2'], 'target_nodes must be a comma-separated string of node names, got a list: \'split\' cannot be applied'],
      [undefined, 'target_nodes must be a comma-separated string of node names, got nothing: \'split\' cannot be applied'],
      [2, 'target_nodes must be a comma-separated string of node names, got a number: \'split\' cannot be applied'],
      [' , ', 'target_nodes names no node']
    ]
    for (const [targetNodes, message] of cases) {
      expect((await step('deploy_nodes', redeploy(targetNodes))).json()).toEqual({ outcome: 'failed', log: [error(message)] })
    }
    expect(await nodes()).toEqual({ n1: 'Ready/off', n2: 'Ready/off', n3: 'Ready/off' })
  })
})

describe('destroy_nodes', () => {
  it('releases and powers off the named node only', async () => {
    const { step, nodes } = await stepSite()
    await step('deploy_nodes')
    expect((await step('destroy_nodes', redeploy('n2'))).json()).toEqual({ outcome: 'success', log: [info('Released and powered off 1 node(s): n2')] })
    expect(await nodes()).toEqual({ n1: 'Deployed/on', n2: 'Ready/off', n3: 'Deployed/on' })
  })

  it('fails for a node the site does not know, and for a target_nodes list', async () => {
    const { step } = await stepSite()
    expect((await step('destroy_nodes', redeploy('n1,ghost'))).json()).toEqual({ outcome: 'failed', log: [error('Node ghost is not known to the site')] })
    expect((await step('destroy_nodes', redeploy(['n1']))).json().log).toEqual([
      error('target_nodes must be a comma-separated string of node names, got a list: \'split\' cannot be applied')
    ])
  })
})

describe('relabel_nodes', () => {
  const relabel = (targetNodes: unknown) => ({ body: { dag_id: 'relabel_nodes', task_id: 'relabel_nodes' }, action: { name: 'relabel_nodes', parameters: { target_nodes: targetNodes } } })

  it('labels each named node from its owner_data in the design, else with the fixed set', async () => {
    const { step, targets } = await stepSite()
    targets.options.documents = [
      '---\nschema: drydock/BaremetalNode/v1\nmetadata: {name: n2, schema: metadata/Document/v1}\ndata:\n  metadata:\n    owner_data: {openstack-control-plane: enabled, ucp-control-plane: enabled}\n',
      '---\nschema: drydock/BaremetalNode/v1\nmetadata: {name: n3, schema: metadata/Document/v1}\ndata: {}\n'
    ].join('')
    expect((await step('relabel_nodes', relabel('n2,n3'))).json()).toEqual({
      outcome: 'success',
      log: [info('Labels of n2 set: openstack-control-plane, ucp-control-plane'), info('Labels of n3 set: slipway.io/relabeled')]
    })
    expect(Object.fromEntries(targets.labels)).toEqual({
      n2: { 'openstack-control-plane': 'enabled', 'ucp-control-plane': 'enabled' },
      n3: { 'slipway.io/relabeled': 'true' }
    })
    expect(targets.calls.map((c) => `${c.method} ${c.path}`)).toEqual([
      'GET /store/revisions/7/rendered-documents', 'PUT /bootstrap/node-labels/n2', 'PUT /bootstrap/node-labels/n3'
    ])
  })

  it('fails when the bootstrap service refuses a node, after labelling the ones before it', async () => {
    const { step, targets } = await stepSite()
    targets.options.fail['PUT /bootstrap/node-labels/n3'] = 404
    expect((await step('relabel_nodes', relabel('n1,n3'))).json()).toEqual({
      outcome: 'failed',
      log: [
        info('Labels of n1 set: slipway.io/relabeled'),
        error('DownstreamError: Downstream failure: bootstrap (The bootstrap answered PUT /node-labels/n3 with 404)')
      ]
    })
  })

  it('skips without a bootstrap service', async () => {
    const { step } = await stepSite({ targets: false })
    expect((await step('relabel_nodes', relabel('n1'))).json()).toEqual({
      outcome: 'success',
      log: [warn('No bootstrap configured (BOOTSTRAP_URL empty or none): skipped node relabelling')]
    })
  })
})
