// Pause, unpause, stop, clear and marking task instances, as Airflow 3's REST API does them, DAGs paused
// at creation, max_active_runs, and state kept across a restart with ENGINE_DATA_DIR.
// A task that must still be running when the test looks is held by the hang injection (conf.stub.hang) and let go
// by marking it a success, never raced with a short task duration; "nothing happens" is checked after the
// scheduler has been seen to go round many times, not after a fixed sleep.
import { mkdtempSync, rmSync, existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it, onTestFinished } from 'vitest'
import { startTestEngine, stateOf, type TestEngine } from '../helpers/engine.ts'

/** Polls `probe` until it answers something; fails naming `what` after a deadline generous for a busy machine. */
async function until<T> (what: string, probe: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await probe()
    if (value !== undefined) return value
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
}

async function waitTask (engine: TestEngine, dag: string, run: string, task: string, state: string): Promise<void> {
  await until(`${dag}/${run}: ${task} to be ${state}`, async () => stateOf(await engine.tis(dag, run))[task] === state ? true : undefined)
}

/** Lets a task held by the hang injection go: marked a success, it ends and its run goes on. */
async function release (engine: TestEngine, dag: string, run: string, task: string): Promise<void> {
  const marked = await engine.call('PATCH', `/api/v2/dags/${dag}/dagRuns/${run}/taskInstances/${task}`, { new_state: 'success' })
  expect(marked.status, `marking ${dag}/${run} ${task} a success`).toBe(200)
}

let rounds = 0
/**
 * Returns once the scheduler has gone round many times: a deploy_site run of its own (the DAG unpaused for it) is
 * followed through its 17 steps to its end, each step several ticks. What was to stay as it was has had every
 * chance to move by then, however slow the machine.
 */
async function schedulerGoesRound (engine: TestEngine): Promise<void> {
  expect((await engine.call('PATCH', '/api/v2/dags/deploy_site', { is_paused: false })).status).toBe(200)
  const runId = `rounds-${++rounds}`
  expect((await engine.trigger('deploy_site', runId)).status).toBe(200)
  const run = await engine.waitRun('deploy_site', runId)
  expect(['success', 'failed']).toContain(run.state)
}

describe('pause and unpause (DAG-wide is_paused)', () => {
  it('lets running tasks finish, schedules nothing new, keeps the run running, and resumes on unpause', async () => {
    const engine = await startTestEngine()
    // the first task runs until it is let go: it is still running when the DAG is paused
    await engine.trigger('test_site', 'P1', { stub: { hang: ['action_xcom'] } })
    await waitTask(engine, 'test_site', 'P1', 'action_xcom', 'running')
    const paused = await engine.call('PATCH', '/api/v2/dags/test_site', { is_paused: true })
    expect(paused.status).toBe(200)
    expect(paused.body).toMatchObject({ dag_id: 'test_site', is_paused: true })

    // the pause stops nothing: the task still runs, and ends as a success when let go
    await schedulerGoesRound(engine)
    expect(stateOf(await engine.tis('test_site', 'P1')).action_xcom).toBe('running')
    await release(engine, 'test_site', 'P1', 'action_xcom')
    await waitTask(engine, 'test_site', 'P1', 'action_xcom', 'success')
    await schedulerGoesRound(engine)
    const held = await engine.call('GET', '/api/v2/dags/test_site/dagRuns/P1')
    expect(held.body.state).toBe('running')
    expect(stateOf(await engine.tis('test_site', 'P1'))).toEqual({ action_xcom: 'success', 'preflight.ucp_preflight_check': null, deployment_configuration: null, armada_test_releases: null })
    expect((await engine.call('GET', '/api/v2/dags?paused=true')).body.dags.map((d: { dag_id: string }) => d.dag_id)).toEqual(['test_site'])

    const unpaused = await engine.call('PATCH', '/api/v2/dags/test_site', { is_paused: false })
    expect(unpaused.body.is_paused).toBe(false)
    expect((await engine.waitRun('test_site', 'P1')).state).toBe('success')
  })

  it('starts DAGs paused by default: a triggered run waits in queued until the DAG is unpaused', async () => {
    const engine = await startTestEngine({ ENGINE_DAGS_PAUSED_AT_CREATION: 'true' })
    expect((await engine.call('GET', '/api/v2/dags/deploy_site')).body.is_paused).toBe(true)
    const triggered = await engine.trigger('test_site', 'Q1')
    expect(triggered.status).toBe(200)
    await schedulerGoesRound(engine)
    const waiting = await engine.call('GET', '/api/v2/dags/test_site/dagRuns/Q1')
    expect(waiting.body).toMatchObject({ state: 'queued', start_date: null })
    expect(new Set((await engine.tis('test_site', 'Q1')).map((t) => t.state))).toEqual(new Set([null]))
    await engine.call('PATCH', '/api/v2/dags/test_site', { is_paused: false })
    expect((await engine.waitRun('test_site', 'Q1')).state).toBe('success')
  })

  it('knows no sub-DAGs: a group\'s dotted name is no DAG, and pausing one workflow pauses no other', async () => {
    const engine = await startTestEngine()
    const sub = await engine.call('GET', '/api/v2/dags/deploy_site.preflight')
    expect(sub.status).toBe(404)
    expect(sub.body).toEqual({ detail: 'The Dag with ID: `deploy_site.preflight` was not found' })
    expect((await engine.call('PATCH', '/api/v2/dags/deploy_site', { is_paused: true })).status).toBe(200)
    const paused = await engine.call('GET', '/api/v2/dags?paused=true')
    expect(paused.body.dags.map((d: { dag_id: string, is_paused: boolean }) => [d.dag_id, d.is_paused])).toEqual([['deploy_site', true]])
  })

  it('keeps runs beyond max_active_runs queued until a slot frees', async () => {
    const engine = await startTestEngine({ ENGINE_MAX_ACTIVE_RUNS: '1' })
    // M1's first task runs until it is let go: M1 holds the DAG's one slot for as long as the test looks
    await engine.trigger('test_site', 'M1', { stub: { hang: ['action_xcom'] } })
    await engine.trigger('test_site', 'M2')
    await waitTask(engine, 'test_site', 'M1', 'action_xcom', 'running')
    await schedulerGoesRound(engine)
    expect((await engine.call('GET', '/api/v2/dags/test_site/dagRuns/M2')).body).toMatchObject({ state: 'queued', start_date: null })
    await release(engine, 'test_site', 'M1', 'action_xcom')
    expect((await engine.waitRun('test_site', 'M1')).state).toBe('success')
    expect((await engine.waitRun('test_site', 'M2')).state).toBe('success')
  })
})

describe('stop (PATCH the run to failed)', () => {
  it('fails the running task, skips the pending ones and fails the run', async () => {
    const engine = await startTestEngine()
    await engine.trigger('test_site', 'S1', { stub: { hang: ['deployment_configuration'] } })
    await waitTask(engine, 'test_site', 'S1', 'deployment_configuration', 'running')
    const stopped = await engine.call('PATCH', '/api/v2/dags/test_site/dagRuns/S1', { state: 'failed' })
    expect(stopped.status).toBe(200)
    expect(stopped.body).toMatchObject({ dag_run_id: 'S1', state: 'failed' })
    expect(stopped.body.end_date).not.toBeNull()
    const states = stateOf(await engine.tis('test_site', 'S1'))
    expect(states).toMatchObject({ action_xcom: 'success', deployment_configuration: 'failed', armada_test_releases: 'skipped' })
    const log = await engine.call('GET', '/api/v2/dags/test_site/dagRuns/S1/taskInstances/deployment_configuration/logs/1')
    expect(log.body.content.map((l: { event: string }) => l.event)).toEqual(expect.arrayContaining([
      'Injected hang: the task runs until it is stopped', 'State of this instance has been externally set to failed. Terminating instance.'
    ]))
    expect(log.body.continuation_token).toBeNull()
    await schedulerGoesRound(engine)
    expect((await engine.call('GET', '/api/v2/dags/test_site/dagRuns/S1')).body.state).toBe('failed')
  })

  it('marks a run success or queued on request and keeps a note', async () => {
    const engine = await startTestEngine()
    await engine.trigger('test_site', 'S2', { stub: { hang: ['action_xcom'] } })
    await waitTask(engine, 'test_site', 'S2', 'action_xcom', 'running')
    const done = await engine.call('PATCH', '/api/v2/dags/test_site/dagRuns/S2', { state: 'success', note: 'forced' })
    expect(done.body).toMatchObject({ state: 'success', note: 'forced' })
    expect(new Set((await engine.tis('test_site', 'S2')).map((t) => t.state))).toEqual(new Set(['success']))
    const requeued = await engine.call('PATCH', '/api/v2/dags/test_site/dagRuns/S2?update_mask=state', { state: 'queued', note: 'ignored' })
    expect(requeued.body).toMatchObject({ state: 'queued', note: 'forced', end_date: null })
    expect((await engine.waitRun('test_site', 'S2')).state).toBe('success')
    const bad = await engine.call('PATCH', '/api/v2/dags/test_site/dagRuns/S2', { state: 'running' })
    expect(bad.status).toBe(422)
    expect(bad.body.detail[0].loc).toEqual(['body', 'state'])
  })
})

describe('clear', () => {
  it('previews with dry_run (the default) and re-runs failed tasks as a new try with dry_run false', async () => {
    const engine = await startTestEngine()
    await engine.trigger('test_site', 'C1', { stub: { fail: { armada_test_releases: 1 } } })
    expect((await engine.waitRun('test_site', 'C1')).state).toBe('failed')

    const preview = await engine.call('POST', '/api/v2/dags/test_site/dagRuns/C1/clear', { only_failed: true })
    expect(preview.status).toBe(200)
    expect(preview.body.total_entries).toBe(1)
    expect(preview.body.task_instances[0]).toMatchObject({ task_id: 'armada_test_releases', state: 'failed' })
    expect((await engine.call('GET', '/api/v2/dags/test_site/dagRuns/C1')).body.state).toBe('failed')

    const cleared = await engine.call('POST', '/api/v2/dags/test_site/dagRuns/C1/clear', { dry_run: false, only_failed: true })
    expect(cleared.status).toBe(200)
    expect(cleared.body).toMatchObject({ dag_run_id: 'C1', state: 'queued', end_date: null })
    expect((await engine.waitRun('test_site', 'C1')).state).toBe('success')
    const ti = (await engine.tis('test_site', 'C1')).find((t) => t.task_id === 'armada_test_releases')!
    expect(ti).toMatchObject({ state: 'success', try_number: 2, max_tries: 1 })
    const tries = await engine.call('GET', '/api/v2/dags/test_site/dagRuns/C1/taskInstances/armada_test_releases/tries')
    expect(tries.body.task_instances.map((t: { state: string }) => t.state)).toEqual(['failed', 'success'])
    expect(stateOf(await engine.tis('test_site', 'C1')).action_xcom).toBe('success')
    expect((await engine.tis('test_site', 'C1')).find((t) => t.task_id === 'action_xcom')!.try_number).toBe(1)
  })

  it('clears chosen task instances with clearTaskInstances, including downstream', async () => {
    const engine = await startTestEngine()
    await engine.trigger('test_site', 'C2')
    await engine.waitRun('test_site', 'C2')
    const body = { dag_run_id: 'C2', task_ids: ['deployment_configuration'], only_failed: false, include_downstream: true }
    const preview = await engine.call('POST', '/api/v2/dags/test_site/clearTaskInstances', body)
    expect(preview.status).toBe(200)
    expect(preview.body.task_instances.map((t: { task_id: string }) => t.task_id).sort()).toEqual(['armada_test_releases', 'deployment_configuration'])
    expect((await engine.call('GET', '/api/v2/dags/test_site/dagRuns/C2')).body.state).toBe('success')
    const done = await engine.call('POST', '/api/v2/dags/test_site/clearTaskInstances', { ...body, dry_run: false })
    expect(done.body.task_instances.every((t: { state: unknown }) => t.state === null)).toBe(true)
    expect(['queued', 'running']).toContain((await engine.call('GET', '/api/v2/dags/test_site/dagRuns/C2')).body.state)
    expect((await engine.waitRun('test_site', 'C2')).state).toBe('success')
    expect((await engine.tis('test_site', 'C2')).find((t) => t.task_id === 'armada_test_releases')!.try_number).toBe(2)
    const unknown = await engine.call('POST', '/api/v2/dags/test_site/clearTaskInstances', { dag_run_id: 'nope' })
    expect(unknown.status).toBe(404)
  })

  it('restarts a task that is running when cleared: restarting, then a new try', async () => {
    const engine = await startTestEngine()
    // action_xcom runs until it is let go, in each of its tries
    await engine.trigger('test_site', 'C3', { stub: { hang: ['action_xcom'] } })
    await waitTask(engine, 'test_site', 'C3', 'action_xcom', 'running')
    const cleared = await engine.call('POST', '/api/v2/dags/test_site/clearTaskInstances', { dag_run_id: 'C3', task_ids: ['action_xcom'], only_failed: false, dry_run: false })
    expect(cleared.status).toBe(200)
    expect(cleared.body.task_instances).toEqual([expect.objectContaining({ task_id: 'action_xcom', state: 'restarting' })])
    await until('C3: action_xcom running its try 2', async () => {
      const ti = (await engine.tis('test_site', 'C3')).find((t) => t.task_id === 'action_xcom')!
      return ti.try_number === 2 && ti.state === 'running' ? true : undefined
    })
    await release(engine, 'test_site', 'C3', 'action_xcom')
    expect((await engine.waitRun('test_site', 'C3')).state).toBe('success')
    const ti = (await engine.tis('test_site', 'C3')).find((t) => t.task_id === 'action_xcom')!
    expect(ti.try_number).toBe(2)
    const first = await engine.call('GET', '/api/v2/dags/test_site/dagRuns/C3/taskInstances/action_xcom/logs/1')
    expect(first.body.content.at(-1).event).toMatch(/cleared while running/)
  })
})

describe('PATCH a task instance', () => {
  it('marks success, failed or skipped and refuses other states with 422', async () => {
    const engine = await startTestEngine()
    await engine.trigger('test_site', 'T1', { stub: { hang: ['deployment_configuration'] } })
    await waitTask(engine, 'test_site', 'T1', 'deployment_configuration', 'running')
    const marked = await engine.call('PATCH', '/api/v2/dags/test_site/dagRuns/T1/taskInstances/deployment_configuration', { new_state: 'success', note: 'by hand' })
    expect(marked.status).toBe(200)
    expect(marked.body.task_instances[0]).toMatchObject({ task_id: 'deployment_configuration', state: 'success', note: 'by hand' })
    expect((await engine.waitRun('test_site', 'T1')).state).toBe('success')
    const refused = await engine.call('PATCH', '/api/v2/dags/test_site/dagRuns/T1/taskInstances/action_xcom', { new_state: 'running' })
    expect(refused.status).toBe(422)
    expect(refused.body.detail[0]).toMatchObject({ loc: ['body', 'new_state'], type: 'value_error' })
    const skipped = await engine.call('PATCH', '/api/v2/dags/test_site/dagRuns/T1/taskInstances/action_xcom/-1', { new_state: 'skipped' })
    expect(skipped.body.task_instances[0].state).toBe('skipped')
    const missing = await engine.call('PATCH', '/api/v2/dags/test_site/dagRuns/T1/taskInstances/nope', { new_state: 'failed' })
    expect(missing.status).toBe(404)
  })
})

describe('PATCH a task instance of a finished run (set_task_instance_state)', () => {
  it('clears the failed and upstream_failed instances downstream of the marked one and puts the run back to queued', async () => {
    const engine = await startTestEngine()
    await engine.trigger('test_site', 'T2', { stub: { fail: { deployment_configuration: 'always' } } })
    expect((await engine.waitRun('test_site', 'T2')).state).toBe('failed')
    expect(stateOf(await engine.tis('test_site', 'T2'))).toMatchObject({ deployment_configuration: 'failed', armada_test_releases: 'upstream_failed' })
    // while the DAG is paused the scheduler leaves the run where the PATCH put it
    await engine.call('PATCH', '/api/v2/dags/test_site', { is_paused: true })
    const marked = await engine.call('PATCH', '/api/v2/dags/test_site/dagRuns/T2/taskInstances/deployment_configuration', { new_state: 'success' })
    expect(marked.status).toBe(200)
    expect(marked.body).toMatchObject({ total_entries: 1, task_instances: [{ task_id: 'deployment_configuration', state: 'success', try_number: 1 }] })
    const requeued = await engine.call('GET', '/api/v2/dags/test_site/dagRuns/T2')
    expect(requeued.body).toMatchObject({ state: 'queued', end_date: null })
    expect(stateOf(await engine.tis('test_site', 'T2'))).toEqual({ action_xcom: 'success', 'preflight.ucp_preflight_check': 'success', deployment_configuration: 'success', armada_test_releases: null })

    await engine.call('PATCH', '/api/v2/dags/test_site', { is_paused: false })
    expect((await engine.waitRun('test_site', 'T2')).state).toBe('success')
    expect((await engine.tis('test_site', 'T2')).find((t) => t.task_id === 'armada_test_releases')).toMatchObject({ state: 'success', try_number: 1 })
    const tries = await engine.call('GET', '/api/v2/dags/test_site/dagRuns/T2/taskInstances/deployment_configuration/tries')
    expect(tries.body.task_instances.map((t: { try_number: number, state: string }) => [t.try_number, t.state])).toEqual([[1, 'success']])
  })

  it('leaves a finished run alone when nothing downstream failed', async () => {
    const engine = await startTestEngine()
    await engine.trigger('test_site', 'T3', { stub: { fail: { deployment_configuration: 'always' } } })
    expect((await engine.waitRun('test_site', 'T3')).state).toBe('failed')
    const marked = await engine.call('PATCH', '/api/v2/dags/test_site/dagRuns/T3/taskInstances/armada_test_releases', { new_state: 'skipped' })
    expect(marked.status).toBe(200)
    expect(marked.body.task_instances[0]).toMatchObject({ task_id: 'armada_test_releases', state: 'skipped' })
    await schedulerGoesRound(engine)
    expect((await engine.call('GET', '/api/v2/dags/test_site/dagRuns/T3')).body.state).toBe('failed')
    expect(stateOf(await engine.tis('test_site', 'T3')).deployment_configuration).toBe('failed')
  })
})

describe('task instances that end without running', () => {
  const ended = { start_date: expect.any(String), end_date: expect.any(String), duration: 0, try_number: 0 }

  it('get start_date, end_date and duration as TaskInstance.set_state sets them: stop, mark, run success, branch, trigger rule', async () => {
    const engine = await startTestEngine()
    const ti = async (dag: string, run: string, task: string) => (await engine.tis(dag, run)).find((t) => t.task_id === task)!

    await engine.trigger('update_software', 'E1')
    expect((await engine.waitRun('update_software', 'E1')).state).toBe('success')
    expect(await ti('update_software', 'E1', 'upgrade_airflow')).toMatchObject({ state: 'skipped', ...ended })

    await engine.trigger('test_site', 'E2', { stub: { fail: { deployment_configuration: 'always' } } })
    expect((await engine.waitRun('test_site', 'E2')).state).toBe('failed')
    expect(await ti('test_site', 'E2', 'armada_test_releases')).toMatchObject({ state: 'upstream_failed', ...ended })

    await engine.trigger('test_site', 'E3', { stub: { hang: ['deployment_configuration'] } })
    await waitTask(engine, 'test_site', 'E3', 'deployment_configuration', 'running')
    const marked = await engine.call('PATCH', '/api/v2/dags/test_site/dagRuns/E3/taskInstances/armada_test_releases', { new_state: 'failed' })
    expect(marked.status).toBe(200)
    expect(marked.body.task_instances[0]).toMatchObject({ state: 'failed', ...ended })
    expect((await engine.call('PATCH', '/api/v2/dags/test_site/dagRuns/E3', { state: 'failed' })).status).toBe(200)

    await engine.trigger('test_site', 'E4', { stub: { hang: ['deployment_configuration'] } })
    await waitTask(engine, 'test_site', 'E4', 'deployment_configuration', 'running')
    const stopped = await engine.call('PATCH', '/api/v2/dags/test_site/dagRuns/E4', { state: 'failed' })
    expect(stopped.status).toBe(200)
    expect(await ti('test_site', 'E4', 'armada_test_releases')).toMatchObject({ state: 'skipped', ...ended })

    await engine.trigger('test_site', 'E5', { stub: { hang: ['deployment_configuration'] } })
    await waitTask(engine, 'test_site', 'E5', 'deployment_configuration', 'running')
    expect((await engine.call('PATCH', '/api/v2/dags/test_site/dagRuns/E5', { state: 'success' })).status).toBe(200)
    expect(await ti('test_site', 'E5', 'armada_test_releases')).toMatchObject({ state: 'success', ...ended })
    const done = await ti('test_site', 'E5', 'deployment_configuration')
    expect(done).toMatchObject({ state: 'success', try_number: 1 })
    expect(done.duration).toBeGreaterThanOrEqual(0)
  })
})

describe('ENGINE_DATA_DIR', () => {
  it('keeps DAG flags, runs and logs across a restart, and an unfinished run continues', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'stub-engine-'))
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }))
    const first = await startTestEngine({ ENGINE_DATA_DIR: dir })
    await first.trigger('test_site', 'K1')
    await first.waitRun('test_site', 'K1')
    await first.call('PATCH', '/api/v2/dags/deploy_site', { is_paused: true })
    // K2's first task runs until it is let go: it is running when the engine closes, and again after the restart
    await first.trigger('test_site', 'K2', { stub: { hang: ['action_xcom'] } })
    await waitTask(first, 'test_site', 'K2', 'action_xcom', 'running')
    await first.close()
    expect(existsSync(join(dir, 'engine.json'))).toBe(true)

    const second = await startTestEngine({ ENGINE_DATA_DIR: dir })
    expect((await second.call('GET', '/api/v2/dags/deploy_site')).body.is_paused).toBe(true)
    const k1 = await second.call('GET', '/api/v2/dags/test_site/dagRuns/K1')
    expect(k1.body.state).toBe('success')
    const log = await second.call('GET', '/api/v2/dags/test_site/dagRuns/K1/taskInstances/action_xcom/logs/1')
    expect(log.body.content.at(-1).event).toMatch(/^Marking task as SUCCESS/)
    await waitTask(second, 'test_site', 'K2', 'action_xcom', 'running')
    await release(second, 'test_site', 'K2', 'action_xcom')
    expect((await second.waitRun('test_site', 'K2')).state).toBe('success')
    const resumed = await second.call('GET', '/api/v2/dags/test_site/dagRuns/K2/taskInstances/action_xcom/logs/1')
    expect(resumed.body.content.map((l: { event: string }) => l.event)).toContain('*** The engine restarted while this try was running: the try runs again')
  })
})
