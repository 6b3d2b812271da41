// Actions: creation with pre-run validations, control and the site-action tags; the checks before a run are
// pre-run-checks.ts, starting the run (saved first, then triggered) actions-start.ts, reconciling the actions with the
// engine actions-reconcile.ts, and the reads (entity, steps, logs) action-reads.ts.
import {
  BadRequestError, ConflictError, NotFoundError, ServiceUnavailableError, newUlid, type RequestContext
} from '@slipway/common'
import { TAG_REQUIRED_TASKS, TAG_STEP, TAG_WATCHED_TASKS } from '@slipway/airflow-contract'
import type { Repositories, ActionRecord, AuditRecord } from '../db/repositories.ts'
import type { EngineClient, EngineRun } from '../clients/engine.ts'
import type { StoreClient } from '../clients/store.ts'
import { ACTIONS, FAILED_STEP_STATES, type ActionKind } from './catalog.ts'
import { createActionReads } from './action-reads.ts'
import { directReads, type EngineReads } from './engine-watch.ts'
import type { VersionSeverity } from './deployment-configuration.ts'
import { executionDate, plainTimestamp } from './format.ts'
import { SITE_ACTION_FAILURE, SITE_ACTION_SUCCESS, readVersions } from './configdocs/versions.ts'
import type { Notes } from './notes.ts'
import type { DatabaseLease, HeldLease } from './database-lease.ts'
import { createActionStarter, targetNodesProblem } from './actions-start.ts'
import { createActionReconciler } from './actions-reconcile.ts'
import { createPreRunChecks, PreRunFailure } from './pre-run-checks.ts'

export { targetNodesOf } from './actions-start.ts'

export interface CreateActionInput { name: string, parameters: Record<string, unknown> }

const FINISHED = new Set(['success', 'failed'])

/**
 * The tag of a finished site action whose workflow did not tag it, by the rule of the workflow's `create_action_tag`
 * step in Shipyard's workflows: failure when the armada build's last task or the Airflow upgrade branch ended failed or
 * upstream_failed. A run that ended before the build's last task succeeded (stopped, say) never reached that step's
 * verdict and is a failure too. So is a run with any step failed or upstream_failed (the tag step itself, say): the
 * action's lifecycle is Failed then, and the tag says the same.
 */
export function siteActionTag (stateOf: (taskId: string) => string | null, states: Array<string | null | undefined> = []): string {
  const failed = TAG_WATCHED_TASKS.some((t) => FAILED_STEP_STATES.has(String(stateOf(t)))) ||
    TAG_REQUIRED_TASKS.some((t) => stateOf(t) !== 'success') ||
    states.some((state) => FAILED_STEP_STATES.has(String(state)))
  return failed ? SITE_ACTION_FAILURE : SITE_ACTION_SUCCESS
}

/** JSON with object keys in order: two parameter objects are the same request whatever order their keys came in. */
function canonicalJson (value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => v !== null && typeof v === 'object' && !Array.isArray(v)
    ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
    : v)
}

/** The database lock held while a site action is checked and started. */
export const SITE_ACTION_LOCK = 'site_action_start'

export function createActions (deps: {
  repos: Repositories
  engine: EngineClient
  store: StoreClient
  notes: Notes
  designRef: (revisionId: number) => string
  /**
   * The site-action lock of the database (SITE_ACTION_LOCK), against other orchestrators: held while a site action is
   * checked and started, waited for up to its lease, then 409.
   */
  startLock: DatabaseLease
  /**
   * The deployment-version check of the full deployment validation (how a missing one is reported); Skip by default.
   */
  deploymentVersionCommit?: VersionSeverity
  /** Where runs, steps and pause flags are read (the engine watch); default: the engine itself. */
  reads?: EngineReads
  /**
   * How long a start the engine has not confirmed is waited for after its trigger was sent before it is failed
   * (default 60 s); meanwhile a site action's start blocks the next site action.
   */
  startGraceMs?: number
  /** How long the same request sent again (same caller's X-Context-Marker) answers the action it made (default 1 h). */
  retryWindowMs?: number
  /** Called once the engine has accepted a trigger, before the start is saved (tests stop the process there). */
  afterTrigger?: (actionId: string) => Promise<void>
}) {
  const { repos, engine, store } = deps
  const reads = deps.reads ?? directReads(engine)
  const view = createActionReads({ repos, engine, reads, notes: deps.notes })
  const { requireAction, stepsOf } = view
  const retryWindowMs = deps.retryWindowMs ?? 3_600_000
  const starter = createActionStarter({
    repos, engine, reads, designRef: deps.designRef, graceMs: deps.startGraceMs ?? 60_000, afterTrigger: deps.afterTrigger
  })
  const checks = createPreRunChecks({ repos, engine, store, starter, deploymentVersionCommit: deps.deploymentVersionCommit })
  const reconciler = createActionReconciler({ repos, reads, starter, dagIds: [...new Set(Object.values(ACTIONS).map((a) => a.dagId))] })
  const { startLock } = deps
  let queue: Promise<unknown> = Promise.resolve()
  /** The last create of each caller's context marker in this process (perMarker). */
  const markers = new Map<string, Promise<void>>()

  /** Runs `work` alone: after every earlier call of this process has finished, and holding the site-action lock. */
  async function oneAtATime<T> (ctx: RequestContext, work: (held: HeldLease) => Promise<T>): Promise<T> {
    const mine = queue.then(async () => await startLock.withLock(ctx, work))
    queue = mine.catch(() => undefined)
    return await mine
  }

  /**
   * Who sent a request, as a retry's key knows the caller: the user id and the project of the token. A user name is not
   * enough — one name in two projects (or two domains) is two callers, whose requests are never each other's retries.
   */
  const callerOf = (ctx: RequestContext): { userId: string, projectId: string | null } | undefined =>
    ctx.userId === null ? undefined : { userId: ctx.userId, projectId: ctx.projectId }

  /** Runs `work` one at a time per caller's context marker in this process (a retry waits for its first try). */
  async function perMarker<T> (ctx: RequestContext, work: () => Promise<T>): Promise<T> {
    const caller = callerOf(ctx)
    if (ctx.contextMarker === ctx.requestId || caller === undefined) return await work()
    const key = JSON.stringify([caller.userId, caller.projectId, ctx.contextMarker])
    const mine = (markers.get(key) ?? Promise.resolve()).then(work)
    const done = mine.then(() => undefined, () => undefined)
    markers.set(key, done)
    done.then(() => { if (markers.get(key) === done) markers.delete(key) }, () => {})
    return await mine
  }

  /**
   * The saved action this request repeats, if any: a request carrying the caller's own X-Context-Marker (not one
   * given by this service) from the same caller (user id and project), with the same action, parameters and flag as
   * an action saved within the retry window that started or is pending is the same request sent again — after a lost
   * answer, say — and never a second run.
   */
  async function earlierTry (input: CreateActionInput, allowIntermediate: boolean, ctx: RequestContext): Promise<ActionRecord | undefined> {
    const caller = callerOf(ctx)
    if (ctx.contextMarker === ctx.requestId || caller === undefined) return undefined
    const since = new Date(Date.now() - retryWindowMs).toISOString()
    const candidates = await repos.actions.findRetries({ contextMarker: ctx.contextMarker, ...caller, name: input.name, since })
    const wanted = canonicalJson(input.parameters)
    return candidates.find((a) => a.allow_intermediate_commits === allowIntermediate && canonicalJson(a.parameters) === wanted)
  }

  /** The 201 body of a saved action: `timestamp` in place of `datetime`, and `dag_status` the literal SCHEDULED. */
  function createdBody (action: ActionRecord) {
    return {
      id: action.id,
      name: action.name,
      parameters: action.parameters,
      dag_id: action.dag_id,
      dag_status: 'SCHEDULED' as string | null,
      dag_execution_date: executionDate(action.dag_execution_date),
      user: action.user,
      context_marker: action.context_marker,
      timestamp: plainTimestamp(action.datetime),
      committed_rev_id: action.committed_rev_id,
      allow_intermediate_commits: action.allow_intermediate_commits
    }
  }

  /**
   * The same request again: a pending start is triggered again (same run id); then the action is answered as the
   * 201 answered it, said to be a replay (`replayed`) and with its state now — `dag_status` the run's state as the
   * engine has it, `action_lifecycle` and `start_status` as GET /actions/{id} shows them — never a SCHEDULED it has left.
   */
  async function retry (action: ActionRecord, kind: ActionKind, ctx: RequestContext) {
    if (action.start_state === 'pending') {
      const again = async (held?: HeldLease): Promise<void> => {
        // settled meanwhile (by the reconciler, or a site action's in-progress check): answered as it now stands
        const current = await repos.actions.get(action.id)
        if (current?.start_state === 'started') { action.dag_execution_date = current.dag_execution_date; return }
        if (current?.start_state !== 'pending') {
          throw new ServiceUnavailableError('Unable to complete request to Airflow',
            `Action ${action.id} failed to start: ${current?.start_reason ?? 'the engine has no run for it'}`)
        }
        await starter.prepareDag(kind.dagId, ctx, held)
        await held?.check()
        const sentAt = new Date().toISOString()
        await repos.actions.notePending(action.id, sentAt, action.start_reason)
        const run = await starter.trigger({ ...action, trigger_at: sentAt }, kind, ctx)
        action.dag_execution_date = run.logical_date ?? run.run_after ?? action.dag_execution_date
      }
      if (kind.validators.includes('no-site-action-running')) await oneAtATime(ctx, again)
      else await again()
    }
    const now = await view.get(action.id, 0, ctx)
    return {
      created: true as const,
      body: {
        ...createdBody(action),
        dag_status: now.dag_status,
        replayed: true,
        action_lifecycle: now.action_lifecycle,
        start_status: now.start_status
      }
    }
  }

  /**
   * A new action: its kind known and allowed to the caller, its target nodes (when it has them) given, then — one
   * request of the caller's context marker at a time — the same request again answered as before, or a new action
   * checked, saved and started.
   */
  async function create (input: CreateActionInput, allowIntermediate: boolean, ctx: RequestContext) {
    const kind = kindOf(input.name)
    ctx.authorize(`workflow_orchestrator:action_${input.name}`)
    const parameters = { ...input.parameters }
    requireTargetNodes(kind, parameters)
    return await perMarker(ctx, async () => {
      const earlier = await earlierTry(input, allowIntermediate, ctx)
      if (earlier !== undefined) return await retry(earlier, kind, ctx)
      return await createNew({ name: input.name, parameters }, kind, allowIntermediate, ctx)
    })
  }

  /** The kind of action a name asks for; own keys only, so a name like `constructor` is no action (and no rule). */
  function kindOf (name: string): ActionKind {
    const kind = Object.hasOwn(ACTIONS, name) ? ACTIONS[name] : undefined
    if (kind === undefined) throw new BadRequestError('Unable to start action', `Unsupported Action: ${name}`)
    return kind
  }

  /** An action on nodes names them: checked before anything is stored, so a bad list is a plain 400. */
  function requireTargetNodes (kind: ActionKind, parameters: Record<string, unknown>): void {
    const problem = kind.validators.includes('target-nodes') ? targetNodesProblem(parameters.target_nodes) : undefined
    if (problem !== undefined) throw new BadRequestError('Invalid target_nodes parameter', problem)
  }

  /**
   * A new action: the pre-run checks, then saved and started; a failed check saves it refused and answers 409. The
   * in-progress check and the start are one step per site: one at a time in this process, and one at a time across
   * orchestrators through the site-action lease, so that concurrent requests cannot both see no run.
   */
  async function createNew (input: CreateActionInput, kind: ActionKind, allowIntermediate: boolean, ctx: RequestContext) {
    // named and dated as the request came, before the store is read
    const id = newUlid()
    const now = new Date()
    const versions = await readVersions(store, ctx)
    const record = newRecord(id, now, input, kind, allowIntermediate, versions.committed ?? null, ctx)
    const invoke = { id: newUlid(), action_id: id, command: 'invoke', user: record.user, datetime: now.toISOString() }
    let run: EngineRun
    try {
      await checks.independent(kind, { parameters: input.parameters, allowIntermediate, versions, ctx })
      run = kind.validators.includes('no-site-action-running')
        ? await oneAtATime(ctx, async (held) => {
          await checks.exclusive(kind, ctx)
          return await saveAndTrigger(record, invoke, kind, ctx, held)
        })
        : await saveAndTrigger(record, invoke, kind, ctx)
    } catch (error) {
      if (!(error instanceof PreRunFailure)) throw error
      return await saveRefused(record, invoke, error)
    }
    record.dag_execution_date = run.logical_date ?? run.run_after ?? null
    return { created: true as const, body: createdBody(record) }
  }

  /** The action as it is first saved: its start pending, its tags to settle if it is a site action. */
  function newRecord (
    id: string, now: Date, input: CreateActionInput, kind: ActionKind,
    allowIntermediate: boolean, committed: number | null, ctx: RequestContext
  ): ActionRecord {
    return {
      id,
      name: input.name,
      parameters: input.parameters,
      dag_id: kind.dagId,
      dag_execution_date: null,
      user: ctx.user ?? 'unknown',
      user_id: ctx.userId,
      project_id: ctx.projectId,
      datetime: now.toISOString(),
      context_marker: ctx.contextMarker,
      committed_rev_id: committed,
      allow_intermediate_commits: allowIntermediate,
      validation_failed: false,
      tags_done: !kind.siteAction,
      start_state: 'pending',
      start_reason: null,
      trigger_at: null
    }
  }

  const revisionNote = (record: ActionRecord): string => `Configdoc revision ${String(record.committed_rev_id)}`

  /**
   * The action is saved (start pending, with its invoke audit) before its run is triggered, the run id being the
   * action id: whatever happens after the save — a lost answer, this process killed — the action is there to show,
   * stop, retry and reconcile, and no run exists without it.
   */
  async function saveAndTrigger (
    record: ActionRecord, invoke: AuditRecord, kind: ActionKind, ctx: RequestContext, held?: HeldLease
  ): Promise<EngineRun> {
    await starter.prepareDag(kind.dagId, ctx, held)
    // a site action's checks may have outlasted the site-action lease: once it is lost nothing is saved or started
    await held?.check()
    record.trigger_at = new Date().toISOString()
    await repos.actions.insert(record, { audit: invoke })
    await deps.notes.actionNote(record.id, revisionNote(record))
    if (held !== undefined) await starter.requireHeld(record, held)
    return await starter.trigger(record, kind, ctx)
  }

  /** A failed pre-run check: the action is saved, its workflow never starts, and the answer is 409 with the failure. */
  async function saveRefused (record: ActionRecord, invoke: AuditRecord, error: PreRunFailure) {
    const failure = { id: newUlid(), action_id: record.id, validation_name: error.title, details: error.details }
    await repos.actions.insert({ ...record, validation_failed: true, tags_done: true, start_state: 'refused' }, { audit: invoke, failure })
    await deps.notes.actionNote(record.id, revisionNote(record))
    return {
      created: false as const,
      body: {
        ...createdBody(record),
        dag_status: null,
        action_lifecycle: 'Failed' as const,
        validations: [failure],
        message: 'Unable to start action',
        reason: error.title,
        details: { errorCount: 1, messageList: [{ message: `${error.title}: ${error.details}`, error: true }, ...error.messages] }
      }
    }
  }

  async function control (actionId: string, verb: string, ctx: RequestContext): Promise<void> {
    const action = await requireAction(actionId)
    if (!['pause', 'unpause', 'stop'].includes(verb)) throw new NotFoundError('Control not supported', `Unknown control ${verb}`)
    const run = action.validation_failed ? undefined : await engine.run(action.dag_id, action.id, ctx)
    const refuse = (required: string): ConflictError => new ConflictError(`Unable to ${verb} action`,
      run === undefined ? 'dag_run does not exist' : `dag_run state must be ${required}, but is ${run.state}`)
    if (run === undefined) throw refuse('running')
    const paused = (await engine.dag(action.dag_id, ctx)).is_paused
    if (verb === 'pause') {
      if (run.state !== 'running' || paused) {
        throw paused ? new ConflictError('Unable to pause action', 'The action is already paused') : refuse('running')
      }
      await engine.setPaused(action.dag_id, true, ctx)
      reads.paused(action.dag_id, true)
    } else if (verb === 'unpause') {
      if (!(run.state === 'queued' || run.state === 'running') || !paused) {
        throw paused ? refuse('queued or running') : new ConflictError('Unable to unpause action', 'The action is not paused')
      }
      await engine.setPaused(action.dag_id, false, ctx)
      reads.paused(action.dag_id, false)
    } else {
      if (!(run.state === 'queued' || run.state === 'running')) throw refuse('running or queued')
      await engine.setRunState(action.dag_id, action.id, 'failed', ctx)
      if (paused) await engine.setPaused(action.dag_id, false, ctx)
      // a stopped run changes many task instances: read the engine itself until the watch has seen them
      reads.changed()
    }
    await repos.audit.insert({
      id: newUlid(), action_id: action.id, command: verb, user: ctx.user ?? 'unknown', datetime: new Date().toISOString()
    })
  }

  /**
   * Site-action tags (they move last_site_action and successful_site_action), a backstop for the workflow's own
   * `create_action_tag` step: once a site action's run is final and that step did not succeed (it failed, or the run
   * was stopped before it), the revision gets the tag the step would have written, by the same rule. A revision never
   * carries both tags for one action. Idempotent; driven from the database, so it catches up after a restart.
   */
  async function settleTags (ctx: Pick<RequestContext, 'contextMarker' | 'user'>): Promise<number> {
    let settled = 0
    for (const action of await repos.actions.listTagsPending()) {
      const run = await reads.run(action.dag_id, action.id, ctx)
      if (run === undefined || !FINISHED.has(String(run.state))) continue
      const steps = await stepsOf(action, ctx as RequestContext)
      const stateOf = (taskId: string): string | null => steps.find((s) => s.task_id === taskId)?.state ?? null
      if (action.committed_rev_id !== null && stateOf(TAG_STEP) !== 'success') {
        await store.tag(action.committed_rev_id, siteActionTag(stateOf, steps.map((s) => s.state)), ctx)
      }
      await repos.actions.markTagsDone(action.id)
      settled++
    }
    return settled
  }

  return {
    create,
    list: view.list,
    listEntries: view.listEntries,
    listVersion: view.listVersion,
    get: view.get,
    validation: view.validation,
    step: view.step,
    log: view.log,
    control,
    settleTags,
    /** One reconciling pass (at start-up, then periodically): see actions-reconcile.ts. */
    reconcile: reconciler.reconcile,
    reconcileStatus: reconciler.status
  }
}

export type Actions = ReturnType<typeof createActions>
