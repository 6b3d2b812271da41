// Actions (seed 000 §2.3–2.4, §3, §4.6–4.11, §4.15; spec/orchestrator.md §3): creation with pre-run
// validations, the entity read from the database and the engine, steps, logs and control.
import {
  BadRequestError, ConflictError, DownstreamError, NotFoundError, ServiceUnavailableError, newUlid,
  type Metrics, type RequestContext, type ValidationMessage
} from '@slipway/common'
import type { Repositories, ActionRecord } from '../db/repositories.ts'
import type { EngineClient, EngineRun, EngineTask } from '../clients/engine.ts'
import type { StoreClient } from '../clients/store.ts'
import { ACTIONS, EXCLUSIVE_DAGS, lifecycleOf } from './catalog.ts'
import { orderedSteps, resolveStep } from './steps.ts'
import { directReads, type EngineReads } from './engine-watch.ts'
import { checkDeploymentConfiguration, DEPLOYMENT_SCHEMAS, parseDocuments, type VersionSeverity } from './deployment-configuration.ts'
import { executionDate, plainTimestamp, spacedDate, zonedTimestamp } from './format.ts'
import { SITE_ACTION_FAILURE, SITE_ACTION_SUCCESS, readVersions, type Versions } from './versions.ts'
import type { NoteView, Notes } from './notes.ts'
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
const FAILED_TASK = new Set(['failed', 'upstream_failed'])

/**
 * The tag of a finished site action whose workflow did not tag it, by the rule of the workflow's `create_action_tag`
 * step (spec §8.3): failure when the armada build's last task or the Airflow upgrade branch ended failed or
 * upstream_failed. A run that ended before the build's last task succeeded (stopped, say) never reached that step's
 * verdict and is a failure too.
 */
export function siteActionTag (stateOf: (taskId: string) => string | null): string {
  const watched = ['armada_build.armada_get_releases', 'upgrade_airflow', 'skip_upgrade_airflow']
  const failed = watched.some((t) => FAILED_TASK.has(String(stateOf(t)))) || stateOf('armada_build.armada_get_releases') !== 'success'
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

  async function requireAction (id: string): Promise<ActionRecord> {
    const action = await repos.actions.get(id)
    if (action === undefined) throw new NotFoundError('Action not found', `Unknown Action: ${id}`)
    return action
  }

  /** Answers `fallback` where the engine has no such thing (404), rethrows anything else. */
  function unlessMissing<T> (fallback: T): (error: unknown) => T {
    return (error) => { if (error instanceof NotFoundError) return fallback; throw error }
  }

  /** The task instances of an action's run (run id = action id): grouped tasks are `<group>.<task>` of the same run. */
  async function stepsOf (action: ActionRecord, ctx: RequestContext): Promise<EngineTask[]> {
    return await reads.tasks(action.dag_id, action.id, ctx).catch(unlessMissing<EngineTask[]>([]))
  }

  /** An action's run, its DAG's pause flag and its steps, read at once; nothing for an action that never ran. */
  async function runOf (
    action: ActionRecord,
    ctx: RequestContext
  ): Promise<{ run: EngineRun | undefined, paused: boolean, steps: EngineTask[] }> {
    if (action.validation_failed) return { run: undefined, paused: false, steps: [] }
    const [run, paused, steps] = await Promise.all([
      reads.run(action.dag_id, action.id, ctx),
      reads.isPaused(action.dag_id, ctx).then((p) => p ?? false),
      stepsOf(action, ctx)
    ])
    return run === undefined ? { run, paused: false, steps: [] } : { run, paused, steps }
  }

  /** Steps of many actions from the engine's batch list of task instances, paged: never a call per action. */
  async function stepsOfMany (actions: ActionRecord[], ctx: RequestContext): Promise<Map<string, EngineTask[]>> {
    const steps = new Map<string, EngineTask[]>()
    if (actions.length === 0) return steps
    const tasks = await reads.tasksOfRuns({ dagIds: [...new Set(actions.map((a) => a.dag_id))], runIds: actions.map((a) => a.id) }, ctx)
    for (const task of tasks) steps.set(task.dag_run_id, [...(steps.get(task.dag_run_id) ?? []), task])
    return steps
  }

  function stepSummary (actionId: string, step: { id: string, state: string | null }, index: number) {
    return { id: step.id, url: `/actions/${actionId}/steps/${step.id}`, index, state: step.state, notes: [] as NoteView[] }
  }

  /** The entity of §3.4 from a record, its run (if any), the DAG's pause flag and the steps. */
  function entityOf (action: ActionRecord, run: EngineRun | undefined, dagPaused: boolean, steps: EngineTask[]) {
    return {
      id: action.id,
      name: action.name,
      parameters: action.parameters,
      dag_id: action.dag_id,
      dag_execution_date: executionDate(action.dag_execution_date),
      user: action.user,
      datetime: zonedTimestamp(action.datetime),
      context_marker: action.context_marker,
      dag_status: run?.state ?? null,
      action_lifecycle: action.validation_failed ? 'Failed' : lifecycleOf(run?.state, dagPaused),
      // an action that never ran has no steps; one that did lists its workflow's whole step list
      steps: run === undefined && steps.length === 0
        ? []
        : orderedSteps(action.dag_id, steps).map((step, i) => stepSummary(action.id, step, i + 1))
    }
  }

  async function pausedDags (dagIds: string[], ctx: RequestContext): Promise<Set<string>> {
    const paused = new Set<string>()
    for (const dagId of new Set(dagIds)) {
      if (await reads.isPaused(dagId, ctx) === true) paused.add(dagId)
    }
    return paused
  }

  /** GET /actions: runs and steps come from batched engine calls per page, never calls per action. */
  async function list (verbosity: number, ctx: RequestContext) {
    const actions = await repos.actions.list()
    if (actions.length === 0) return []
    const started = actions.filter((a) => !a.validation_failed)
    const dagIds = [...new Set(started.map((a) => a.dag_id))]
    // the engine's runs, DAG flags and steps and the database's notes are independent: read them at once
    const [runs, paused, steps, notes] = await Promise.all([
      dagIds.length === 0 ? [] : reads.runs({ dagIds }, ctx),
      pausedDags(dagIds, ctx),
      stepsOfMany(started, ctx),
      deps.notes.forActions(actions.map((a) => a.id), verbosity)
    ])
    const byRunId = new Map(runs.map((r) => [r.dag_run_id, r]))
    return actions.map((action) => ({
      ...entityOf(action, byRunId.get(action.id), paused.has(action.dag_id), steps.get(action.id) ?? []),
      notes: notes.get(action.id) ?? []
    }))
  }

  async function get (id: string, verbosity: number, ctx: RequestContext) {
    const action = await requireAction(id)
    const { run, paused, steps } = await runOf(action, ctx)
    const entity = entityOf(action, run, paused, steps)
    const stepNotes = await deps.notes.forSteps(action.id, Math.min(verbosity, 1))
    return {
      ...entity,
      steps: entity.steps.map((s) => ({ ...s, notes: stepNotes.get(s.id) ?? [] })),
      validations: await repos.validationFailures.listFor(action.id),
      command_audit: (await repos.audit.listFor(action.id)).map((a) => ({ ...a, datetime: zonedTimestamp(a.datetime) })),
      notes: (await deps.notes.forActions([action.id], verbosity)).get(action.id) ?? []
    }
  }

  async function validation (actionId: string, validationId: string) {
    await requireAction(actionId)
    const found = (await repos.validationFailures.listFor(actionId)).find((v) => v.id === validationId)
    if (found === undefined) throw new NotFoundError('Validation not found', `Unknown validation ${validationId}`)
    return found
  }

  async function findStep (actionId: string, stepId: string, ctx: RequestContext) {
    const action = await requireAction(actionId)
    const { steps } = await runOf(action, ctx)
    const ordered = orderedSteps(action.dag_id, steps)
    const found = resolveStep(ordered, stepId)
    if (found?.task === undefined) throw new NotFoundError('Step not found', `Unknown step ${stepId}`)
    return { task: found.task, index: ordered.indexOf(found) + 1 }
  }

  async function step (actionId: string, stepId: string, verbosity: number, ctx: RequestContext) {
    const { task, index } = await findStep(actionId, stepId, ctx)
    return {
      task_id: task.task_id,
      dag_id: task.dag_id,
      execution_date: spacedDate(task.logical_date ?? task.run_after ?? null),
      index,
      operator: task.operator ?? null,
      state: task.state ?? null,
      queued_dttm: plainTimestamp(task.queued_when ?? null),
      start_date: plainTimestamp(task.start_date ?? null),
      end_date: plainTimestamp(task.end_date ?? null),
      duration: task.duration ?? null,
      try_number: task.try_number,
      max_tries: task.max_tries,
      hostname: task.hostname,
      pool: task.pool,
      queue: task.queue ?? null,
      priority_weight: task.priority_weight ?? null,
      run_id: task.dag_run_id,
      map_index: task.map_index,
      notes: (await deps.notes.forSteps(actionId, verbosity)).get(task.task_id) ?? []
    }
  }

  async function log (actionId: string, stepId: string, tryNumber: number | undefined, ctx: RequestContext): Promise<string> {
    // spec §3.9 step 2 words these 404s its own way
    const action = await repos.actions.get(actionId)
    if (action === undefined) throw new NotFoundError('Action Not Found!', `Unknown Action: ${actionId}`)
    const { steps } = await runOf(action, ctx)
    if (steps.length === 0) throw new NotFoundError('Steps Not Found!', `Action ${actionId} has no steps in the workflow engine`)
    const task = resolveStep(orderedSteps(action.dag_id, steps), stepId)?.task
    if (task === undefined) throw new NotFoundError('Step Not Found!', `Unknown step ${stepId}`)
    const wanted = tryNumber ?? task.try_number
    if (wanted < 1 || wanted > task.try_number) throw new NotFoundError('Step Not Found!', `Step ${stepId} has no try ${wanted} (tries: ${task.try_number})`)
    try {
      return await engine.log(task.dag_id, task.dag_run_id, task.task_id, wanted, ctx)
    } catch (error) {
      if (error instanceof NotFoundError) throw new NotFoundError('Log retrieval error', 'Airflow endpoint returned error status code', { cause: error })
      throw error
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
        await store.tag(action.committed_rev_id, siteActionTag(stateOf), ctx)
      }
      await repos.actions.markTagsDone(action.id)
      settled++
    }
    return settled
  }

  return { create, list, get, validation, step, log, control, settleTags }
}

export type Actions = ReturnType<typeof createActions>
