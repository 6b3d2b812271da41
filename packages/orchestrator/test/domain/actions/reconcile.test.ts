// What the start-up reconcile says: a line at the default level only when it found something, so that an idle stack
// prints nothing after its banner.
import { describe, expect, it } from 'vitest'
import { reconcileLines, type ReconcileReport } from '../../../src/domain/actions/reconcile.ts'

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
