// Starting an action's workflow so that no run is ever without its action: the action is saved first (start pending),
// then its run is triggered with the action id as run id, and the start is settled from what the engine says — the
// answer to the trigger, or, when that answer is lost, a look-up of the run by id. A start left pending (a lost
// answer, an orchestrator that died in between) is settled later by the same look-up, and given up only when the
// engine still has no run a grace period after the trigger was sent. A site action is started holding the
// site-action lease: each write of its start (unpausing the DAG, saving the action, the trigger) is made only while
// that lease is still held, so that a start held up past its lease never runs beside one another orchestrator began.
import { ConflictError, DownstreamError, NotFoundError, ServiceUnavailableError, type ApiError, type CallContext } from '@slipway/common'
import type { ActionRecord, Repositories } from '../../db/repositories.ts'
import { triggerRefused, type EngineClient, type EngineRun } from '../../clients/engine.ts'
import type { ActionKind } from '../catalog.ts'
import type { EngineReads } from '../engine/engine-reads.ts'
import { LeaseLostError, type HeldLease } from '../database-lease.ts'
import { plainTimestamp } from '../format.ts'
import { runInProgress } from './lifecycle.ts'
import { engineParametersOf } from './target-nodes.ts'

/** What a start that did not complete leaves behind: the action is saved either way. */
export type UnsettledStart = 'pending' | 'failed'

interface StarterDeps {
  repos: Repositories
  engine: EngineClient
  reads: EngineReads
  designRef: (revisionId: number) => string
  /** How long after its trigger was sent a start with no run in the engine is still waited for. */
  graceMs: number
  /** Called once the engine has accepted a trigger, before the start is saved as started (tests stop here). */
  afterTrigger?: ((actionId: string) => Promise<void>) | undefined
  now?: () => number
}

/** The run's conf, rebuilt from the saved action: the first trigger and any later one send the same. */
function confOf (action: ActionRecord, kind: ActionKind, designRef: (revisionId: number) => string): Record<string, unknown> {
  return {
    action: {
      id: action.id,
      name: action.name,
      parameters: engineParametersOf(kind, action.parameters),
      dag_id: action.dag_id,
      user: action.user,
      context_marker: action.context_marker,
      committed_rev_id: action.committed_rev_id,
      timestamp: plainTimestamp(action.datetime)
    },
    design_ref: action.committed_rev_id === null ? null : designRef(action.committed_rev_id)
  }
}

/** The engine's failures that mean "the engine cannot do it now", as opposed to a bug of ours. */
const engineFailure = (error: unknown): error is DownstreamError | NotFoundError | ConflictError =>
  error instanceof DownstreamError || error instanceof NotFoundError || error instanceof ConflictError

/**
 * Airflow creates DAGs paused: unpause unless a run of it was paused on purpose (an action is Paused). Runs before
 * anything is saved, so an engine that fails here leaves nothing behind; holding a lease (`held`), it unpauses
 * only while the lease is still held.
 */
async function prepareDag (deps: StarterDeps, dagId: string, ctx: CallContext, held?: HeldLease): Promise<void> {
  const { engine } = deps
  try {
    const dag = await engine.dag(dagId, ctx)
    if (!dag.is_paused) return
    const inProgress = (await engine.runs({ dagIds: [dagId] }, ctx)).some((r) => runInProgress(r.state))
    if (!inProgress) {
      await held?.check()
      await engine.setPaused(dagId, false, ctx)
      deps.reads.paused(dagId, false)
    }
  } catch (error) {
    if (engineFailure(error)) {
      throw new ServiceUnavailableError('Unable to complete request to Airflow', error.reason, { cause: error })
    }
    throw error
  }
}

async function started (deps: StarterDeps, action: ActionRecord, run: EngineRun): Promise<void> {
  await deps.repos.actions.markStarted(action.id, run.logical_date ?? run.run_after ?? null)
  deps.reads.triggered(run)
}

/** The 503 of a start that did not complete, naming the saved action and what became of it. */
function unavailable (action: ActionRecord, state: UnsettledStart, error: ApiError): ServiceUnavailableError {
  const what = state === 'failed'
    ? `Action ${action.id} is saved as failed to start: the engine has no run for it.`
    : `Action ${action.id} is saved, but the engine has not confirmed its run: GET /api/v1.0/actions/${action.id} shows whether ` +
      'it started, and this request sent again with the same X-Context-Marker starts no second run.'
  return new ServiceUnavailableError('Unable to complete request to Airflow', `${error.reason} ${what}`, {
    cause: error,
    retry: state === 'pending',
    infoList: [{ message: what, action_id: action.id, start_status: state === 'failed' ? 'failed_to_start' : 'trigger_pending' }]
  })
}

/**
 * Before a new action's trigger: the lease it was saved under still held, or the action saved as failed to start
 * (no trigger was sent) and a 503 naming it. A new action's only: an action tried earlier may have a run already.
 */
async function requireHeld (deps: StarterDeps, action: ActionRecord, held: HeldLease): Promise<void> {
  try {
    await held.check()
  } catch (error) {
    if (!(error instanceof LeaseLostError)) throw error
    const reason = `The ${error.lockType} lock was lost before its trigger was sent: no run was started`
    await deps.repos.actions.markStartFailed(action.id, reason)
    throw unavailable(action, 'failed', error)
  }
}

/**
 * Triggers the saved (pending) action's run and settles its start: the run when the engine has it (its answer, a
 * duplicate run id meaning "triggered already", or the look-up after a lost answer); else a 503 naming the action,
 * saved as failed to start when the engine refused the trigger, still pending when its answer was lost.
 */
async function trigger (deps: StarterDeps, action: ActionRecord, kind: ActionKind, ctx: CallContext): Promise<EngineRun> {
  const { engine, repos } = deps
  let run: EngineRun
  try {
    run = await engine.trigger(action.dag_id, action.id, confOf(action, kind, deps.designRef), ctx)
  } catch (error) {
    if (!engineFailure(error)) throw error
    if (triggerRefused(error)) {
      await repos.actions.markStartFailed(action.id, `The engine refused the trigger: ${error.reason}`)
      throw unavailable(action, 'failed', error)
    }
    // the answer is lost, not the request: the engine may have made the run
    const found = await engine.run(action.dag_id, action.id, ctx).catch(() => undefined)
    if (found === undefined) {
      const triggerAt = action.trigger_at ?? new Date((deps.now ?? Date.now)()).toISOString()
      await repos.actions.notePending(action.id, triggerAt, `The engine did not confirm the trigger: ${error.reason}`)
      throw unavailable(action, 'pending', error)
    }
    run = found
  }
  await deps.afterTrigger?.(action.id)
  await started(deps, action, run)
  return run
}

/**
 * Settles a pending start from the engine: `started` when it has the run; `failed` when it has none `graceMs`
 * after the last trigger was sent (a trigger that has not arrived by then never will); else still `pending`.
 * Throws when the engine cannot be asked.
 */
async function settle (deps: StarterDeps, action: ActionRecord, ctx: CallContext): Promise<'started' | UnsettledStart> {
  const run = await deps.engine.run(action.dag_id, action.id, ctx)
  if (run !== undefined) {
    await started(deps, action, run)
    return 'started'
  }
  const sentAt = Date.parse(action.trigger_at ?? action.datetime)
  if ((deps.now ?? Date.now)() - sentAt < deps.graceMs) return 'pending'
  const reason = `The engine has no run for this action ${Math.round(deps.graceMs / 1000)} s after its trigger was sent: the trigger did not reach it`
  return await deps.repos.actions.markStartFailed(action.id, reason) ? 'failed' : 'pending'
}

export function createActionStarter (deps: StarterDeps) {
  return {
    prepareDag: async (dagId: string, ctx: CallContext, held?: HeldLease) => { await prepareDag(deps, dagId, ctx, held) },
    requireHeld: async (action: ActionRecord, held: HeldLease) => { await requireHeld(deps, action, held) },
    trigger: async (action: ActionRecord, kind: ActionKind, ctx: CallContext) => await trigger(deps, action, kind, ctx),
    settle: async (action: ActionRecord, ctx: CallContext) => await settle(deps, action, ctx),
    started: async (action: ActionRecord, run: EngineRun) => { await started(deps, action, run) }
  }
}

export type ActionStarter = ReturnType<typeof createActionStarter>
