// An action's lifecycle from its run's state, its DAG's pause flag and its steps' states.
import { describe, expect, it } from 'vitest'
import { actionLifecycle, lifecycleOf } from '../../../src/domain/actions/lifecycle.ts'

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

  it('leaves the run-only rule as it was', () => {
    expect(['none', 'queued', 'running', 'success', 'failed', 'odd'].map((s) => lifecycleOf(s, false)))
      .toEqual(['Pending', 'Pending', 'Processing', 'Complete', 'Failed', 'Unknown (odd)'])
  })
})
