// Creating an action (POST /actions): its kind known and allowed to the caller, its target nodes given, then — one
// request of a caller's context marker at a time — the same request sent again answered with the action it made (a
// retry), or a new action checked (pre-run-checks.ts), saved and started (start.ts). A failed check saves the action
// refused and answers it with the failure; the route picks the status code from `created`.
import { BadRequestError, ServiceUnavailableError, newUlid, type RequestContext } from '@slipway/common'
import type { Repositories, ActionRecord, AuditRecord } from '../../db/repositories.ts'
import type { EngineRun } from '../../clients/engine.ts'
import type { StoreClient } from '../../clients/store.ts'
import { ACTIONS, type ActionKind } from '../catalog.ts'
import { executionDate, plainTimestamp } from '../format.ts'
import { readVersions } from '../configdocs/versions.ts'
import type { Notes } from '../notes.ts'
import type { DatabaseLease, HeldLease } from '../database-lease.ts'
import type { ActionStarter } from './start.ts'
import { PreRunFailure, type PreRunChecks } from './pre-run-checks.ts'
import type { ActionQueries } from './queries.ts'
import { NEVER_STARTED_LIFECYCLE } from './lifecycle.ts'
import { targetNodesProblem } from './target-nodes.ts'

export interface CreateActionInput { name: string, parameters: Record<string, unknown> }

/** The database lock held while a site action is checked and started. */
export const SITE_ACTION_LOCK = 'site_action_start'

interface CreateDeps {
  repos: Repositories
  store: StoreClient
  notes: Notes
  starter: ActionStarter
  checks: PreRunChecks
  /** The answer of a retry is the action as GET /actions/{id} shows it now. */
  queries: Pick<ActionQueries, 'get'>
  /**
   * The site-action lock of the database (SITE_ACTION_LOCK), against other orchestrators: held while a site action is
   * checked and started, waited for up to its lease, then 409.
   */
  startLock: DatabaseLease
  /** How long the same request sent again (same caller's X-Context-Marker) answers the action it made (default 1 h). */
  retryWindowMs?: number | undefined
}

/** What create's helpers share: the deps, and the one-at-a-time queues of this process. */
interface Creation extends CreateDeps {
  /** Runs `work` alone: after every earlier site-action start of this process, holding the site-action lock. */
  oneAtATime: <T>(ctx: RequestContext, work: (held: HeldLease) => Promise<T>) => Promise<T>
}

/** JSON with object keys in order: two parameter objects are the same request whatever order their keys came in. */
function canonicalJson (value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => v !== null && typeof v === 'object' && !Array.isArray(v)
    ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
    : v)
}

/**
 * Who sent a request, as a retry's key knows the caller: the user id and the project of the token. A user name is not
 * enough — one name in two projects (or two domains) is two callers, whose requests are never each other's retries.
 * None for a request without a marker of the caller's own (one this service gave it) or without a user id.
 */
function callerOf (ctx: RequestContext): { userId: string, projectId: string | null } | undefined {
  if (ctx.contextMarker === ctx.requestId || ctx.userId === null) return undefined
  return { userId: ctx.userId, projectId: ctx.projectId }
}

/** A queue per process: `run(ctx, work)` runs after every earlier call, holding `lock`. */
function siteActionQueue (lock: DatabaseLease): Creation['oneAtATime'] {
  let queue: Promise<unknown> = Promise.resolve()
  return async (ctx, work) => {
    const mine = queue.then(async () => await lock.withLock(ctx, work))
    queue = mine.catch(() => undefined)
    return await mine
  }
}

/** Runs `work` one at a time per caller's context marker in this process (a retry waits for its first try). */
function markerQueue () {
  /** The last create of each caller's context marker in this process. */
  const markers = new Map<string, Promise<void>>()
  return async <T>(ctx: RequestContext, work: () => Promise<T>): Promise<T> => {
    const caller = callerOf(ctx)
    if (caller === undefined) return await work()
    const key = JSON.stringify([caller.userId, caller.projectId, ctx.contextMarker])
    const mine = (markers.get(key) ?? Promise.resolve()).then(work)
    const done = mine.then(() => undefined, () => undefined)
    markers.set(key, done)
    done.then(() => { if (markers.get(key) === done) markers.delete(key) }, () => {})
    return await mine
  }
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
 * The saved action this request repeats, if any: a request carrying the caller's own X-Context-Marker (not one
 * given by this service) from the same caller (user id and project), with the same action, parameters and flag as
 * an action saved within the retry window that started or is pending is the same request sent again — after a lost
 * answer, say — and never a second run.
 */
async function earlierTry (c: Creation, input: CreateActionInput, allowIntermediate: boolean, ctx: RequestContext) {
  const caller = callerOf(ctx)
  if (caller === undefined) return undefined
  const since = new Date(Date.now() - (c.retryWindowMs ?? 3_600_000)).toISOString()
  const candidates = await c.repos.actions.findRetries({ contextMarker: ctx.contextMarker, ...caller, name: input.name, since })
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

/** A retried action whose start is still pending is triggered again (same run id), unless it settled meanwhile. */
async function triggerAgain (c: Creation, action: ActionRecord, kind: ActionKind, ctx: RequestContext, held?: HeldLease) {
  // settled meanwhile (by the reconciler, or a site action's in-progress check): answered as it now stands
  const current = await c.repos.actions.get(action.id)
  if (current?.start_state === 'started') { action.dag_execution_date = current.dag_execution_date; return }
  if (current?.start_state !== 'pending') {
    throw new ServiceUnavailableError('Unable to complete request to Airflow',
      `Action ${action.id} failed to start: ${current?.start_reason ?? 'the engine has no run for it'}`)
  }
  await c.starter.prepareDag(kind.dagId, ctx, held)
  await held?.check()
  const sentAt = new Date().toISOString()
  await c.repos.actions.notePending(action.id, sentAt, action.start_reason)
  const run = await c.starter.trigger({ ...action, trigger_at: sentAt }, kind, ctx)
  action.dag_execution_date = run.logical_date ?? run.run_after ?? action.dag_execution_date
}

/**
 * The same request again: a pending start is triggered again (same run id); then the action is answered as the
 * 201 answered it, said to be a replay (`replayed`) and with its state now — `dag_status` the run's state as the
 * engine has it, `action_lifecycle` and `start_status` as GET /actions/{id} shows them — never a SCHEDULED it has left.
 */
async function retry (c: Creation, action: ActionRecord, kind: ActionKind, ctx: RequestContext) {
  if (action.start_state === 'pending') {
    const again = async (held?: HeldLease): Promise<void> => { await triggerAgain(c, action, kind, ctx, held) }
    if (kind.validators.includes('no-site-action-running')) await c.oneAtATime(ctx, again)
    else await again()
  }
  const now = await c.queries.get(action.id, 0, ctx)
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
  c: Creation, record: ActionRecord, invoke: AuditRecord, kind: ActionKind, ctx: RequestContext, held?: HeldLease
): Promise<EngineRun> {
  await c.starter.prepareDag(kind.dagId, ctx, held)
  // a site action's checks may have outlasted the site-action lease: once it is lost nothing is saved or started
  await held?.check()
  record.trigger_at = new Date().toISOString()
  await c.repos.actions.insert(record, { audit: invoke })
  await c.notes.actionNote(record.id, revisionNote(record))
  if (held !== undefined) await c.starter.requireHeld(record, held)
  return await c.starter.trigger(record, kind, ctx)
}

/** A failed pre-run check: the action is saved, its workflow never starts, and the answer is 409 with the failure. */
async function saveRefused (c: Creation, record: ActionRecord, invoke: AuditRecord, error: PreRunFailure) {
  const failure = { id: newUlid(), action_id: record.id, validation_name: error.title, details: error.details }
  await c.repos.actions.insert({ ...record, validation_failed: true, tags_done: true, start_state: 'refused' }, { audit: invoke, failure })
  await c.notes.actionNote(record.id, revisionNote(record))
  return {
    created: false as const,
    body: {
      ...createdBody(record),
      dag_status: null,
      action_lifecycle: NEVER_STARTED_LIFECYCLE,
      validations: [failure],
      message: 'Unable to start action',
      reason: error.title,
      details: { errorCount: 1, messageList: [{ message: `${error.title}: ${error.details}`, error: true }, ...error.messages] }
    }
  }
}

/**
 * A new action: the pre-run checks, then saved and started; a failed check saves it refused and answers 409. The
 * in-progress check and the start are one step per site: one at a time in this process, and one at a time across
 * orchestrators through the site-action lease, so that concurrent requests cannot both see no run.
 */
async function createNew (c: Creation, input: CreateActionInput, kind: ActionKind, allowIntermediate: boolean, ctx: RequestContext) {
  // named and dated as the request came, before the store is read
  const id = newUlid()
  const now = new Date()
  const versions = await readVersions(c.store, ctx)
  const record = newRecord(id, now, input, kind, allowIntermediate, versions.committed ?? null, ctx)
  const invoke = { id: newUlid(), action_id: id, command: 'invoke', user: record.user, datetime: now.toISOString() }
  let run: EngineRun
  try {
    await c.checks.independent(kind, { parameters: input.parameters, allowIntermediate, versions, ctx })
    run = kind.validators.includes('no-site-action-running')
      ? await c.oneAtATime(ctx, async (held) => {
        await c.checks.exclusive(kind, ctx)
        return await saveAndTrigger(c, record, invoke, kind, ctx, held)
      })
      : await saveAndTrigger(c, record, invoke, kind, ctx)
  } catch (error) {
    if (!(error instanceof PreRunFailure)) throw error
    return await saveRefused(c, record, invoke, error)
  }
  record.dag_execution_date = run.logical_date ?? run.run_after ?? null
  return { created: true as const, body: createdBody(record) }
}

export function createActionCreator (deps: CreateDeps) {
  const c: Creation = { ...deps, oneAtATime: siteActionQueue(deps.startLock) }
  const perMarker = markerQueue()
  /**
   * A new action: its kind known and allowed to the caller, its target nodes (when it has them) given, then — one
   * request of the caller's context marker at a time — the same request again answered as before, or a new action
   * checked, saved and started.
   */
  return async function create (input: CreateActionInput, allowIntermediate: boolean, ctx: RequestContext) {
    const kind = kindOf(input.name)
    ctx.authorize(`workflow_orchestrator:action_${input.name}`)
    const parameters = { ...input.parameters }
    requireTargetNodes(kind, parameters)
    return await perMarker(ctx, async () => {
      const earlier = await earlierTry(c, input, allowIntermediate, ctx)
      if (earlier !== undefined) return await retry(c, earlier, kind, ctx)
      return await createNew(c, { name: input.name, parameters }, kind, allowIntermediate, ctx)
    })
  }
}

export type ActionCreator = ReturnType<typeof createActionCreator>
