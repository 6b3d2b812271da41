// The view of every workflow in the engine, those not started through this service included; and, beyond the seed's
// read-only view, the runs of the action workflows that belong to no action (orphan-runs.ts), which may be stopped here
// since no action can stop them.
import { BadRequestError, ConflictError, NotFoundError, type RequestContext } from '@slipway/common'
import type { EngineClient, EngineRun } from '../clients/engine.ts'
import type { Repositories } from '../db/repositories.ts'
import { workflowDetail, workflowOf, type WorkflowView } from './steps.ts'
import { directReads, type EngineReads } from './engine/engine-watch.ts'
import { ACTIONS } from './catalog.ts'
import { ownershipOf } from './orphan-runs.ts'

const ACTION_DAGS = [...new Set(Object.values(ACTIONS).map((a) => a.dagId))]

// the engine's datetimes are Python's: years 1 to 9999; bounds beyond them are clamped, never sent
const EARLIEST_MS = Date.parse('0001-01-01T00:00:00Z')
const LATEST_MS = Date.parse('9999-12-31T23:59:59.999Z')
const withinEngine = (ms: number): Date => new Date(Number.isNaN(ms) ? EARLIEST_MS : Math.min(Math.max(ms, EARLIEST_MS), LATEST_MS))

const notFound = (workflowId: string): NotFoundError =>
  new NotFoundError('Workflow not found', `A Workflow with id ${workflowId} was not found`)

const byDate = (a: WorkflowView, b: WorkflowView): number =>
  String(a.execution_date).localeCompare(String(b.execution_date)) || a.dag_id.localeCompare(b.dag_id)

/**
 * Each run's view made once for as long as the engine watch keeps the run's object (a changed run is a new one);
 * runs read straight from the engine are new objects every time and are made every time.
 */
function viewsOfRuns (): (run: EngineRun) => WorkflowView {
  const views = new WeakMap<EngineRun, WorkflowView>()
  return (run) => {
    let view = views.get(run)
    if (view === undefined) {
      view = workflowOf(run)
      views.set(run, view)
    }
    return view
  }
}

/** The run a workflow id names, and the sub-workflow's group path in it ('' for the run itself). */
async function runOfWorkflow (reads: EngineReads, workflowId: string, ctx: RequestContext): Promise<{ run: EngineRun, path: string }> {
  const at = workflowId.lastIndexOf('__')
  if (at <= 0) throw new BadRequestError('Invalid Workflow ID specified', 'Workflow id must use {dag id}__{execution date} format')
  const name = workflowId.slice(0, at)
  const instant = new Date(`${workflowId.slice(at + 2)}Z`).getTime()
  if (Number.isNaN(instant) || instant < EARLIEST_MS || instant > LATEST_MS) {
    throw new BadRequestError('Invalid Workflow ID specified',
      'Workflow id must use {dag id}__{execution date} format')
  }
  // the run of the longest DAG id that the name starts with: DAG ids may hold dots themselves
  const run = (await reads.runs({ logicalDateGte: withinEngine(instant - 1000).toISOString() }, ctx))
    .filter((r) => (name === r.dag_id || name.startsWith(`${r.dag_id}.`)) &&
      new Date(r.logical_date ?? r.run_after).getTime() === instant)
    .sort((a, b) => b.dag_id.length - a.dag_id.length)[0]
  if (run === undefined) throw notFound(workflowId)
  return { run, path: name.slice(run.dag_id.length + 1) }
}

export function createWorkflows (deps: { engine: EngineClient, reads?: EngineReads, repos: Pick<Repositories, 'actions'> }) {
  const reads = deps.reads ?? directReads(deps.engine)
  const viewOf = viewsOfRuns()

  /** Runs since a moment (clamped to the engine's years), oldest first. */
  async function list (since: Date, ctx: RequestContext) {
    const threshold = withinEngine(since.getTime())
    const runs = await reads.runs({ logicalDateGte: threshold.toISOString() }, ctx)
    return runs.map(viewOf).sort(byDate)
  }

  /**
   * The runs of the action workflows that belong to no action, each with why (`orphan_reason`), oldest first: since a
   * moment when one is given, else all of them — an old queued one blocks site actions as much as a new one.
   */
  async function orphans (since: Date | undefined, ctx: RequestContext) {
    const filter = since === undefined ? {} : { logicalDateGte: withinEngine(since.getTime()).toISOString() }
    const runs = await reads.runs({ dagIds: ACTION_DAGS, ...filter }, ctx)
    return (await ownershipOf(deps.repos, runs))
      .flatMap(({ run, orphan }) => orphan === undefined ? [] : [{ ...viewOf(run), orphan_reason: orphan }])
      .sort(byDate)
  }

  /**
   * `D__date`: the run of workflow D at that date, its steps and its task groups as sub-workflows; `D.G__date`: the
   * sub-workflow of group G of that run, with its own steps and nested groups (Airflow 3's task groups shown as the
   * interface's sub-workflows).
   */
  async function detail (workflowId: string, ctx: RequestContext) {
    const { run, path } = await runOfWorkflow(reads, workflowId, ctx)
    const tasks = await reads.tasks(run.dag_id, run.dag_run_id, ctx)
    if (path !== '' && !tasks.some((t) => t.task_id.startsWith(`${path}.`))) throw notFound(workflowId)
    return workflowDetail(run, tasks, path)
  }

  /**
   * Stops a queued or running run that belongs to no action (its state set to failed, as an action's stop does): such
   * a run of a site workflow blocks every site action's pre-run check, and no action can stop it. An action's own run
   * is stopped through its action, so that its audit records it; a run of a workflow that is no action's is not this
   * service's to stop. Answers the run stopped and why it is no action's.
   */
  async function stop (workflowId: string, ctx: RequestContext): Promise<{ run: EngineRun, reason: string }> {
    const { run, path } = await runOfWorkflow(reads, workflowId, ctx)
    const refuse = (reason: string): ConflictError => new ConflictError('Unable to stop workflow', reason)
    if (path !== '') throw refuse(`${workflowId} is a sub-workflow: stop its run, ${workflowOf(run).workflow_id}`)
    if (!ACTION_DAGS.includes(run.dag_id)) {
      throw refuse(`${run.dag_id} is no action's workflow: only runs of the action workflows are stopped here`)
    }
    const [entry] = await ownershipOf(deps.repos, [run])
    if (entry?.orphan === undefined) {
      throw refuse(`The run is action ${run.dag_run_id}'s: stop it with POST /api/v1.0/actions/${run.dag_run_id}/control/stop`)
    }
    if (run.state !== 'queued' && run.state !== 'running') {
      throw refuse(`dag_run state must be running or queued, but is ${String(run.state)}`)
    }
    await deps.engine.setRunState(run.dag_id, run.dag_run_id, 'failed', ctx)
    reads.changed()
    return { run, reason: entry.orphan }
  }

  return { list, orphans, detail, stop }
}

export type Workflows = ReturnType<typeof createWorkflows>
