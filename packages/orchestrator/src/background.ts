// The orchestrator's background loops, each at once and then every interval, none overlapping itself: the staging
// recovery (a staging cut short undone), the tag poller (site-action tags settled) and the reconciler (pending
// starts settled, runs without an action reported). deps.ts builds what they call; the server starts and stops them.
import type { CallContext, RequestContext } from '@slipway/common'
import { emptyReport, type ReconcileReport } from './domain/actions/reconcile.ts'
import type { StagingRecovery } from './domain/configdocs/staging.ts'

/** How often a staging cut short is looked for and undone (at start-up first; the next staging or commit also does). */
export const STAGING_RECOVERY_INTERVAL_MS = 5000

/**
 * Undoes a staging cut short by a kill or by a store that failed while it was written back: at once, then every
 * `intervalMs` (one read of the journal when none is left). The configdocs lock of a process that died mid-staging
 * is held until its lease runs out, and the staging is undone then; a staging still under way keeps renewing its
 * lease, so its row waits, however long the staging takes.
 */
export function startStagingRecovery (
  deps: { configdocs: { recoverStaging: StagingRecovery } },
  intervalMs: number,
  log: (message: string, details?: Record<string, unknown>) => void
): { close: () => void } {
  let waiting = false
  return everyInterval(intervalMs, async () => {
    await deps.configdocs.recoverStaging({ contextMarker: 'staging-recovery', user: 'slipway' })
      .then((result) => {
        if (result === 'busy' && !waiting) {
          log('a staging journal row waits for the configdocs lock: its staging is still under way, or the process that made it died and its lease has not run out yet')
        }
        if (typeof result === 'number' && result > 0) {
          log('a staging cut short was undone: the buffer is as it was before it', { undone: result })
        }
        waiting = result === 'busy'
      })
      .catch((error: unknown) => { log('a staging cut short could not be undone yet', { err: error }) })
  })
}

/** Settles site-action tags every `intervalMs` (driven from the database, it catches up after a restart). */
export function startTagPoller (
  deps: { actions: { settleTags: (ctx: Pick<RequestContext, 'contextMarker' | 'user'>) => Promise<unknown> } },
  intervalMs: number,
  log: (error: unknown) => void
): { close: () => void } {
  return everyInterval(intervalMs, async () => {
    await deps.actions.settleTags({ contextMarker: 'tag-poller', user: 'slipway' }).catch(log)
  })
}

/** Reconciles at once and then every `intervalMs`, one pass at a time, handing each pass's report on. */
export function startReconciling (
  reconcile: (ctx: CallContext) => Promise<ReconcileReport>,
  intervalMs: number,
  onReport: (report: ReconcileReport, atStart: boolean) => void
): { close: () => void } {
  let passes = 0
  return everyInterval(intervalMs, async () => {
    const atStart = passes++ === 0
    await reconcile({ contextMarker: 'reconciler', user: 'slipway' })
      .then((report) => { onReport(report, atStart) }, (error: unknown) => { onReport({ ...emptyReport(), errors: [error] }, atStart) })
  })
}

/**
 * Runs `pass` at once and then every `intervalMs`, never two at a time: a tick that finds the last pass still running
 * is skipped. `pass` handles its own failures. The timer does not keep the process alive.
 */
function everyInterval (intervalMs: number, pass: () => Promise<void>): { close: () => void } {
  let running = false
  const tick = (): void => {
    if (running) return
    running = true
    pass().finally(() => { running = false })
  }
  const timer = setInterval(tick, intervalMs)
  timer.unref()
  tick()
  return { close: () => clearInterval(timer) }
}
