// Side effects of the workflows on the site, the bootstrap service and the store, over HTTP to fake targets
// (paths and bodies as stub-site, bootstrap and Deckhand offer them), and skipped targets logged in the task log.
import { describe, expect, it } from 'vitest'
import { startTestEngine, stateOf, type TestEngine } from '../helpers/engine.ts'
import { startTargets, type FakeTargets } from '../helpers/targets.ts'

const MARKER = '6b0c7f36-43f2-4d3a-9a56-0d36e6f1f0aa'

function conf (targets: FakeTargets, action: Record<string, unknown> = {}) {
  return {
    action: { id: 'ACT', name: 'deploy_site', parameters: {}, user: 'operator1', context_marker: MARKER, committed_rev_id: 7, ...action },
    design_ref: `deckhand+${targets.storeUrl}/revisions/7/rendered-documents`
  }
}

async function engineWith (targets: FakeTargets, env: Record<string, string> = {}): Promise<TestEngine> {
  return await startTestEngine({ SITE_URL: targets.siteUrl, BOOTSTRAP_URL: targets.bootstrapUrl, STORE_URL: targets.storeUrl, SERVICE_TOKEN: 'svc-token', ...env })
}

async function logText (engine: TestEngine, dag: string, run: string, task: string, tryNumber = 1): Promise<string> {
  const reply = await engine.call('GET', `/api/v2/dags/${dag}/dagRuns/${run}/taskInstances/${task}/logs/${tryNumber}?full_content=true`)
  expect(reply.status).toBe(200)
  return reply.body.content.map((l: { event: string }) => l.event).join('\n')
}

describe('deploy_site side effects', () => {
  it('moves every node through Prepare, Deploying, Deployed, validates the design and tags the revision', async () => {
    const targets = await startTargets(['n1', 'n2'])
    const engine = await engineWith(targets)
    await engine.trigger('deploy_site', 'ACT', conf(targets))
    expect((await engine.waitRun('deploy_site', 'ACT')).state).toBe('success')

    for (const node of ['n1', 'n2']) {
      expect(targets.history.get(node)).toEqual(['Ready', 'Allocated', 'Deploying', 'Deployed'])
      expect(targets.nodes.get(node)!.power_state).toBe('on')
    }
    const validate = targets.calls.find((c) => c.path === '/bootstrap/validatedesign')!
    expect(validate.body).toEqual({ rel: 'design', href: `deckhand+${targets.storeUrl}/revisions/7/rendered-documents`, type: 'application/x-yaml' })
    expect(targets.calls.some((c) => c.method === 'GET' && c.path === '/store/revisions/7/validations')).toBe(true)
    expect(targets.calls.some((c) => c.method === 'GET' && c.path === '/store/revisions/7/rendered-documents')).toBe(true)
    expect(targets.tags).toEqual([{ revision: 7, tag: 'site-action-success' }])
    for (const call of targets.calls) {
      expect(call.headers['x-auth-token']).toBe('svc-token')
      expect(call.headers['x-context-marker']).toBe(MARKER)
      expect(call.headers['x-end-user']).toBe('operator1')
    }
    const log = await logText(engine, 'deploy_site', 'ACT', 'drydock_build.prepare_and_deploy_nodes')
    expect(log).toContain('Provisioning 2 node(s): n1, n2')
    expect(log).toContain('Nodes now Deployed (power on)')
  })

  it('fails validation when the bootstrap service rejects the design: retried once, build upstream_failed, failure tag', async () => {
    const targets = await startTargets(['n1'])
    targets.options.designValid = false
    const engine = await engineWith(targets)
    await engine.trigger('deploy_site', 'ACT', conf(targets))
    expect((await engine.waitRun('deploy_site', 'ACT')).state).toBe('success')
    const tis = await engine.tis('deploy_site', 'ACT')
    expect(stateOf(tis)).toMatchObject({
      'validate_site_design.promenade_validate_site_design': 'failed',
      'validate_site_design.deckhand_validate_site_design': 'success',
      'drydock_build.verify_site': 'upstream_failed',
      'armada_build.armada_get_releases': 'upstream_failed',
      create_action_tag: 'success'
    })
    expect(tis.find((t) => t.task_id === 'validate_site_design.promenade_validate_site_design')).toMatchObject({ state: 'failed', try_number: 2 })
    expect(await logText(engine, 'deploy_site', 'ACT', 'validate_site_design.promenade_validate_site_design', 2)).toContain('There are 0 Docker documents')
    expect(targets.history.get('n1')).toEqual(['Ready'])
    expect(targets.tags).toEqual([{ revision: 7, tag: 'site-action-failure' }])
  })

  it('fails deckhand validation when the store reports a failed validation', async () => {
    const targets = await startTargets(['n1'])
    targets.options.validationStatus = 'failure'
    const engine = await engineWith(targets)
    await engine.trigger('relabel_nodes', 'ACT', conf(targets))
    expect((await engine.waitRun('relabel_nodes', 'ACT')).state).toBe('failed')
    expect(stateOf(await engine.tis('relabel_nodes', 'ACT'))).toMatchObject({ 'validate_site_design.deckhand_validate_site_design': 'failed', relabel_nodes: 'upstream_failed' })
  })
})

describe('targeted workflows', () => {
  it('relabel_nodes sets each target node\'s labels from the design\'s owner_data, or the fixed set', async () => {
    const targets = await startTargets(['n1', 'n2', 'n3'])
    targets.options.documents = [
      '---\nschema: drydock/BaremetalNode/v1\nmetadata: {name: n2, schema: metadata/Document/v1}\ndata:\n  metadata:\n    owner_data: {openstack-control-plane: enabled, ucp-control-plane: enabled}\n',
      '---\nschema: drydock/BaremetalNode/v1\nmetadata: {name: n3, schema: metadata/Document/v1}\ndata: {}\n'
    ].join('')
    const engine = await engineWith(targets)
    await engine.trigger('relabel_nodes', 'ACT', conf(targets, { name: 'relabel_nodes', parameters: { target_nodes: 'n2,n3' } }))
    expect((await engine.waitRun('relabel_nodes', 'ACT')).state).toBe('success')
    expect(Object.fromEntries(targets.labels)).toEqual({
      n2: { 'openstack-control-plane': 'enabled', 'ucp-control-plane': 'enabled' },
      n3: { 'slipway.io/relabeled': 'true' }
    })
  })

  it('redeploy_server powers the target node off, then provisions it again; other nodes are untouched', async () => {
    const targets = await startTargets(['n1', 'n2'])
    const engine = await engineWith(targets)
    await engine.trigger('redeploy_server', 'ACT', conf(targets, { name: 'redeploy_server', parameters: { target_nodes: 'n2' } }))
    expect((await engine.waitRun('redeploy_server', 'ACT')).state).toBe('success')
    expect(targets.history.get('n2')).toEqual(['Ready', 'Ready', 'Allocated', 'Deploying', 'Deployed'])
    const powerOff = targets.calls.find((c) => c.method === 'PUT' && c.path === '/site/_stub/nodes/n2/state')
    expect(powerOff?.body).toEqual({ status_name: 'Ready', power_state: 'off' })
    expect(targets.history.get('n1')).toEqual(['Ready'])
  })

  it('fails the node task of a targeted workflow whose target_nodes is a list or missing, saying why', async () => {
    const targets = await startTargets(['n1', 'n2'])
    const engine = await engineWith(targets)
    for (const [runId, parameters, got] of [['L1', { target_nodes: ['n2'] }, 'a list'], ['L2', {}, 'nothing']] as const) {
      await engine.trigger('redeploy_server', runId, conf(targets, { name: 'redeploy_server', parameters }))
      expect((await engine.waitRun('redeploy_server', runId)).state).toBe('failed')
      expect(stateOf(await engine.tis('redeploy_server', runId))).toMatchObject({ destroy_nodes: 'failed', 'drydock_build.verify_site': 'upstream_failed' })
      expect(await logText(engine, 'redeploy_server', runId, 'destroy_nodes')).toContain(`target_nodes must be a comma-separated string of node names, got ${got}`)
    }
    expect(targets.history.get('n1')).toEqual(['Ready'])
    expect(targets.history.get('n2')).toEqual(['Ready'])
  })

  it('fails a targeted workflow for a target node the site does not know', async () => {
    const targets = await startTargets(['n1'])
    const engine = await engineWith(targets)
    await engine.trigger('redeploy_server', 'ACT', conf(targets, { name: 'redeploy_server', parameters: { target_nodes: 'n1,ghost' } }))
    expect((await engine.waitRun('redeploy_server', 'ACT')).state).toBe('failed')
    expect(await logText(engine, 'redeploy_server', 'ACT', 'destroy_nodes')).toContain('Node ghost is not known to the site')
  })

  it('update_site checks that every node of the site exists before provisioning', async () => {
    const targets = await startTargets(['n1', 'n2'])
    const engine = await engineWith(targets)
    await engine.trigger('update_site', 'ACT', conf(targets, { name: 'update_site' }))
    expect((await engine.waitRun('update_site', 'ACT')).state).toBe('success')
    expect(await logText(engine, 'update_site', 'ACT', 'drydock_build.verify_nodes_exist')).toContain('Every target node exists')
    expect(targets.history.get('n2')).toEqual(['Ready', 'Allocated', 'Deploying', 'Deployed'])
  })
})

describe('unconfigured targets', () => {
  it('skips each side effect with a log line in the task\'s log', async () => {
    const engine = await startTestEngine()
    await engine.trigger('deploy_site', 'ACT', { action: { id: 'ACT', committed_rev_id: 3 }, design_ref: 'deckhand+http://store/api/v1.0/revisions/3/rendered-documents' })
    expect((await engine.waitRun('deploy_site', 'ACT')).state).toBe('success')
    expect(await logText(engine, 'deploy_site', 'ACT', 'drydock_build.prepare_and_deploy_nodes')).toContain('No site configured (SITE_URL empty or none): skipped node provisioning')
    expect(await logText(engine, 'deploy_site', 'ACT', 'create_action_tag')).toContain('No store configured (STORE_URL empty or none): skipped tagging revision 3 site-action-success')
  })

  it('fails the task, not the engine, when a configured target is unreachable', async () => {
    const engine = await startTestEngine({ SITE_URL: 'http://127.0.0.1:9', OUTBOUND_TIMEOUT_MS: '500' })
    await engine.trigger('update_site', 'ACT', { action: { id: 'ACT' } })
    await engine.waitRun('update_site', 'ACT')
    expect(stateOf(await engine.tis('update_site', 'ACT'))['drydock_build.verify_site']).toBe('failed')
    expect(await logText(engine, 'update_site', 'ACT', 'drydock_build.verify_site')).toMatch(/site could not be reached/)
  })
})
