// Run and task-instance state machines (Airflow 3's DagRunState and TaskInstanceState) over HTTP: success, retries
// with per-try logs, upstream_failed, task groups, mapping, deferral, branches and the concurrency check.
import { describe, expect, it } from 'vitest'
import { DAG_RUN_STATES, TASK_INSTANCE_STATES, type TaskInstanceHistoryResponse } from '@slipway/airflow-contract'
import { startTestEngine, stateOf } from '../helpers/engine.ts'

/** Polls `probe` until it answers something; fails naming `what` after a generous deadline. */
async function until<T> (what: string, probe: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await probe()
    if (value !== undefined) return value
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
}

const LOG = (dag: string, run: string, task: string, tryNumber: number) =>
  `/api/v2/dags/${dag}/dagRuns/${run}/taskInstances/${task}/logs/${tryNumber}?full_content=true`

describe('a site workflow run', () => {
  it('goes queued → running → success as one run whose grouped tasks are named <group>.<task>, each run once', async () => {
    const engine = await startTestEngine()
    const conf = { action: { id: 'A1', name: 'deploy_site', parameters: {} } }
    const triggered = await engine.trigger('deploy_site', 'A1', conf)
    expect(triggered.status).toBe(200)
    expect(triggered.body).toMatchObject({ dag_run_id: 'A1', dag_id: 'deploy_site', state: 'queued', run_type: 'manual', triggered_by: 'rest_api', conf, triggering_user_name: 'admin' })
    expect(triggered.body.start_date).toBeNull()

    const run = await engine.waitRun('deploy_site', 'A1')
    expect(run.state).toBe('success')
    expect(Date.parse(run.start_date!)).toBeGreaterThanOrEqual(Date.parse(run.queued_at!))
    expect(Date.parse(run.end_date!)).toBeGreaterThanOrEqual(Date.parse(run.start_date!))
    expect(run.duration).toBeGreaterThanOrEqual(0)

    const tis = await engine.tis('deploy_site', 'A1')
    expect(tis.map((t) => t.task_id)).toEqual([
      'action_xcom', 'dag_concurrency_check', 'preflight.ucp_preflight_check', 'get_rendered_doc', 'deployment_configuration',
      'validate_site_design.deckhand_validate_site_design', 'validate_site_design.drydock_validate_site_design',
      'validate_site_design.promenade_validate_site_design', 'validate_site_design.armada_validate_site_design',
      'deployment_status', 'drydock_build.verify_site', 'drydock_build.prepare_site', 'drydock_build.prepare_and_deploy_nodes',
      'armada_build.armada_post_apply', 'armada_build.armada_get_releases', 'create_action_tag', 'final_deployment_status'
    ])
    expect(new Set(tis.map((t) => t.state))).toEqual(new Set(['success']))
    expect(tis.every((t) => t.try_number === 1 && t.map_index === -1 && t.dag_run_id === 'A1')).toBe(true)
    expect(tis.find((t) => t.task_id === 'drydock_build.prepare_site')).toMatchObject({ operator: 'DrydockPrepareSiteOperator', max_tries: 0, executor_config: '{}' })
    expect(tis.find((t) => t.task_id === 'armada_build.armada_post_apply')!.max_tries).toBe(5)

    // Airflow 3 has no sub-DAGs: no other DAG, no other run
    const dags = await engine.call('GET', '/api/v2/dags?limit=100')
    expect(dags.body.dags.map((d: { dag_id: string }) => d.dag_id).sort()).toEqual(['deploy_site', 'redeploy_server', 'relabel_nodes', 'test_site', 'update_site', 'update_software'])
    const runs = await engine.call('GET', '/api/v2/dags/~/dagRuns?limit=50')
    expect(runs.body.dag_runs.map((r: { dag_run_id: string }) => r.dag_run_id)).toEqual(['A1'])
  })

  it('only ever shows DagRunState and TaskInstanceState values, and passes through running', async () => {
    const engine = await startTestEngine()
    // the first task runs until it is marked: the run is seen running, with that task running and the rest not
    // started, however slow the machine; then it is let go and the run is followed to its end
    await engine.trigger('test_site', 'S1', { stub: { hang: ['action_xcom'] } })
    const runStates = new Set<string>()
    const tiStates = new Set<string | null>()
    let released = false
    await until('test_site S1 to end', async () => {
      const run = await engine.call('GET', '/api/v2/dags/test_site/dagRuns/S1')
      runStates.add(run.body.state)
      const tis = await engine.tis('test_site', 'S1')
      for (const ti of tis) tiStates.add(ti.state)
      if (!released && stateOf(tis).action_xcom === 'running') {
        released = true
        const marked = await engine.call('PATCH', '/api/v2/dags/test_site/dagRuns/S1/taskInstances/action_xcom', { new_state: 'success' })
        expect(marked.status).toBe(200)
      }
      return run.body.state === 'success' || run.body.state === 'failed' ? true : undefined
    })
    expect([...runStates].every((s) => (DAG_RUN_STATES as readonly string[]).includes(s))).toBe(true)
    expect([...tiStates].every((s) => s === null || (TASK_INSTANCE_STATES as readonly string[]).includes(s))).toBe(true)
    expect(runStates.has('running')).toBe(true)
    expect(tiStates.has('running')).toBe(true)
    expect(tiStates.has(null)).toBe(true)
  })

  it('retries a task that fails twice, keeping one history row and one log per try', async () => {
    const engine = await startTestEngine()
    await engine.trigger('test_site', 'R1', { stub: { fail: { armada_test_releases: 2 }, retries: { armada_test_releases: 3 } } })
    const run = await engine.waitRun('test_site', 'R1')
    expect(run.state).toBe('success')
    const ti = (await engine.tis('test_site', 'R1')).find((t) => t.task_id === 'armada_test_releases')!
    expect(ti).toMatchObject({ state: 'success', try_number: 3, max_tries: 3 })

    const tries = await engine.call<{ task_instances: TaskInstanceHistoryResponse[], total_entries: number }>('GET', '/api/v2/dags/test_site/dagRuns/R1/taskInstances/armada_test_releases/tries')
    expect(tries.status).toBe(200)
    expect(tries.body.total_entries).toBe(3)
    expect(tries.body.task_instances.map((t) => [t.try_number, t.state])).toEqual([[1, 'failed'], [2, 'failed'], [3, 'success']])
    for (const t of tries.body.task_instances) expect(t.start_date).not.toBeNull()

    const second = await engine.call('GET', '/api/v2/dags/test_site/dagRuns/R1/taskInstances/armada_test_releases/tries/2')
    expect(second.status).toBe(200)
    expect(second.body).toMatchObject({ try_number: 2, state: 'failed', operator: 'ArmadaTestReleasesOperator' })

    for (const n of [1, 2]) {
      const log = await engine.call('GET', LOG('test_site', 'R1', 'armada_test_releases', n))
      expect(log.status).toBe(200)
      const events = log.body.content.map((l: { event: string }) => l.event)
      expect(events[0]).toBe('::group::Log message source details')
      expect(log.body.content[0].sources[0]).toContain(`attempt=${n}.log`)
      expect(events).toContain(`Injected failure of try ${n}`)
      expect(events.at(-1)).toMatch(/^Marking task as UP_FOR_RETRY/)
      expect(log.body.continuation_token).toBeNull()
      for (const line of log.body.content.slice(2)) expect(line).toMatchObject({ level: expect.any(String), timestamp: expect.any(String) })
    }
    const third = await engine.call('GET', LOG('test_site', 'R1', 'armada_test_releases', 3))
    expect(third.body.content.map((l: { event: string }) => l.event)).toContain('Starting attempt 3 of 4')
    expect(third.body.content.at(-1).event).toMatch(/^Marking task as SUCCESS/)
    const missing = await engine.call('GET', LOG('test_site', 'R1', 'armada_test_releases', 4))
    expect(missing.status).toBe(404)
    expect(missing.body).toEqual({ detail: 'TaskInstance not found' })
  })

  it('fails the run when a task fails for good: downstream tasks end upstream_failed', async () => {
    const engine = await startTestEngine()
    await engine.trigger('relabel_nodes', 'F1', { stub: { fail: { get_rendered_doc: 'always' } } })
    const run = await engine.waitRun('relabel_nodes', 'F1')
    expect(run.state).toBe('failed')
    expect(stateOf(await engine.tis('relabel_nodes', 'F1'))).toEqual({
      action_xcom: 'success',
      dag_concurrency_check: 'success',
      'preflight.ucp_preflight_check': 'success',
      get_rendered_doc: 'failed',
      deployment_configuration: 'upstream_failed',
      'validate_site_design.deckhand_validate_site_design': 'upstream_failed',
      'validate_site_design.drydock_validate_site_design': 'upstream_failed',
      'validate_site_design.promenade_validate_site_design': 'upstream_failed',
      'validate_site_design.armada_validate_site_design': 'upstream_failed',
      relabel_nodes: 'upstream_failed'
    })
    const log = await engine.call('GET', LOG('relabel_nodes', 'F1', 'get_rendered_doc', 1))
    expect(log.body.content.at(-1).event).toMatch(/^Marking task as FAILED/)
    // as Airflow 3's structured logs: the exception with its frames, beside timestamp, level and event
    const failure = log.body.content.find((l: { event: string }) => l.event === 'Task failed with exception')
    expect(failure).toMatchObject({ level: 'error', logger: 'task', timestamp: expect.any(String) })
    expect(failure.error_detail).toEqual([expect.objectContaining({
      exc_type: 'AirflowException',
      exc_value: 'Injected failure of try 1',
      frames: expect.arrayContaining([expect.objectContaining({ filename: expect.stringMatching(/\.py$/), lineno: expect.any(Number), name: 'execute' })])
    })])
  })

  it('fails the tasks downstream of a failed grouped task, and the run by its leaves', async () => {
    const engine = await startTestEngine()
    await engine.trigger('test_site', 'P1', { stub: { fail: { 'preflight.ucp_preflight_check': 'always' } } })
    expect((await engine.waitRun('test_site', 'P1')).state).toBe('failed')
    expect(stateOf(await engine.tis('test_site', 'P1'))).toEqual({
      action_xcom: 'success', 'preflight.ucp_preflight_check': 'failed', deployment_configuration: 'success', armada_test_releases: 'upstream_failed'
    })
    const log = await engine.call('GET', LOG('test_site', 'P1', 'preflight.ucp_preflight_check', 1))
    expect(log.body.content[0].sources[0]).toContain('task_id=preflight.ucp_preflight_check/attempt=1.log')
  })

  it('models the all_done tail: a failed build still ends in a successful deploy_site run', async () => {
    const engine = await startTestEngine()
    await engine.trigger('deploy_site', 'T1', { stub: { fail: { prepare_site: 'always' } } })
    expect((await engine.waitRun('deploy_site', 'T1')).state).toBe('success')
    expect(stateOf(await engine.tis('deploy_site', 'T1'))).toMatchObject({
      'drydock_build.verify_site': 'success',
      'drydock_build.prepare_site': 'failed',
      'drydock_build.prepare_and_deploy_nodes': 'upstream_failed',
      'armada_build.armada_post_apply': 'upstream_failed',
      'armada_build.armada_get_releases': 'upstream_failed',
      create_action_tag: 'success',
      final_deployment_status: 'success'
    })
  })

  it('fails dag_concurrency_check of a site action started while another runs', async () => {
    const engine = await startTestEngine()
    await engine.trigger('deploy_site', 'C1', { stub: { hang: ['deployment_configuration'] } })
    await until('deploy_site C1 past its concurrency check', async () =>
      stateOf(await engine.tis('deploy_site', 'C1')).dag_concurrency_check === 'success' ? true : undefined)
    await engine.trigger('update_software', 'C2')
    expect((await engine.waitRun('update_software', 'C2')).state).toBe('failed')
    expect(stateOf(await engine.tis('update_software', 'C2'))).toMatchObject({
      dag_concurrency_check: 'failed', deployment_status: 'upstream_failed', 'validate_site_design.deckhand_validate_site_design': 'upstream_failed'
    })
    const log = await engine.call('GET', LOG('update_software', 'C2', 'dag_concurrency_check', 1))
    expect(log.body.content.map((l: { event: string }) => l.event).join('\n')).toContain('deploy_site/C1')
    const stopped = await engine.call('PATCH', '/api/v2/dags/deploy_site/dagRuns/C1', { state: 'failed' })
    expect(stopped.status).toBe(200)
  })

  it('expands a mapped task into one instance per map_index', async () => {
    const engine = await startTestEngine()
    await engine.trigger('test_site', 'M1', { stub: { map: { armada_test_releases: 3 } } })
    expect((await engine.waitRun('test_site', 'M1')).state).toBe('success')
    const tis = await engine.tis('test_site', 'M1')
    expect(stateOf(tis)).toMatchObject({ 'armada_test_releases[0]': 'success', 'armada_test_releases[1]': 'success', 'armada_test_releases[2]': 'success' })
    expect(tis.filter((t) => t.task_id === 'armada_test_releases').map((t) => t.rendered_map_index)).toEqual(['0', '1', '2'])

    const unmapped = await engine.call('GET', '/api/v2/dags/test_site/dagRuns/M1/taskInstances/armada_test_releases')
    expect(unmapped.status).toBe(404)
    expect(unmapped.body).toEqual({ detail: 'Task instance is mapped, add the map_index value to the URL' })
    const one = await engine.call('GET', '/api/v2/dags/test_site/dagRuns/M1/taskInstances/armada_test_releases/1')
    expect(one.status).toBe(200)
    expect(one.body).toMatchObject({ map_index: 1, state: 'success' })
    const listed = await engine.call('GET', '/api/v2/dags/test_site/dagRuns/M1/taskInstances/armada_test_releases/listMapped')
    expect(listed.body.total_entries).toBe(3)
    const notMapped = await engine.call('GET', '/api/v2/dags/test_site/dagRuns/M1/taskInstances/action_xcom/listMapped')
    expect(notMapped.status).toBe(404)
    const tries = await engine.call('GET', '/api/v2/dags/test_site/dagRuns/M1/taskInstances/armada_test_releases/2/tries')
    expect(tries.body.task_instances.map((t: { map_index: number }) => t.map_index)).toEqual([2])
    const log = await engine.call('GET', '/api/v2/dags/test_site/dagRuns/M1/taskInstances/armada_test_releases/logs/1?map_index=2')
    expect(log.status).toBe(200)
    expect(log.body.content[0].sources[0]).toContain('map_index=2/attempt=1.log')
  })

  it('defers a task and finishes it in the same try when the trigger fires', async () => {
    const engine = await startTestEngine()
    // deferred for two seconds: long enough to be seen deferred on a busy machine
    await engine.trigger('test_site', 'D1', { stub: { defer_ms: { action_xcom: 2000 } } })
    const deferred = await until('action_xcom to be deferred', async () =>
      (await engine.tis('test_site', 'D1')).find((t) => t.task_id === 'action_xcom' && t.state === 'deferred'))
    expect(deferred.trigger).toMatchObject({ classpath: expect.stringContaining('Trigger') })
    expect((await engine.waitRun('test_site', 'D1')).state).toBe('success')
    const ti = (await engine.tis('test_site', 'D1')).find((t) => t.task_id === 'action_xcom')!
    expect(ti).toMatchObject({ state: 'success', try_number: 1, trigger: null })
    const log = await engine.call('GET', LOG('test_site', 'D1', 'action_xcom', 1))
    expect(log.body.content.map((l: { event: string }) => l.event)).toEqual(expect.arrayContaining([expect.stringMatching(/^Pausing task as DEFERRED/), 'Resuming after deferral']))
  })

  it('fails a task named in ENGINE_FAIL_TASKS and retries one named with =N', async () => {
    const engine = await startTestEngine({ ENGINE_FAIL_TASKS: 'test_site/armada_test_releases, deploy_site/armada_test_releases=5, ucp_preflight_check=1' })
    await engine.trigger('test_site', 'E1', { stub: { retries: { ucp_preflight_check: 1 } } })
    expect((await engine.waitRun('test_site', 'E1')).state).toBe('failed')
    const tis = await engine.tis('test_site', 'E1')
    expect(stateOf(tis)).toMatchObject({ 'preflight.ucp_preflight_check': 'success', armada_test_releases: 'failed' })
    expect(tis.find((t) => t.task_id === 'preflight.ucp_preflight_check')).toMatchObject({ state: 'success', try_number: 2 })
  })
})
