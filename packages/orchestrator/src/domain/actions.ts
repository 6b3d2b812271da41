// Actions (seed 000 §2.3–2.4, §3, §4.7, §4.11; spec/orchestrator.md §3): creation with pre-run validations, control
// and the site-action tags; the reads (entity, steps, logs) are in action-reads.ts.
import {
  BadRequestError, ConflictError, DownstreamError, NotFoundError, ServiceUnavailableError, newUlid,
  type Metrics, type RequestContext, type ValidationMessage
} from '@slipway/common'
import type { Repositories, ActionRecord } from '../db/repositories.ts'
import type { EngineClient, EngineRun } from '../clients/engine.ts'
import type { StoreClient } from '../clients/store.ts'
import { ACTIONS, EXCLUSIVE_DAGS, FAILED_STEP_STATES } from './catalog.ts'
import { createActionReads } from './action-reads.ts'
import { directReads, type EngineReads } from './engine-watch.ts'
import { checkDeploymentConfiguration, DEPLOYMENT_SCHEMAS, parseDocuments, type VersionSeverity } from './deployment-configuration.ts'
import { executionDate, plainTimestamp } from './format.ts'
import { SITE_ACTION_FAILURE, SITE_ACTION_SUCCESS, readVersions, type Versions } from './versions.ts'
import type { Notes } from './notes.ts'
import { createApiLock } from './api-lock.ts'

export interface CreateActionInput { name: string, parameters: Record<string, unknown> }

class PreRunFailure extends Error {
  readonly title: string
  readonly details: string
  readonly messages: ValidationMessage[]
  constructor (title: string, details: string, messages: ValidationMessage[] = []) {
    super(title)
    this.title = title
    this.details = details
    this.messages = messages
  }
}

const FINISHED = new Set(['success', 'failed'])

/**
 * The tag of a finished site action whose workflow did not tag it, by the rule of the workflow's `create_action_tag`
 * step (spec §8.3): failure when the armada build's last task or the Airflow upgrade branch ended failed or
 * upstream_failed. A run that ended before the build's last task succeeded (stopped, say) never reached that step's
 * verdict and is a failure too. So is a run with any step failed or upstream_failed (the tag step itself, say): the
 * action's lifecycle is Failed then, and the tag says the same.
 */
export function siteActionTag (stateOf: (taskId: string) => string | null, states: Array<string | null | undefined> = []): string {
  const watched = ['armada_build.armada_get_releases', 'upgrade_airflow', 'skip_upgrade_airflow']
  const failed = watched.some((t) => FAILED_STEP_STATES.has(String(stateOf(t)))) || stateOf('armada_build.armada_get_releases') !== 'success' ||
    states.some((state) => FAILED_STEP_STATES.has(String(state)))
  return failed ? SITE_ACTION_FAILURE : SITE_ACTION_SUCCESS
}

/** `target_nodes`: a non-empty list of names, or a comma-separated string (the CLI sends strings). */
export function targetNodesOf (value: unknown): string[] | undefined {
  const list = typeof value === 'string' ? value.split(',').map((s) => s.trim()) : value
  if (!Array.isArray(list) || list.length === 0 || !list.every((n) => typeof n === 'string' && n !== '')) return undefined
  return list as string[]
}

/** The database lock held while a site action is checked and started. */
export const SITE_ACTION_LOCK = 'site_action_start'

export function createActions (deps: {
  repos: Repositories
  engine: EngineClient
  store: StoreClient
  notes: Notes
  designRef: (revisionId: number) => string
  /** Lease of the site-action lock, in seconds (a holder that died stops blocking after it). */
  startLeaseS?: number
  /** The deployment-version check of the full deployment validation (spec §3.2); Skip by default. */
  deploymentVersionCommit?: VersionSeverity
  /** Where runs, steps and pause flags are read (the engine watch); default: the engine itself. */
  reads?: EngineReads
  /** Where the site-action lock's waits are counted. */
  metrics?: Pick<Metrics, 'lockWait'>
}) {
  const { repos, engine, store } = deps
  const reads = deps.reads ?? directReads(engine)
  const view = createActionReads({ repos, engine, reads, notes: deps.notes })
  const { requireAction, stepsOf } = view
  const startLease = deps.startLeaseS ?? 60
  // the site-action lock of the database, against other orchestrators: waited for up to its lease, then 409
  const startLock = createApiLock({
    repos,
    leaseS: startLease,
    lockType: SITE_ACTION_LOCK,
    waitMs: startLease * 1000,
    metrics: deps.metrics
  })
  let queue: Promise<unknown> = Promise.resolve()

  /** Runs `work` alone: after every earlier call of this process has finished, and holding the site-action lock. */
  async function oneAtATime<T> (ctx: RequestContext, work: () => Promise<T>): Promise<T> {
    const mine = queue.then(async () => await startLock.withLock(ctx, work))
    queue = mine.catch(() => undefined)
    return await mine
  }

  const checking = new Map<string, Promise<ValidationMessage[]>>()

  /**
   * The deployment documents' messages for a revision. Requests that ask while a check of the same revision is
   * under way share it: a burst of creates renders the site once, not once each.
   */
  async function deploymentMessages (revision: number, mode: 'full' | 'basic', ctx: RequestContext): Promise<ValidationMessage[]> {
    const key = `${revision}/${mode}`
    const running = checking.get(key)
    if (running !== undefined) return await running
    const check = (async () => {
      const render = await store.rendered(revision, false, ctx, { schemas: DEPLOYMENT_SCHEMAS })
      return render.ok
        ? checkDeploymentConfiguration(parseDocuments(render.text), mode, deps.deploymentVersionCommit)
        : [{ kind: 'ValidationMessage' as const, name: 'DocumentLookupError', error: true, message: `The committed documents could not be rendered (${render.status})`, level: 'Error', documents: [], diagnostic: null }]
    })()
    checking.set(key, check)
    try {
      return await check
    } finally {
      checking.delete(key)
    }
  }

  /** The pre-run validators of `kind` in `phase`: `independent` ones first, the `exclusive` in-progress check last. */
  async function runValidators (kind: (typeof ACTIONS)[string], input: CreateActionInput, allowIntermediate: boolean, v: Versions, ctx: RequestContext, phase: 'independent' | 'exclusive'): Promise<void> {
    for (const validator of kind.validators) {
      if (validator === 'target-nodes') continue // checked before anything is stored
      if ((validator === 'no-site-action-running') !== (phase === 'exclusive')) continue
      if (validator === 'committed-revision' && v.committed === undefined) {
        throw new PreRunFailure('No committed configdocs', 'Unable to locate a committed revision in the document store; commit configuration documents first.')
      }
      if (validator === 'intermediate-commits' && !allowIntermediate) {
        const committed = v.revisions.filter((r) => r.tags.includes('committed'))
        const previous = committed.at(-2)
        if (previous !== undefined && !previous.tags.includes(SITE_ACTION_SUCCESS) && !previous.tags.includes(SITE_ACTION_FAILURE)) {
          throw new PreRunFailure('Intermediate commit detected', 'The committed revision has earlier commits not yet used by a site action. Rerun with allow-intermediate-commits=true if they are intended.')
        }
      }
      if ((validator === 'deployment-basic' || validator === 'deployment-full') && v.committed !== undefined) {
        const messages = await deploymentMessages(v.committed, validator === 'deployment-full' ? 'full' : 'basic', ctx)
        const errors = messages.filter((m) => m.error)
        const continueOnFail = String(input.parameters['continue-on-fail'] ?? '').toLowerCase() === 'true'
        if (errors.length > 0 && !continueOnFail) {
          throw new PreRunFailure('Document validation failed', errors.map((m) => m.message).join('; '), errors)
        }
      }
      if (validator === 'no-site-action-running') {
        const running = (await engine.runs({ dagIds: EXCLUSIVE_DAGS }, ctx)).filter((r) => r.state === 'queued' || r.state === 'running')
        if (running.length > 0) {
          throw new PreRunFailure('Another site action is in progress', `Workflow run ${running.map((r) => `${r.dag_id}/${r.dag_run_id}`).join(', ')} is ${running[0]?.state ?? 'running'}; wait for it to finish or stop it first.`)
        }
      }
    }
  }

  async function create (input: CreateActionInput, allowIntermediate: boolean, ctx: RequestContext) {
    // own keys only: a name like `constructor` is no action (and no policy rule)
    const kind = Object.hasOwn(ACTIONS, input.name) ? ACTIONS[input.name] : undefined
    if (kind === undefined) throw new BadRequestError('Unable to start action', `Unsupported Action: ${input.name}`)
    ctx.authorize(`workflow_orchestrator:action_${input.name}`)
    // the stored action keeps the parameters as the caller sent them; the engine gets target_nodes as the
    // comma-separated string the real workflows' operators split (spec §3.1)
    const parameters = { ...input.parameters }
    const engineParameters = { ...parameters }
    if (kind.validators.includes('target-nodes')) {
      const nodes = targetNodesOf(parameters.target_nodes)
      if (nodes === undefined) throw new BadRequestError('Invalid target_nodes parameter', 'target_nodes must be a non-empty list of node names (or a comma-separated string)')
      engineParameters.target_nodes = nodes.join(',')
    }
    const id = newUlid()
    const now = new Date()
    const v = await readVersions(store, ctx)
    const record: ActionRecord = {
      id,
      name: input.name,
      parameters,
      dag_id: kind.dagId,
      dag_execution_date: null,
      user: ctx.user ?? 'unknown',
      datetime: now.toISOString(),
      context_marker: ctx.contextMarker,
      committed_rev_id: v.committed ?? null,
      allow_intermediate_commits: allowIntermediate,
      validation_failed: false,
      tags_done: !kind.siteAction
    }
    const entity = {
      id,
      name: record.name,
      parameters,
      dag_id: record.dag_id,
      dag_status: 'SCHEDULED' as string | null,
      dag_execution_date: null as string | null,
      user: record.user,
      context_marker: record.context_marker,
      timestamp: plainTimestamp(now),
      committed_rev_id: record.committed_rev_id,
      allow_intermediate_commits: allowIntermediate
    }
    /** Starts the run (run id = action id) and saves the action in the same step. */
    const trigger = async (): Promise<EngineRun> => {
      let started: EngineRun
      try {
        const dag = await engine.dag(kind.dagId, ctx)
        if (dag.is_paused) {
          // Airflow creates DAGs paused; unpause unless a run of it was paused on purpose (an action is Paused)
          const inProgress = (await engine.runs({ dagIds: [kind.dagId] }, ctx)).some((r) => r.state === 'queued' || r.state === 'running')
          if (!inProgress) {
            await engine.setPaused(kind.dagId, false, ctx)
            reads.paused(kind.dagId, false)
          }
        }
        started = await engine.trigger(kind.dagId, id, {
          action: {
            id,
            name: record.name,
            parameters: engineParameters,
            dag_id: kind.dagId,
            user: record.user,
            context_marker: record.context_marker,
            committed_rev_id: record.committed_rev_id,
            timestamp: entity.timestamp
          },
          design_ref: record.committed_rev_id === null ? null : deps.designRef(record.committed_rev_id)
        }, ctx)
      } catch (error) {
        if (error instanceof DownstreamError || error instanceof NotFoundError || error instanceof ConflictError) {
          throw new ServiceUnavailableError('Unable to complete request to Airflow', error.reason, { cause: error })
        }
        throw error
      }
      await repos.actions.insert({ ...record, dag_execution_date: started.logical_date ?? started.run_after ?? null })
      reads.triggered(started)
      return started
    }
    // the in-progress check and the trigger are one step per site: one at a time in this process, and one at a
    // time across orchestrators through a database lock, so that concurrent requests cannot both see no run
    const exclusive = kind.validators.includes('no-site-action-running')
    let run: EngineRun
    try {
      await runValidators(kind, input, allowIntermediate, v, ctx, 'independent')
      run = exclusive
        ? await oneAtATime(ctx, async () => {
          await runValidators(kind, input, allowIntermediate, v, ctx, 'exclusive')
          return await trigger()
        })
        : await trigger()
    } catch (error) {
      if (!(error instanceof PreRunFailure)) throw error
      // seed 000 §3.2: the action is created, its workflow does not start, 409 with the failed validations
      const failure = { id: newUlid(), action_id: id, validation_name: error.title, details: error.details }
      await repos.actions.insert({ ...record, validation_failed: true, tags_done: true })
      await repos.validationFailures.insert(failure)
      await repos.audit.insert({ id: newUlid(), action_id: id, command: 'invoke', user: record.user, datetime: now.toISOString() })
      await deps.notes.actionNote(id, `Configdoc revision ${String(record.committed_rev_id)}`)
      return {
        created: false as const,
        body: {
          ...entity,
          dag_status: null,
          action_lifecycle: 'Failed' as const,
          validations: [failure],
          message: 'Unable to start action',
          reason: error.title,
          details: { errorCount: 1, messageList: [{ message: `${error.title}: ${error.details}`, error: true }, ...error.messages] }
        }
      }
    }
    record.dag_execution_date = run.logical_date ?? run.run_after ?? null
    await deps.notes.actionNote(id, `Configdoc revision ${String(record.committed_rev_id)}`)
    await repos.audit.insert({ id: newUlid(), action_id: id, command: 'invoke', user: record.user, datetime: now.toISOString() })
    return { created: true as const, body: { ...entity, dag_execution_date: executionDate(record.dag_execution_date) } }
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
      if (run.state !== 'running' || paused) throw paused ? new ConflictError('Unable to pause action', 'The action is already paused') : refuse('running')
      await engine.setPaused(action.dag_id, true, ctx)
      reads.paused(action.dag_id, true)
    } else if (verb === 'unpause') {
      if (!(run.state === 'queued' || run.state === 'running') || !paused) throw paused ? refuse('queued or running') : new ConflictError('Unable to unpause action', 'The action is not paused')
      await engine.setPaused(action.dag_id, false, ctx)
      reads.paused(action.dag_id, false)
    } else {
      if (!(run.state === 'queued' || run.state === 'running')) throw refuse('running or queued')
      await engine.setRunState(action.dag_id, action.id, 'failed', ctx)
      if (paused) await engine.setPaused(action.dag_id, false, ctx)
      // a stopped run changes many task instances: read the engine itself until the watch has seen them
      reads.changed()
    }
    await repos.audit.insert({ id: newUlid(), action_id: action.id, command: verb, user: ctx.user ?? 'unknown', datetime: new Date().toISOString() })
  }

  /**
   * Site-action tags (seed 000 §2.2), a backstop for the workflow's own `create_action_tag` step: once a site
   * action's run is final and that step did not succeed (it failed, or the run was stopped before it), the revision
   * gets the tag the step would have written, by the same rule (spec §8.3). A revision never carries both tags for
   * one action. Idempotent; driven from the database, so it catches up after a restart.
   */
  async function settleTags (ctx: Pick<RequestContext, 'contextMarker' | 'user'>): Promise<number> {
    let settled = 0
    for (const action of await repos.actions.listTagsPending()) {
      const run = await reads.run(action.dag_id, action.id, ctx)
      if (run === undefined || !FINISHED.has(String(run.state))) continue
      const steps = await stepsOf(action, ctx as RequestContext)
      const stateOf = (taskId: string): string | null => steps.find((s) => s.task_id === taskId)?.state ?? null
      if (action.committed_rev_id !== null && stateOf('create_action_tag') !== 'success') {
        await store.tag(action.committed_rev_id, siteActionTag(stateOf, steps.map((s) => s.state)), ctx)
      }
      await repos.actions.markTagsDone(action.id)
      settled++
    }
    return settled
  }

  return { create, list: view.list, get: view.get, validation: view.validation, step: view.step, log: view.log, control, settleTags }
}

export type Actions = ReturnType<typeof createActions>
