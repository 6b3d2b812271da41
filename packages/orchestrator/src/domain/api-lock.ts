// The configdocs lock (spec/orchestrator.md §2.8) without the seed's deadlock hazard: a row with an owner and a
// lease; released on every path; a holder that died stops blocking when its lease runs out.
import { ConflictError, newUlid, type RequestContext } from '@slipway/common'
import type { Repositories } from '../db/repositories.ts'

export const CONFIGDOCS_LOCK = 'configdocs_update'

export function createApiLock (deps: { repos: Repositories, leaseS: number, now?: () => Date, onReleaseError?: (error: unknown) => void }) {
  const now = deps.now ?? (() => new Date())
  /** Runs `work` holding the lock; 409 while another holder has it. */
  async function withLock<T> (ctx: Pick<RequestContext, 'user' | 'contextMarker'>, work: () => Promise<T>): Promise<T> {
    const lock = await deps.repos.locks.acquire({
      id: newUlid(), lock_type: CONFIGDOCS_LOCK, user: ctx.user ?? 'unknown', reference_id: ctx.contextMarker, leaseS: deps.leaseS, now: now()
    })
    if (lock === undefined) {
      throw new ConflictError('Blocked by another process',
        `Another process is currently blocking this request with a lock for ${CONFIGDOCS_LOCK}. Lock expires in not more than ${deps.leaseS} seconds`)
    }
    try {
      return await work()
    } finally {
      await deps.repos.locks.release(lock.id).catch((error: unknown) => deps.onReleaseError?.(error))
    }
  }
  return { withLock }
}

export type ApiLock = ReturnType<typeof createApiLock>
