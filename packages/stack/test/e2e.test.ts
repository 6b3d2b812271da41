// The whole stack over real HTTP, started as `npm start` starts it: stage the example site in two collections,
// commit, deploy, watch, read logs and statuses, fail an update, control a running action, survive a restart.
import { readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runningStack } from './helpers/running-stack.ts'

const SITE = resolve(import.meta.dirname, '../../../examples/site')
const ADMIN = 'e2e-admin-token'
const running = runningStack({
  name: 'e2e',
  adminToken: ADMIN,
  callTimeoutMs: 20_000,
  env: {
    engine: { ENGINE_TASK_MS: '40', ENGINE_FAIL_TASKS: 'update_site/final_deployment_status', ENGINE_HANG_TASKS: 'test_site/armada_test_releases' },
    orchestrator: { TAG_POLL_INTERVAL_MS: '200' }
  }
})
const { call, until } = running

async function lifecycle (actionId: string, wanted: string[]): Promise<Record<string, unknown>> {
  return await until(`action ${actionId} to be ${wanted.join('/')}`, async () => {
    const res = await call('GET', `/actions/${actionId}`)
    const action = res.json()
    return wanted.includes(String(action.action_lifecycle)) ? action : undefined
  })
}

describe('the stack, end to end', () => {
  let committedVersion = ''
  let deployId = ''

  it('stages the example site in two collections and commits it, validated by the bootstrap service', async () => {
    const global = await call('POST', '/configdocs/global', { body: readFileSync(join(SITE, 'global.yaml'), 'utf8'), type: 'application/x-yaml' })
    expect(global.status).toBe(201)
    const site = await call('POST', '/configdocs/site?buffermode=append', { body: readFileSync(join(SITE, 'site.yaml'), 'utf8'), type: 'application/x-yaml' })
    expect(site.status).toBe(201)
    const commit = await call('POST', '/commitconfigdocs')
    expect(commit.status).toBe(200)
    expect(commit.json()).toMatchObject({ status: 'Success' })
    // both collections are committed, though the committed revision is the one that wrote only `site`
    const committedGlobal = await call('GET', '/configdocs/global?version=committed')
    expect(committedGlobal.status).toBe(200)
    expect(committedGlobal.text).toContain('name: layering-policy')
    const committed = await call('GET', '/configdocs/site?version=committed')
    expect(committed.status).toBe(200)
    committedVersion = committed.text
    const listed = await call('GET', '/configdocs?version=committed,buffer')
    expect(listed.json()).toEqual(['global', 'site'].map((name) => expect.objectContaining({ collection_name: name, base_status: 'present', new_status: 'unmodified' })))
  })

  it('runs deploy_site to Complete with every step successful, and the site shows the nodes deployed', async () => {
    const created = await call('POST', '/actions', { json: { name: 'deploy_site' } })
    expect(created.status).toBe(201)
    deployId = String(created.json().id)
    const done = await lifecycle(deployId, ['Complete', 'Failed'])
    expect(done.action_lifecycle).toBe('Complete')
    const steps = done.steps as Array<{ id: string, state: string }>
    expect(steps.length).toBeGreaterThan(10)
    expect(steps.filter((s) => !['success', 'skipped'].includes(s.state))).toEqual([])
    const nodes = await (await fetch(`${running.stack.urls.site}/api/v1.0/nodes`, { headers: { 'x-auth-token': running.stack.serviceToken } })).json() as Array<{ hostname: string, status_name: string }>
    expect(nodes.map((n) => n.hostname).sort()).toEqual(['n0', 'n1', 'n2', 'n3'])
    expect(nodes.every((n) => n.status_name === 'Deployed')).toBe(true)
  })

  it('answers site statuses and a step log, and tags the deployed revision', async () => {
    const statuses = await call('GET', '/site_statuses')
    expect(statuses.status).toBe(200)
    expect((statuses.json()['nodes-provision-status'] as unknown[]).length).toBe(4)
    const log = await call('GET', `/actions/${deployId}/steps/action_xcom/logs`)
    expect(log.status).toBe(200)
    expect(log.text.length).toBeGreaterThan(0)
    const tagged = await until('successful_site_action tag', async () => {
      const res = await call('GET', '/configdocs/site?version=successful_site_action')
      return res.status === 200 ? res : undefined
    })
    expect(tagged.text).toBe(committedVersion)
    for (const version of ['last_site_action', 'successful_site_action']) {
      expect((await call('GET', `/configdocs/global?version=${version}`)).status).toBe(200)
    }
  })

  it('ends a failure-injected update_site Failed, with the failed step\'s log', async () => {
    const created = await call('POST', '/actions', { json: { name: 'update_site' } })
    expect(created.status).toBe(201)
    const id = String(created.json().id)
    const done = await lifecycle(id, ['Complete', 'Failed'])
    expect(done.action_lifecycle).toBe('Failed')
    const failed = (done.steps as Array<{ id: string, state: string }>).find((s) => s.state === 'failed')
    expect(failed?.id).toBe('final_deployment_status')
    const log = await call('GET', `/actions/${id}/steps/final_deployment_status/logs`)
    expect(log.status).toBe(200)
    expect(log.text).toMatch(/ERROR/)
  })

  it('pauses, unpauses and stops a running action', async () => {
    const created = await call('POST', '/actions', { json: { name: 'test_site' } })
    expect(created.status).toBe(201)
    const id = String(created.json().id)
    await lifecycle(id, ['Processing'])
    expect((await call('POST', `/actions/${id}/control/pause`)).status).toBe(202)
    expect((await lifecycle(id, ['Paused'])).action_lifecycle).toBe('Paused')
    const again = await call('POST', `/actions/${id}/control/pause`)
    expect(again.status).toBe(409)
    expect(again.json()).toMatchObject({ message: 'Unable to pause action' })
    expect((await call('POST', `/actions/${id}/control/unpause`)).status).toBe(202)
    await lifecycle(id, ['Processing'])
    expect((await call('POST', `/actions/${id}/control/stop`)).status).toBe(202)
    const stopped = await lifecycle(id, ['Failed'])
    const audit = (stopped.command_audit as Array<{ command: string }>).map((a) => a.command)
    expect(audit).toEqual(['invoke', 'pause', 'unpause', 'stop'])
    expect((await call('POST', `/actions/${id}/control/stop`)).status).toBe(409)
  })

  it('completes and tags an action whose orchestrator was killed in the middle of its run', async () => {
    const created = await call('POST', '/actions', { json: { name: 'deploy_site' } })
    expect(created.status).toBe(201)
    const id = String(created.json().id)
    await running.stack.stopProcess('orchestrator', 'SIGKILL')
    await running.stack.startProcess('orchestrator')
    const done = await lifecycle(id, ['Complete', 'Failed'])
    expect(done.action_lifecycle).toBe('Complete')
    const tagged = await until('the restarted orchestrator to tag the revision', async () => {
      const res = await call('GET', '/configdocs?version=last_site_action,successful_site_action')
      const rows = res.status === 200 ? res.json() : []
      return rows.length > 0 && rows.every((r) => r.new_status === 'unmodified') ? rows : undefined
    })
    expect(tagged.length).toBe(2)
  })
})
