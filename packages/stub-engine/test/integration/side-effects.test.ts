// The engine drives the site through stub-site's step endpoint: every task that touches the site is one call of
// POST /_stub/steps/{step} (a fake site here, recording the calls), whose log lines land in the try's log and whose
// failure fails the task; the engine's own kinds never call it; an unconfigured or broken site is said in the log.
import { describe, expect, it } from 'vitest'
import { siteWorkflows } from '../../src/index.ts'
import { startTestEngine, stateOf, type TestEngine } from '../helpers/engine.ts'
import { startFakeSite, type FakeSite } from '../helpers/fake-site.ts'

const MARKER = '6b0c7f36-43f2-4d3a-9a56-0d36e6f1f0aa'
const ENGINE_KINDS = new Set(['log', 'concurrency_check', 'branch_upgrade'])

const conf = (action: Record<string, unknown> = {}) => ({
  action: { id: 'ACT', name: 'deploy_site', parameters: {}, user: 'operator1', context_marker: MARKER, committed_rev_id: 7, ...action },
  design_ref: 'deckhand+http://store.example/api/v1.0/revisions/7/rendered-documents'
})

async function engineOn (site: FakeSite, env: Record<string, string> = {}): Promise<TestEngine> {
  return await startTestEngine({ SITE_URL: site.url, SERVICE_TOKEN: 'svc-token', ...env })
}

type Line = { level: string, event: string }

async function logLines (engine: TestEngine, dag: string, run: string, task: string, tryNumber = 1): Promise<Line[]> {
  const reply = await engine.call('GET', `/api/v2/dags/${dag}/dagRuns/${run}/taskInstances/${task}/logs/${tryNumber}?full_content=true`)
  expect(reply.status).toBe(200)
  return reply.body.content.map((l: Line) => ({ level: l.level, event: l.event }))
}

describe('site steps through the step endpoint', () => {
  it('sends every site task of deploy_site as its step, with the run, the try, the conf, the task states and the context', async () => {
    const site = await startFakeSite()
    const engine = await engineOn(site)
    await engine.trigger('deploy_site', 'ACT', conf())
    expect((await engine.waitRun('deploy_site', 'ACT')).state).toBe('success')

    const dag = siteWorkflows().find((d) => d.dag_id === 'deploy_site')!
    const expected = dag.tasks.filter((t) => !ENGINE_KINDS.has(t.kind)).map((t) => `${t.task_id} ${t.kind}`).sort()
    expect(site.calls.map((c) => `${c.body.task_id} ${c.step}`).sort()).toEqual(expected)
    for (const call of site.calls) {
      expect(call.body).toMatchObject({ dag_id: 'deploy_site', run_id: 'ACT', try_number: 1, conf: conf() })
      expect(Object.keys(call.body).sort()).toEqual(['conf', 'dag_id', 'run_id', 'task_id', 'task_states', 'try_number'])
      expect(call.headers).toMatchObject({ 'x-auth-token': 'svc-token', 'x-context-marker': MARKER, 'x-end-user': 'operator1' })
    }
    // the tag step sees how the tasks it watches ended
    const tag = site.calls.find((c) => c.step === 'create_action_tag')!
    expect(tag.body.task_states).toMatchObject({ 'armada_build.armada_get_releases': 'success', create_action_tag: 'running' })
  })

  it('puts the answer\'s log lines into the try\'s log at their levels', async () => {
    const site = await startFakeSite()
    site.answers.set('deploy_nodes', () => ({
      outcome: 'success',
      log: [{ level: 'info', event: 'Provisioning 2 node(s): n1, n2' }, { level: 'warning', event: 'n2 is slow' }, { level: 'info', event: 'Nodes now Deployed (power on)' }]
    }))
    const engine = await engineOn(site)
    await engine.trigger('deploy_site', 'ACT', conf())
    await engine.waitRun('deploy_site', 'ACT')
    const lines = await logLines(engine, 'deploy_site', 'ACT', 'drydock_build.prepare_and_deploy_nodes')
    const at = lines.findIndex((l) => l.event === 'Provisioning 2 node(s): n1, n2')
    expect(lines.slice(at, at + 3)).toEqual([
      { level: 'info', event: 'Provisioning 2 node(s): n1, n2' },
      { level: 'warning', event: 'n2 is slow' },
      { level: 'info', event: 'Nodes now Deployed (power on)' }
    ])
    expect(lines.at(-1)?.event).toMatch(/^Marking task as SUCCESS/)
  })

  it('fails the task on a failed outcome, with the last error line as its error: retried, downstream upstream_failed, failure tag', async () => {
    const site = await startFakeSite()
    site.answers.set('promenade_validate', (call) => ({
      outcome: 'failed',
      log: [{ level: 'info', event: `try ${call.body.try_number}` }, { level: 'error', event: 'Bootstrap design validation failed: There are 0 Docker documents' }]
    }))
    const engine = await engineOn(site)
    await engine.trigger('deploy_site', 'ACT', conf())
    expect((await engine.waitRun('deploy_site', 'ACT')).state).toBe('success')
    const tis = await engine.tis('deploy_site', 'ACT')
    expect(stateOf(tis)).toMatchObject({
      'validate_site_design.promenade_validate_site_design': 'failed',
      'drydock_build.verify_site': 'upstream_failed',
      'armada_build.armada_get_releases': 'upstream_failed',
      create_action_tag: 'success'
    })
    expect(site.calls.filter((c) => c.step === 'promenade_validate').map((c) => c.body.try_number)).toEqual([1, 2])
    expect(site.calls.some((c) => c.step === 'deploy_nodes')).toBe(false)
    const lines = await logLines(engine, 'deploy_site', 'ACT', 'validate_site_design.promenade_validate_site_design', 2)
    expect(lines).toContainEqual({ level: 'info', event: 'try 2' })
    expect(lines.filter((l) => l.event === 'Bootstrap design validation failed: There are 0 Docker documents')).toEqual([
      { level: 'error', event: 'Bootstrap design validation failed: There are 0 Docker documents' }
    ])
    expect(lines.map((l) => l.event)).toContain('Task failed with exception')
    const tag = site.calls.find((c) => c.step === 'create_action_tag')!
    expect(tag.body.task_states['armada_build.armada_get_releases']).toBe('upstream_failed')
  })

  it('sends the targeted workflows\' conf as the orchestrator gave it: the site reads target_nodes', async () => {
    const site = await startFakeSite()
    const engine = await engineOn(site)
    await engine.trigger('redeploy_server', 'ACT', conf({ name: 'redeploy_server', parameters: { target_nodes: 'n2' } }))
    expect((await engine.waitRun('redeploy_server', 'ACT')).state).toBe('success')
    expect(site.calls.map((c) => c.step).filter((s) => ['destroy_nodes', 'verify_site', 'deploy_nodes'].includes(s))).toEqual(['destroy_nodes', 'verify_site', 'verify_site', 'deploy_nodes'])
    expect(site.calls.find((c) => c.step === 'destroy_nodes')?.body.conf).toEqual(conf({ name: 'redeploy_server', parameters: { target_nodes: 'n2' } }))
  })

  it('never sends the engine\'s own kinds: test_site calls the site for its preflight only', async () => {
    const site = await startFakeSite()
    const engine = await engineOn(site)
    await engine.trigger('test_site', 'ACT', conf({ name: 'test_site' }))
    expect((await engine.waitRun('test_site', 'ACT')).state).toBe('success')
    expect(site.calls.map((c) => `${c.body.task_id} ${c.step}`)).toEqual(['preflight.ucp_preflight_check preflight'])
  })
})

describe('an unconfigured or broken site', () => {
  it('logs a warning for each skipped site step and still runs the workflow', async () => {
    const engine = await startTestEngine()
    await engine.trigger('deploy_site', 'ACT', { action: { id: 'ACT', committed_rev_id: 3 } })
    expect((await engine.waitRun('deploy_site', 'ACT')).state).toBe('success')
    expect(await logLines(engine, 'deploy_site', 'ACT', 'drydock_build.prepare_and_deploy_nodes')).toContainEqual({
      level: 'warning', event: 'No site configured (SITE_URL empty or none): skipped the site step deploy_nodes'
    })
    expect(await logLines(engine, 'deploy_site', 'ACT', 'create_action_tag')).toContainEqual({
      level: 'warning', event: 'No site configured (SITE_URL empty or none): skipped the site step create_action_tag'
    })
  })

  it('fails the task, not the engine, when the site is unreachable', async () => {
    const engine = await startTestEngine({ SITE_URL: 'http://127.0.0.1:9', OUTBOUND_TIMEOUT_MS: '500' })
    await engine.trigger('update_site', 'ACT', { action: { id: 'ACT' } })
    await engine.waitRun('update_site', 'ACT')
    expect(stateOf(await engine.tis('update_site', 'ACT'))).toMatchObject({ 'preflight.ucp_preflight_check': 'failed', 'drydock_build.verify_site': 'upstream_failed' })
    expect((await logLines(engine, 'update_site', 'ACT', 'preflight.ucp_preflight_check')).map((l) => l.event).join('\n')).toMatch(/site could not be reached/)
  })

  it('fails the task when the site refuses the call or answers something that is not a step answer', async () => {
    const site = await startFakeSite()
    site.answers.set('preflight', () => ({ status: 400, body: { status: 'Failure', message: 'Invalid body' } }))
    site.answers.set('rendered_doc', () => ({ status: 200, body: { outcome: 'done', log: [] } }))
    const engine = await engineOn(site)
    await engine.trigger('deploy_site', 'ACT', conf())
    await engine.waitRun('deploy_site', 'ACT')
    expect(stateOf(await engine.tis('deploy_site', 'ACT'))).toMatchObject({ 'preflight.ucp_preflight_check': 'failed', get_rendered_doc: 'failed' })
    expect(await logLines(engine, 'deploy_site', 'ACT', 'preflight.ucp_preflight_check')).toContainEqual({
      level: 'error', event: 'DownstreamError: Downstream failure: site (The site answered POST /_stub/steps/preflight with 400)'
    })
    expect(await logLines(engine, 'deploy_site', 'ACT', 'get_rendered_doc')).toContainEqual({
      level: 'error', event: 'DownstreamError: Downstream failure: site (The site answered POST /_stub/steps/rendered_doc with something other than a step\'s outcome and log)'
    })
  })
})
