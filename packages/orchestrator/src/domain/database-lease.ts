// A lease held in the database: a row naming its holder and when it expires, taken before work that one process at a
// time may do (staging and commits, a site action's start), released on every path, and given up by a holder that
// died once its lease runs out, so a crash never blocks the others for good.
//
// A live holder keeps its lease however long its work takes (a slow store, a slow engine): a heartbeat renews it every
// third of the lease while the work runs. A holder that could not renew it in time (its database out of reach, its
// process held up) has lost it, and another process may have taken it over and undone its work. So the holder asks
// before each of its writes whether the lease is still its own (`HeldLease.check`, which renews it in the same step)
// and stops there once it is not, writing nothing more.
import { ConflictError, newUlid, ServiceUnavailableError, type Metrics, type RequestContext } from '@slipway/common'
import type { LockRecord, Repositories } from '../db/repositories.ts'

export const CONFIGDOCS_LOCK = 'configdocs_update'

/** The lease ran out before its holder renewed it: the holder stops before its next write. */
export class LeaseLostError extends ServiceUnavailableError {
  readonly lockType: string
  constructor (lockType: string, leaseS?: number) {
    const lease = leaseS === undefined ? 'lease' : `lease (${leaseS} s)`
    super(`The ${lockType} lock was lost`,
      `The ${lockType} lock's ${lease} ran out before this request renewed it (the database out of reach, or the ` +
      'orchestrator held up), so another process may have taken the lock over; this request wrote nothing after that',
      { retry: true })
    this.lockType = lockType
  }
}

/** The lease as its holder's work sees it. */
export interface HeldLease {
  /** Renews the lease if it is still this holder's; else throws LeaseLostError. Called before each write. */
  check: () => Promise<void>
}

export function createDatabaseLease (deps: {
  repos: Repositories
  leaseS: number
  /** Default: the configdocs lock. */
  lockType?: string
  /** How long to wait for a held lock before the 409; default 0, the configdocs rule (409 at once). */
  waitMs?: number
  now?: () => Date
  /** Where a release or a renewal that failed is reported (the lease runs out by itself). */
  log?: (error: unknown) => void
  /** Where the time taken to get (or give up on) the lock is counted. */
  metrics?: Pick<Metrics, 'lockWait'>
}) {
  const now = deps.now ?? (() => new Date())
  const lockType = deps.lockType ?? CONFIGDOCS_LOCK
  // a renewal every third of the lease: one late or failed renewal does not lose it
  const heartbeatMs = deps.leaseS * 1000 / 3

  /** The lease of `lock` held: renewed every `heartbeatMs` until `stop`. */
  function hold (lock: LockRecord): HeldLease & { stop: () => void } {
    // when the lease runs out by this process's clock (the one that set it)
    let expiresAt = Date.parse(lock.expires_at)
    let lost = false
    async function renew (): Promise<void> {
      const at = now()
      if (!lost && at.getTime() < expiresAt && await deps.repos.locks.renew({ id: lock.id, leaseS: deps.leaseS, now: at })) {
        expiresAt = Math.max(expiresAt, at.getTime() + deps.leaseS * 1000)
        return
      }
      lost = true
    }
    let beating = false
    const timer = setInterval(() => {
      if (beating) return
      beating = true
      renew().catch((error: unknown) => deps.log?.(error)).finally(() => { beating = false })
    }, heartbeatMs)
    timer.unref()
    return {
      async check () {
        await renew()
        if (lost) throw new LeaseLostError(lockType, deps.leaseS)
      },
      stop: () => { clearInterval(timer) }
    }
  }

  /** Runs `work` holding the lock; 409 while another holder has it (after `waitMs`). */
  async function withLock<T> (ctx: Pick<RequestContext, 'user' | 'contextMarker'>, work: (held: HeldLease) => Promise<T>): Promise<T> {
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
    const held = hold(lock)
    try {
      return await work(held)
    } finally {
      held.stop()
      // a lease lost is another holder's now: its row (this holder's) is released all the same, which frees nothing
      await deps.repos.locks.release(lock.id).catch((error: unknown) => deps.log?.(error))
    }
  }
  return { withLock }
}

export type DatabaseLease = ReturnType<typeof createDatabaseLease>
