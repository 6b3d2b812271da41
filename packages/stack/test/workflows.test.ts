// Every site workflow to its end on the whole stack, as `npm start` runs it: each action is one engine run whose
// grouped steps are `<group>.<task>`; targeted actions touch only the nodes they name; a retried step and a failed
// run read as such through the API.
import { readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runningStack } from './helpers/running-stack.ts'

const SITE = resolve(import.meta.dirname, '../../../examples/site')
const ADMIN = 'workflows-admin-token'
const running = runningStack({
  name: 'workflows',
  adminToken: ADMIN,
  callTimeoutMs: 20_000,
  env: {
    engine: { ENGINE_TASK_MS: '20', ENGINE_RETRY_DELAY_MS: '50', ENGINE_FAIL_TASKS: 'update_software/armada_post_apply=1,test_site/armada_test_releases' },
    orchestrator: { TAG_POLL_INTERVAL_MS: '200' }
  }
})
const { call, until } = running

type Step = { id: string, index: number, state: string | null }

async function finished (actionId: string): Promise<Record<string, unknown>> {
  return await until(`action ${actionId} to end`, async () => {
    const action = (await call('GET', `/actions/${actionId}`)).json()
    return ['Complete', 'Failed'].includes(String(action.action_lifecycle)) ? action : undefined
  })
}

async function run (name: string, parameters: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
  const created = await call('POST', '/actions', { json: { name, parameters } })
  expect(created.status, created.text).toBe(201)
  return await finished(String(created.json().id))
}

async function nodes (): Promise<Map<string, { status: string, labels: Record<string, string> }>> {
  const headers = { 'x-auth-token': running.stack.serviceToken }
  const drydock = await (await fetch(`${running.stack.urls.site}/api/v1.0/nodes`, { headers })).json() as Array<{ hostname: string, status_name: string }>
  const kube = await (await fetch(`${running.stack.urls.site}/api/v1/nodes`, { headers })).json() as { items: Array<{ metadata: { name: string, labels?: Record<string, string> } }> }
  const labels = new Map(kube.items.map((n) => [n.metadata.name, n.metadata.labels ?? {}]))
  return new Map(drydock.map((n) => [n.hostname, { status: n.status_name, labels: labels.get(n.hostname) ?? {} }]))
}

async function logOf (actionId: string, step: string, tryNumber?: number): Promise<string> {
  const res = await call('GET', `/actions/${actionId}/steps/${step}/logs${tryNumber === undefined ? '' : `?try=${tryNumber}`}`)
  expect(res.status).toBe(200)
  return res.text
}

describe('the site workflows on the task-group engine', () => {
  it('stages and commits the example site', async () => {
    expect((await call('POST', '/configdocs/global', { body: readFileSync(join(SITE, 'global.yaml'), 'utf8'), type: 'application/x-yaml' })).status).toBe(201)
    expect((await call('POST', '/configdocs/site?buffermode=append', { body: readFileSync(join(SITE, 'site.yaml'), 'utf8'), type: 'application/x-yaml' })).status).toBe(201)
    expect((await call('POST', '/commitconfigdocs')).status).toBe(200)
  })

  it('runs deploy_site, update_site and update_software to Complete, update_software retrying its first armada step', async () => {
    for (const [name, count] of [['deploy_site', 17], ['update_site', 21], ['update_software', 13]] as const) {
      const done = await run(name)
      expect(done.action_lifecycle, name).toBe('Complete')
      const steps = done.steps as Step[]
      expect(steps, name).toHaveLength(count)
      expect(steps.filter((s) => !['success', 'skipped'].includes(String(s.state))), name).toEqual([])
      expect(steps.some((s) => s.id.includes('.')), name).toBe(true)
    }
    const software = ((await call('GET', '/actions')).json() as Array<Record<string, unknown>>).find((a) => a.name === 'update_software')!
    const retried = (await call('GET', `/actions/${String(software.id)}/steps/armada_build.armada_post_apply`)).json()
    expect(retried).toMatchObject({ state: 'success', try_number: 2 })
    expect(await logOf(String(software.id), 'armada_post_apply', 1)).toMatch(/Traceback \(most recent call last\)/)
    expect(await logOf(String(software.id), 'armada_post_apply')).toMatch(/Marking task as SUCCESS/)
    expect([...(await nodes()).values()].every((n) => n.status === 'Deployed')).toBe(true)
  })

  it('redeploys only the named node, and relabels only the named node', async () => {
    const before = await nodes()
    const redeploy = await run('redeploy_server', { target_nodes: ['n2'] })
    expect(redeploy.action_lifecycle).toBe('Complete')
    expect(redeploy.parameters).toEqual({ target_nodes: ['n2'] })
    const id = String(redeploy.id)
    // cordoned and drained through the Kubernetes API, labels cleared, destroyed by Drydock, removed from the cluster
    const destroyLog = await logOf(id, 'destroy_nodes')
    for (const line of ['Node n2 cordoned', 'Node n2 drained', 'Labels of n2 cleared', 'Node n2 decommissioned']) expect(destroyLog).toContain(line)
    expect(destroyLog).toMatch(/Drydock destroy_nodes task \S+ created for n2/)
    expect(await logOf(id, 'drydock_build.prepare_and_deploy_nodes')).toMatch(/Drydock deploy_nodes task \S+ created for n2/)
    expect([...(await nodes()).values()].every((n) => n.status === 'Deployed')).toBe(true)

    // a label the design does not give n1: relabelling sets the node's owner_data (node-role) and drops it
    const patched = await fetch(`${running.stack.urls.site}/api/v1/nodes/n1`, {
      method: 'PATCH',
      headers: { 'x-auth-token': running.stack.serviceToken, 'content-type': 'application/merge-patch+json' },
      body: JSON.stringify({ metadata: { labels: { 'slipway.io/stray': 'yes' } } })
    })
    expect(patched.status).toBe(200)
    const relabel = await run('relabel_nodes', { target_nodes: 'n1' })
    expect(relabel.action_lifecycle).toBe('Complete')
    expect(await logOf(String(relabel.id), 'relabel_nodes')).toMatch(/Drydock relabel_nodes task \S+ created for n1[\s\S]*Relabelled n1/)
    const after = await nodes()
    expect(after.get('n1')!.labels).toEqual(before.get('n1')!.labels)
    expect(after.get('n1')!.labels).toMatchObject({ 'node-role': 'worker' })
    for (const other of ['n0', 'n2', 'n3']) expect(after.get(other)!.labels, other).toEqual(before.get(other)!.labels)
  })

  it('ends a test_site whose test step always fails as Failed, with its failure in the step log', async () => {
    const done = await run('test_site')
    expect(done.action_lifecycle).toBe('Failed')
    const steps = done.steps as Step[]
    expect(steps.map((s) => [s.id, s.state])).toEqual([
      ['action_xcom', 'success'], ['preflight.ucp_preflight_check', 'success'], ['deployment_configuration', 'success'], ['armada_test_releases', 'failed']
    ])
    expect(await logOf(String(done.id), 'armada_test_releases')).toMatch(/AirflowException: Injected failure of try 1/)
  })
})
