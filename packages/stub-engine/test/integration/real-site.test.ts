// The engine on a real stub-site (no store, no bootstrap service): the site steps move the site's own nodes and
// their lines land in the task logs, a step the site fails fails the task, and the service token opens the site.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it, onTestFinished } from 'vitest'
import { loadConfig as siteConfig, startSite } from '@slipway/stub-site'
import { startTestEngine, stateOf } from '../helpers/engine.ts'

async function realSite () {
  const dir = mkdtempSync(join(tmpdir(), 'stub-engine-site-'))
  onTestFinished(() => { rmSync(dir, { recursive: true, force: true }) })
  writeFileSync(join(dir, 'nodes.yaml'), 'nodes:\n  - hostname: n1\n  - hostname: n2\n')
  const site = await startSite(siteConfig({ HOST: '127.0.0.1', PORT: '0', SITE_NODES_FILE: join(dir, 'nodes.yaml'), SITE_AUTH_TOKENS: 'svc-token' }), { logger: false })
  onTestFinished(async () => { await site.close() })
  const nodes = async (): Promise<Record<string, string>> => {
    const list = await (await fetch(`${site.url}/api/v1.0/nodes`, { headers: { 'x-auth-token': 'svc-token' } })).json() as Array<{ hostname: string, status_name: string, power_state: string }>
    return Object.fromEntries(list.map((n) => [n.hostname, `${n.status_name}/${n.power_state}`]))
  }
  return { site, nodes }
}

const conf = (action: Record<string, unknown> = {}) => ({
  action: { id: 'ACT', name: 'deploy_site', parameters: {}, user: 'operator1', committed_rev_id: 7, ...action },
  design_ref: 'deckhand+http://127.0.0.1:1/api/v1.0/revisions/7/rendered-documents'
})

describe('the engine on a real stub-site', () => {
  it('deploys every node through the site\'s step endpoint, the site\'s lines in the task logs', async () => {
    const { site, nodes } = await realSite()
    const engine = await startTestEngine({ SITE_URL: site.url, SERVICE_TOKEN: 'svc-token' })
    await engine.trigger('deploy_site', 'ACT', conf())
    expect((await engine.waitRun('deploy_site', 'ACT')).state).toBe('success')
    expect(await nodes()).toEqual({ n1: 'Deployed/on', n2: 'Deployed/on' })
    const log = async (task: string) => (await engine.call('GET', `/api/v2/dags/deploy_site/dagRuns/ACT/taskInstances/${task}/logs/1?full_content=true`)).body.content as Array<{ level: string, event: string }>
    expect(await log('drydock_build.prepare_and_deploy_nodes')).toEqual(expect.arrayContaining([
      expect.objectContaining({ level: 'info', event: 'Provisioning 2 node(s): n1, n2' }),
      expect.objectContaining({ level: 'info', event: 'Nodes now Deployed (power on)' })
    ]))
    expect(await log('create_action_tag')).toContainEqual(expect.objectContaining({
      level: 'warning', event: 'No store configured (STORE_URL empty or none): skipped tagging revision 7 site-action-success'
    }))
  })

  it('fails redeploy_server\'s node task for a node the site does not know, and a wrong token fails every site task', async () => {
    const { site } = await realSite()
    const engine = await startTestEngine({ SITE_URL: site.url, SERVICE_TOKEN: 'svc-token' })
    await engine.trigger('redeploy_server', 'R1', conf({ name: 'redeploy_server', parameters: { target_nodes: 'ghost' } }))
    expect((await engine.waitRun('redeploy_server', 'R1')).state).toBe('failed')
    expect(stateOf(await engine.tis('redeploy_server', 'R1'))).toMatchObject({ destroy_nodes: 'failed', 'drydock_build.verify_site': 'upstream_failed' })
    const lines = (await engine.call('GET', '/api/v2/dags/redeploy_server/dagRuns/R1/taskInstances/destroy_nodes/logs/1?full_content=true')).body.content as Array<{ event: string }>
    expect(lines.map((l) => l.event)).toContain('Node ghost is not known to the site')

    const stranger = await startTestEngine({ SITE_URL: site.url, SERVICE_TOKEN: 'wrong' })
    await stranger.trigger('test_site', 'T1', conf({ name: 'test_site' }))
    expect((await stranger.waitRun('test_site', 'T1')).state).toBe('failed')
    expect(stateOf(await stranger.tis('test_site', 'T1'))['preflight.ucp_preflight_check']).toBe('failed')
  })
})
