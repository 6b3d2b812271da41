// The engine runs every site task as a step of the step library (a fake here, recording the calls): the call
// carries the run, the try, the conf, the states of the run's tasks and what earlier tasks handed on; the step's
// log lines land in the try's log, its failure fails the task, its output reaches later tasks, and a branch
// follows what the step says. With no peers configured the site tasks say they skipped their work.
import { describe, expect, it } from 'vitest'
import { siteWorkflows } from '../../src/index.ts'
import { startTestEngine, stateOf, type TestEngine } from '../helpers/engine.ts'
import { fakeSteps, StepFailure } from '../helpers/fake-steps.ts'

const ENGINE_KINDS = new Set(['log', 'concurrency_check'])

const conf = (action: Record<string, unknown> = {}) => ({
  action: { id: 'ACT', name: 'deploy_site', parameters: {}, user: 'operator1', context_marker: 'm-1', committed_rev_id: 7, ...action },
  design_ref: 'deckhand+http://store.example/api/v1.0/revisions/7/rendered-documents'
})

type Line = { level: string, event: string }

async function logLines (engine: TestEngine, dag: string, run: string, task: string, tryNumber = 1): Promise<Line[]> {
  const reply = await engine.call('GET', `/api/v2/dags/${dag}/dagRuns/${run}/taskInstances/${task}/logs/${tryNumber}?full_content=true`)
  expect(reply.status).toBe(200)
  return reply.body.content.map((l: Line) => ({ level: l.level, event: l.event }))
}

describe('site tasks as steps of the step library', () => {
  it('runs every site task of deploy_site as its step kind, with the run, the try, the conf and the task states', async () => {
    const steps = fakeSteps()
    const engine = await startTestEngine({}, steps.effects)
    await engine.trigger('deploy_site', 'ACT', conf())
    expect((await engine.waitRun('deploy_site', 'ACT')).state).toBe('success')
    const dag = siteWorkflows().find((d) => d.dag_id === 'deploy_site')!
    const expected = dag.tasks.filter((t) => !ENGINE_KINDS.has(t.kind)).map((t) => `${t.task_id} ${t.kind}`).sort()
    expect(steps.calls.map((c) => `${c.call.taskId} ${c.kind}`).sort()).toEqual(expected)
    for (const { call } of steps.calls) {
      expect(call).toMatchObject({ dagId: 'deploy_site', runId: 'ACT', tryNumber: 1, conf: conf() })
    }
    const tag = steps.calls.find((c) => c.kind === 'create_action_tag')!
    expect(tag.call.taskStates).toMatchObject({ 'armada_build.armada_get_releases': 'success', create_action_tag: 'running' })
  })

  it('hands each step what earlier tasks of the run gave back', async () => {
    const steps = fakeSteps()
    steps.answers.set('deployment_configuration', () => ({ output: { 'armada.manifest': 'full-site' } }))
    const engine = await startTestEngine({}, steps.effects)
    await engine.trigger('deploy_site', 'ACT', conf())
    await engine.waitRun('deploy_site', 'ACT')
    const apply = steps.calls.find((c) => c.kind === 'armada_apply')!
    expect(apply.call.xcom).toMatchObject({ deployment_configuration: { 'armada.manifest': 'full-site' } })
    const first = steps.calls.find((c) => c.kind === 'preflight')!
    expect(first.call.xcom).not.toHaveProperty('deployment_configuration')
  })

  it('puts the step\'s log lines into the try\'s log at their levels', async () => {
    const steps = fakeSteps()
    steps.answers.set('deploy_nodes', (_call, io) => {
      io.log('Drydock deploy_nodes task t-1 created for n1, n2')
      io.log('n2 is slow', 'warning')
      return {}
    })
    const engine = await startTestEngine({}, steps.effects)
    await engine.trigger('deploy_site', 'ACT', conf())
    await engine.waitRun('deploy_site', 'ACT')
    const lines = await logLines(engine, 'deploy_site', 'ACT', 'drydock_build.prepare_and_deploy_nodes')
    const at = lines.findIndex((l) => l.event === 'Drydock deploy_nodes task t-1 created for n1, n2')
    expect(lines.slice(at, at + 2)).toEqual([
      { level: 'info', event: 'Drydock deploy_nodes task t-1 created for n1, n2' },
      { level: 'warning', event: 'n2 is slow' }
    ])
    expect(lines.at(-1)?.event).toMatch(/^Marking task as SUCCESS/)
  })

  it('fails the task when the step fails, with its message as the error: retried, downstream upstream_failed', async () => {
    const steps = fakeSteps()
    steps.answers.set('promenade_validate', (call, io) => {
      io.log(`try ${call.tryNumber}`)
      throw new StepFailure('Promenade found the site design invalid (Failure, 1 error(s))')
    })
    const engine = await startTestEngine({}, steps.effects)
    await engine.trigger('deploy_site', 'ACT', conf())
    expect((await engine.waitRun('deploy_site', 'ACT')).state).toBe('success')
    expect(stateOf(await engine.tis('deploy_site', 'ACT'))).toMatchObject({
      'validate_site_design.promenade_validate_site_design': 'failed',
      'drydock_build.verify_site': 'upstream_failed',
      'armada_build.armada_get_releases': 'upstream_failed',
      create_action_tag: 'success'
    })
    expect(steps.calls.filter((c) => c.kind === 'promenade_validate').map((c) => c.call.tryNumber)).toEqual([1, 2])
    expect(steps.calls.some((c) => c.kind === 'deploy_nodes')).toBe(false)
    const lines = await logLines(engine, 'deploy_site', 'ACT', 'validate_site_design.promenade_validate_site_design', 2)
    expect(lines).toContainEqual({ level: 'info', event: 'try 2' })
    expect(lines).toContainEqual({ level: 'error', event: 'Promenade found the site design invalid (Failure, 1 error(s))' })
    expect(lines.map((l) => l.event)).toContain('Task failed with exception')
  })

  it('follows the branch the upgrade decision names, and skips the other', async () => {
    const steps = fakeSteps()
    steps.answers.set('decide_upgrade', (call) => ({ follow: [call.runId === 'B2' ? 'upgrade_airflow' : 'skip_upgrade_airflow'] }))
    const engine = await startTestEngine({}, steps.effects)
    await engine.trigger('update_software', 'B1', conf({ name: 'update_software' }))
    expect((await engine.waitRun('update_software', 'B1')).state).toBe('success')
    expect(stateOf(await engine.tis('update_software', 'B1'))).toMatchObject({ upgrade_airflow: 'skipped', skip_upgrade_airflow: 'success' })
    await engine.trigger('update_software', 'B2', conf({ name: 'update_software' }))
    expect((await engine.waitRun('update_software', 'B2')).state).toBe('success')
    expect(stateOf(await engine.tis('update_software', 'B2'))).toMatchObject({ upgrade_airflow: 'success', skip_upgrade_airflow: 'skipped' })
  })

  it('stops a running step when the run is stopped: the step sees its signal aborted', async () => {
    const steps = fakeSteps()
    let aborted = false
    steps.answers.set('verify_site', async (_call, io) => {
      await new Promise<void>((resolve) => io.signal.addEventListener('abort', () => { aborted = true; resolve() }, { once: true }))
      throw new StepFailure('The step was stopped')
    })
    const engine = await startTestEngine({}, steps.effects)
    await engine.trigger('deploy_site', 'ACT', conf())
    await expect.poll(async () => stateOf(await engine.tis('deploy_site', 'ACT'))['drydock_build.verify_site']).toBe('running')
    const reply = await engine.call('PATCH', '/api/v2/dags/deploy_site/dagRuns/ACT', { state: 'failed' })
    expect(reply.status).toBe(200)
    await expect.poll(() => aborted).toBe(true)
  })
})

describe('no peers configured', () => {
  it('logs a warning for each skipped site task and still runs the workflow, the branch skipping the upgrade', async () => {
    const engine = await startTestEngine()
    await engine.trigger('update_site', 'ACT', { action: { id: 'ACT', committed_rev_id: 3 } })
    expect((await engine.waitRun('update_site', 'ACT')).state).toBe('success')
    expect(await logLines(engine, 'update_site', 'ACT', 'drydock_build.prepare_and_deploy_nodes')).toContainEqual({
      level: 'warning', event: 'No peers configured: skipped the site work of drydock_build.prepare_and_deploy_nodes'
    })
    expect(stateOf(await engine.tis('update_site', 'ACT'))).toMatchObject({ upgrade_airflow: 'skipped', skip_upgrade_airflow: 'success' })
  })

  it('fails the task, not the engine, when a configured peer is unreachable', async () => {
    const engine = await startTestEngine({ DECKHAND_URL: 'http://127.0.0.1:9/api/v1.0', STEP_HTTP_TIMEOUT_MS: '2000' })
    await engine.trigger('update_site', 'ACT', conf({ name: 'update_site' }))
    await engine.waitRun('update_site', 'ACT')
    expect(stateOf(await engine.tis('update_site', 'ACT'))).toMatchObject({ 'preflight.ucp_preflight_check': 'failed', 'drydock_build.verify_site': 'upstream_failed' })
    expect((await logLines(engine, 'update_site', 'ACT', 'preflight.ucp_preflight_check')).map((l) => l.event).join('\n'))
      .toMatch(/Health check failed for deckhand on dag_id=update_site: .*could not be reached/)
  })
})
