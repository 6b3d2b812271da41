// Controlling an action's run (POST /actions/{id}/control/{verb}): who may is the route's policy
// (invoke_action_control); when is here. Pause: the run is running and its DAG not paused (Airflow 3 pauses a whole
// DAG, which is why at most one run of an exclusive workflow is in progress). Unpause: the run is queued or running
// and its DAG paused. Stop: the run is queued or running; it is failed, and its DAG unpaused if it was paused. An
// action that never ran (refused, or no run in the engine) can do none of them. Each accepted control is audited.
import { ConflictError, NotFoundError, newUlid, type RequestContext } from '@slipway/common'
import type { ActionRecord, Repositories } from '../../db/repositories.ts'
import type { EngineClient, EngineRun } from '../../clients/engine.ts'
import type { EngineReads } from '../engine/engine-reads.ts'
import { requireAction } from './entity.ts'
import { runInProgress } from './lifecycle.ts'

export const CONTROL_VERBS = ['pause', 'unpause', 'stop'] as const
export type ControlVerb = typeof CONTROL_VERBS[number]

interface ControlDeps {
  repos: Repositories
  engine: EngineClient
  /** The engine reads (the engine watch) told what a control changed. */
  reads: EngineReads
}

/** What a control acts on: the action, its run and whether its DAG is paused. */
interface Target { action: ActionRecord, run: EngineRun, paused: boolean }

/** The 409 of a control the run's state does not allow, naming the state it needs. */
const refusal = (verb: ControlVerb, run: EngineRun | undefined, required: string): ConflictError =>
  new ConflictError(`Unable to ${verb} action`,
    run === undefined ? 'dag_run does not exist' : `dag_run state must be ${required}, but is ${run.state}`)

async function pause (deps: ControlDeps, { action, run, paused }: Target, ctx: RequestContext): Promise<void> {
  if (run.state !== 'running' || paused) {
    throw paused ? new ConflictError('Unable to pause action', 'The action is already paused') : refusal('pause', run, 'running')
  }
  await deps.engine.setPaused(action.dag_id, true, ctx)
  deps.reads.paused(action.dag_id, true)
}

async function unpause (deps: ControlDeps, { action, run, paused }: Target, ctx: RequestContext): Promise<void> {
  if (!runInProgress(run.state) || !paused) {
    throw paused ? refusal('unpause', run, 'queued or running') : new ConflictError('Unable to unpause action', 'The action is not paused')
  }
  await deps.engine.setPaused(action.dag_id, false, ctx)
  deps.reads.paused(action.dag_id, false)
}

async function stop (deps: ControlDeps, { action, run, paused }: Target, ctx: RequestContext): Promise<void> {
  if (!runInProgress(run.state)) throw refusal('stop', run, 'running or queued')
  await deps.engine.setRunState(action.dag_id, action.id, 'failed', ctx)
  if (paused) await deps.engine.setPaused(action.dag_id, false, ctx)
  // a stopped run changes many task instances: read the engine itself until the watch has seen them
  deps.reads.changed()
}

const CONTROLS: Record<ControlVerb, typeof pause> = { pause, unpause, stop }

export function createActionControl (deps: ControlDeps) {
  /** Applies `verb` to the action's run: 404 for an unknown action or verb, 409 when the run's state does not allow it. */
  return async function control (actionId: string, verb: string, ctx: RequestContext): Promise<void> {
    const action = await requireAction(deps.repos, actionId)
    if (!(CONTROL_VERBS as readonly string[]).includes(verb)) throw new NotFoundError('Control not supported', `Unknown control ${verb}`)
    const known = verb as ControlVerb
    const run = action.validation_failed ? undefined : await deps.engine.run(action.dag_id, action.id, ctx)
    if (run === undefined) throw refusal(known, run, 'running')
    const paused = (await deps.engine.dag(action.dag_id, ctx)).is_paused
    await CONTROLS[known](deps, { action, run, paused }, ctx)
    await deps.repos.audit.insert({
      id: newUlid(), action_id: action.id, command: verb, user: ctx.user ?? 'unknown', datetime: new Date().toISOString()
    })
  }
}

export type ActionControl = ReturnType<typeof createActionControl>
