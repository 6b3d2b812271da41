// A lease held in the database: a row naming its holder and when it expires, taken before work that one process at a
// time may do (staging and commits, a site action's start), released on every path, and given up by a holder that
// died once its lease runs out, so a crash never blocks the others for good.
import { ConflictError, newUlid, type Metrics, type RequestContext } from '@slipway/common'
import type { Repositories } from '../db/repositories.ts'

export const CONFIGDOCS_LOCK = 'configdocs_update'

export function createDatabaseLease (deps: {
  repos: Repositories
  leaseS: number
  /** Default: the configdocs lock. */
  lockType?: string
  /** How long to wait for a held lock before the 409; default 0, the configdocs rule (409 at once). */
  waitMs?: number
  now?: () => Date
  onReleaseError?: (error: unknown) => void
  /** Where the time taken to get (or give up on) the lock is counted. */
  metrics?: Pick<Metrics, 'lockWait'>
}) {
  const now = deps.now ?? (() => new Date())
  const lockType = deps.lockType ?? CONFIGDOCS_LOCK
  /** Runs `work` holding the lock; 409 while another holder has it (after `waitMs`). */
  async function withLock<T> (ctx: Pick<RequestContext, 'user' | 'contextMarker'>, work: () => Promise<T>): Promise<T> {
    const started = performance.now()
    const deadline = Date.now() + (deps.waitMs ?? 0)
    let lock
    for (;;) {
      lock = await deps.repos.locks.acquire({
        id: newUlid(), lock_type: lockType, user: ctx.user ?? 'unknown', reference_id: ctx.contextMarker, leaseS: deps.leaseS, now: now()
      })
      if (lock !== undefined || Date.now() >= deadline) break
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    deps.metrics?.lockWait(lockType, lock === undefined ? 'refused' : 'acquired', (performance.now() - started) / 1000)
    if (lock === undefined) {
      throw new ConflictError('Blocked by another process',
        `Another process is currently blocking this request with a lock for ${lockType}. Lock expires in not more than ${deps.leaseS} seconds`)
    }
    try {
      return await work()
    } finally {
      await deps.repos.locks.release(lock.id).catch((error: unknown) => deps.onReleaseError?.(error))
    }
  }
  return { withLock }
}

export type DatabaseLease = ReturnType<typeof createDatabaseLease>
