// An action's lifecycle from its run's state, its DAG's pause flag and its steps' states; and, for an action whose run
// never started, from how its start ended.
import { describe, expect, it } from 'vitest'
import { actionLifecycle, actionState, lifecycleOf } from '../../../src/domain/actions/lifecycle.ts'
import { actionRecord } from '../../helpers/action-record.ts'

describe('actionLifecycle', () => {
  it('is Failed for a run the engine calls a success when any step ended failed or upstream_failed', () => {
    expect(actionLifecycle('success', false, ['success', 'failed', 'upstream_failed', 'success'])).toBe('Failed')
    expect(actionLifecycle('success', false, ['success', 'upstream_failed', 'success'])).toBe('Failed')
    expect(actionLifecycle('SUCCESS', false, ['success', 'FAILED'])).toBe('Failed')
    expect(actionLifecycle('success', true, ['failed'])).toBe('Failed')
  })

  it('is Complete for a success whose steps succeeded or were skipped (a retried step counts by its last try)', () => {
    expect(actionLifecycle('success', false, ['success', 'skipped', 'success'])).toBe('Complete')
    expect(actionLifecycle('success', false, [])).toBe('Complete')
    expect(actionLifecycle('success', false, ['success', null, 'removed'])).toBe('Complete')
  })

  it('keeps the run\'s lifecycle while it goes on, whatever its steps did so far', () => {
    expect(actionLifecycle('running', false, ['failed', 'running'])).toBe('Processing')
    expect(actionLifecycle('running', true, ['failed', 'running'])).toBe('Paused')
    expect(actionLifecycle('queued', false, [])).toBe('Pending')
    expect(actionLifecycle(undefined, false, [])).toBe('Pending')
    expect(actionLifecycle('failed', false, ['success', 'failed'])).toBe('Failed')
    expect(actionLifecycle('failed', false, [])).toBe('Failed')
  })

  it('is Processing for a run read as queued once any of its steps has started: the run\'s state was read before it moved', () => {
    expect(actionLifecycle('queued', false, ['success', 'running', null])).toBe('Processing')
    expect(actionLifecycle('queued', false, ['up_for_retry', null])).toBe('Processing')
    expect(actionLifecycle('QUEUED', false, ['RUNNING'])).toBe('Processing')
    expect(actionLifecycle('queued', true, ['running'])).toBe('Paused')
    // steps waiting for a worker have not started; nor has a run the engine does not have
    expect(actionLifecycle('queued', false, ['scheduled', 'queued', null, 'none'])).toBe('Pending')
    expect(actionLifecycle(undefined, false, ['running'])).toBe('Pending')
  })

  it('leaves the run-only rule as it was', () => {
    expect(['none', 'queued', 'running', 'success', 'failed', 'odd'].map((s) => lifecycleOf(s, false)))
      .toEqual(['Pending', 'Pending', 'Processing', 'Complete', 'Failed', 'Unknown (odd)'])
  })
})

describe('actionState', () => {
  const run = { state: 'running' }
  it('is Failed for an action a pre-run check refused or whose trigger failed, with why it failed to start', () => {
    expect(actionState(actionRecord({ validation_failed: true, start_state: 'refused' }), undefined, false, []))
      .toEqual({ action_lifecycle: 'Failed', start_status: 'refused', start_reason: null })
    expect(actionState(actionRecord({ start_state: 'failed', start_reason: 'The engine refused the trigger' }), undefined, false, []))
      .toEqual({ action_lifecycle: 'Failed', start_status: 'failed_to_start', start_reason: 'The engine refused the trigger' })
  })

  it('is Pending while the engine has not confirmed a start, and follows the run once the engine has it, whatever was saved', () => {
    expect(actionState(actionRecord({ start_state: 'pending', start_reason: 'lost' }), undefined, false, []))
      .toEqual({ action_lifecycle: 'Pending', start_status: 'trigger_pending', start_reason: 'lost' })
    expect(actionState(actionRecord({ start_state: 'pending', start_reason: 'lost' }), run, false, []))
      .toEqual({ action_lifecycle: 'Processing', start_status: 'started', start_reason: null })
    expect(actionState(actionRecord({ start_state: 'failed', start_reason: 'late' }), run, true, []))
      .toEqual({ action_lifecycle: 'Paused', start_status: 'started', start_reason: null })
  })
})
