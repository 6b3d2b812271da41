// Reconciling over the fakes: a pending start settled from the engine, runs without an action reported once; and what
// the start-up reconcile says: a line at the default level only when it found something, so that an idle stack prints
// nothing after its banner.
import { describe, expect, it } from 'vitest'
import { DownstreamError } from '@slipway/common'
import { reconcileLines, type ReconcileReport } from '../../../src/domain/actions/reconcile.ts'
import { actionUseCases, freshCtx } from '../../helpers/action-use-cases.ts'
import { fakeEngine } from '../../helpers/fakes.ts'

const CTX = { contextMarker: 'reconciler', user: 'slipway' }

describe('reconcile', () => {
  it('settles a start left pending once the engine has its run, and reports a run without an action once', async () => {
    const engine = fakeEngine()
    const trigger = engine.client.trigger
    // the engine makes the run but its answer is lost
    engine.client.trigger = async (...args) => {
      await trigger(...args)
      engine.client.run = async () => undefined
      throw new DownstreamError('engine', 'socket hang up', { failure: 'unreachable' })
    }
    const u = actionUseCases({ engine })
    const run = engine.client.run
    await expect(u.create({ name: 'test_site', parameters: {} }, false, freshCtx())).rejects.toMatchObject({ statusCode: 503 })
    const [pending] = await u.repos.actions.list()
    engine.client.run = run
    await trigger('test_site', 'manual__by_hand', {}, CTX)
    const first = await u.reconcile(CTX)
    expect(first).toMatchObject({ started: [pending?.id], failed: [], pending: [], orphans: 1, errors: [] })
    expect(first.newOrphans.map((o) => o.run.dag_run_id)).toEqual(['manual__by_hand'])
    expect(u.reconcileStatus()).toEqual({ pending: 0, orphans: 1 })
    expect(await u.repos.actions.get(String(pending?.id))).toMatchObject({ start_state: 'started' })
    const second = await u.reconcile(CTX)
    expect(second).toMatchObject({ started: [], newOrphans: [], orphans: 1 })
  })
})

const report = (over: Partial<ReconcileReport> = {}): ReconcileReport =>
  ({ started: [], failed: [], pending: [], newOrphans: [], orphans: 0, errors: [], ...over })

describe('reconcileLines at start-up', () => {
  it('finding nothing is one line at debug', () => {
    expect(reconcileLines(report(), true)).toEqual([
      { level: 'debug', details: { started: 0, failed: 0, pending: 0, orphanRuns: 0 }, message: 'actions reconciled with the engine at start-up' }
    ])
  })

  it('finding a pending start or a run without an action is a line at info', () => {
    expect(reconcileLines(report({ pending: ['A'] }), true).at(-1)).toMatchObject({ level: 'info', details: { pending: 1 } })
    expect(reconcileLines(report({ orphans: 2 }), true).at(-1)).toMatchObject({ level: 'info', details: { orphanRuns: 2 } })
  })
})
