// The interface's steps and sub-workflows derived from one Airflow 3 run with task groups (`<group>.<task>` ids).
import { describe, expect, it } from 'vitest'
import type { EngineRun, EngineTask } from '../../src/clients/engine.ts'
import { groupState, orderedSteps, resolveStep, workflowDetail } from '../../src/domain/steps.ts'

const RUN = {
  dag_id: 'deploy_site',
  dag_run_id: 'A1',
  logical_date: '2026-03-01T10:00:00.123456Z',
  run_after: '2026-03-01T10:00:00.123456Z',
  start_date: '2026-03-01T10:00:01Z',
  end_date: null,
  state: 'running',
  run_type: 'manual'
} as unknown as EngineRun

function task (taskId: string, state: string | null, start: string | null = null, end: string | null = null): EngineTask {
  return { task_id: taskId, dag_id: 'deploy_site', dag_run_id: 'A1', state, start_date: start, end_date: end, try_number: state === null ? 0 : 1, logical_date: RUN.logical_date, operator: 'X' } as unknown as EngineTask
}

describe('step order and lookup', () => {
  it('lists the fixed step list with null for tasks not made yet, then unknown tasks in engine order', () => {
    const steps = orderedSteps('deploy_site', [task('extra_b', 'success'), task('preflight.ucp_preflight_check', 'running'), task('action_xcom', 'success'), task('extra_a', null)])
    expect(steps).toHaveLength(19)
    expect(steps.slice(0, 3).map((s) => [s.id, s.state])).toEqual([['action_xcom', 'success'], ['dag_concurrency_check', null], ['preflight.ucp_preflight_check', 'running']])
    expect(steps.slice(17).map((s) => s.id)).toEqual(['extra_b', 'extra_a'])
  })

  it('resolves an engine task id, or a bare name that names exactly one grouped task', () => {
    const steps = orderedSteps('update_site', [task('drydock_build.verify_site', 'success'), task('x.verify_site', 'success'), task('preflight.ucp_preflight_check', 'success')])
    expect(resolveStep(steps, 'preflight.ucp_preflight_check')?.id).toBe('preflight.ucp_preflight_check')
    expect(resolveStep(steps, 'ucp_preflight_check')?.id).toBe('preflight.ucp_preflight_check')
    expect(resolveStep(steps, 'verify_site')).toBeUndefined() // two grouped tasks bear that name
    expect(resolveStep(steps, 'nope')).toBeUndefined()
  })
})

describe('sub-workflows derived from task groups', () => {
  it('derives each group\'s state: null before any task started, running, failed, success', () => {
    expect(groupState([task('g.a', null), task('g.b', null)])).toBeNull()
    expect(groupState([task('g.a', 'success', 't1', 't2'), task('g.b', null)])).toBe('running')
    expect(groupState([task('g.a', 'up_for_retry', 't1', 't2'), task('g.b', 'failed', 't1', 't2')])).toBe('running')
    expect(groupState([task('g.a', 'failed', 't1', 't2'), task('g.b', 'upstream_failed', 't2', 't2')])).toBe('failed')
    expect(groupState([task('g.a', 'success', 't1', 't2'), task('g.b', 'skipped', 't2', 't2')])).toBe('success')
  })

  it('lists the groups in step order with their dates and states, a failed group among them, and answers one group alone', () => {
    const tasks = [
      task('action_xcom', 'success', '2026-03-01T10:00:01Z', '2026-03-01T10:00:02Z'),
      task('preflight.ucp_preflight_check', 'success', '2026-03-01T10:00:02Z', '2026-03-01T10:00:03Z'),
      task('validate_site_design.deckhand_validate_site_design', 'success', '2026-03-01T10:00:04Z', '2026-03-01T10:00:05Z'),
      task('validate_site_design.promenade_validate_site_design', 'failed', '2026-03-01T10:00:04Z', '2026-03-01T10:00:06Z'),
      task('drydock_build.verify_site', 'upstream_failed', '2026-03-01T10:00:06Z', '2026-03-01T10:00:06Z'),
      task('armada_build.armada_post_apply', null),
      task('create_action_tag', 'running', '2026-03-01T10:00:07Z')
    ]
    const detail = workflowDetail(RUN, tasks, '')
    expect(detail.workflow_id).toBe('deploy_site__2026-03-01T10:00:00.123456')
    expect(detail.steps.map((s) => s.task_id)).toEqual(['action_xcom', 'preflight.ucp_preflight_check', 'validate_site_design.deckhand_validate_site_design',
      'validate_site_design.promenade_validate_site_design', 'drydock_build.verify_site', 'armada_build.armada_post_apply', 'create_action_tag'])
    expect(detail.sub_dags.map((s) => [s.dag_id, s.workflow_id, s.state, s.start_date, s.end_date])).toEqual([
      ['deploy_site.preflight', 'deploy_site.preflight__2026-03-01T10:00:00.123456', 'success', '2026-03-01 10:00:02.000000', '2026-03-01 10:00:03.000000'],
      ['deploy_site.validate_site_design', 'deploy_site.validate_site_design__2026-03-01T10:00:00.123456', 'failed', '2026-03-01 10:00:04.000000', '2026-03-01 10:00:06.000000'],
      ['deploy_site.drydock_build', 'deploy_site.drydock_build__2026-03-01T10:00:00.123456', 'failed', '2026-03-01 10:00:06.000000', '2026-03-01 10:00:06.000000'],
      ['deploy_site.armada_build', 'deploy_site.armada_build__2026-03-01T10:00:00.123456', null, null, null]
    ])
    expect(detail.sub_dags.every((s) => s.run_id === 'A1' && s.external_trigger === false && s.execution_date === detail.execution_date)).toBe(true)
    const group = workflowDetail(RUN, tasks, 'validate_site_design')
    expect(group).toEqual({ ...detail.sub_dags[1], steps: detail.steps.slice(2, 4), sub_dags: [] })
  })
})
