// The read-only view of every workflow in the engine, those not started through this service included.
import { BadRequestError, NotFoundError, type RequestContext } from '@slipway/common'
import type { EngineClient, EngineRun } from '../clients/engine.ts'
import { workflowDetail, workflowOf, type WorkflowView } from './steps.ts'
import { directReads, type EngineReads } from './engine-watch.ts'

// the engine's datetimes are Python's: years 1 to 9999; bounds beyond them are clamped, never sent
const EARLIEST_MS = Date.parse('0001-01-01T00:00:00Z')
const LATEST_MS = Date.parse('9999-12-31T23:59:59.999Z')
const withinEngine = (ms: number): Date => new Date(Number.isNaN(ms) ? EARLIEST_MS : Math.min(Math.max(ms, EARLIEST_MS), LATEST_MS))

export function createWorkflows (deps: { engine: EngineClient, reads?: EngineReads }) {
  const reads = deps.reads ?? directReads(deps.engine)
  // each run's view made once for as long as the engine watch keeps the run's object (a changed run is a new one);
  // runs read straight from the engine are new objects every time and are made every time
  const views = new WeakMap<EngineRun, WorkflowView>()
  const viewOf = (run: EngineRun): WorkflowView => {
    let view = views.get(run)
    if (view === undefined) {
      view = workflowOf(run)
      views.set(run, view)
    }
    return view
  }
  /** Runs since a moment (clamped to the engine's years), oldest first. */
  async function list (since: Date, ctx: RequestContext) {
    const threshold = withinEngine(since.getTime())
    const runs = await reads.runs({ logicalDateGte: threshold.toISOString() }, ctx)
    return runs.map(viewOf)
      .sort((a, b) => String(a.execution_date).localeCompare(String(b.execution_date)) || a.dag_id.localeCompare(b.dag_id))
  }

  /**
   * `D__date`: the run of workflow D at that date, its steps and its task groups as sub-workflows; `D.G__date`: the
   * sub-workflow of group G of that run, with its own steps and nested groups (Airflow 3's task groups shown as the
   * interface's sub-workflows).
   */
  async function detail (workflowId: string, ctx: RequestContext) {
    const at = workflowId.lastIndexOf('__')
    if (at <= 0) throw new BadRequestError('Invalid Workflow ID specified', 'Workflow id must use {dag id}__{execution date} format')
    const name = workflowId.slice(0, at)
    const instant = new Date(`${workflowId.slice(at + 2)}Z`).getTime()
    if (Number.isNaN(instant) || instant < EARLIEST_MS || instant > LATEST_MS) {
      throw new BadRequestError('Invalid Workflow ID specified',
        'Workflow id must use {dag id}__{execution date} format')
    }
    const notFound = (): NotFoundError => new NotFoundError('Workflow not found', `A Workflow with id ${workflowId} was not found`)
    // the run of the longest DAG id that the name starts with: DAG ids may hold dots themselves
    const run = (await reads.runs({ logicalDateGte: withinEngine(instant - 1000).toISOString() }, ctx))
      .filter((r) => (name === r.dag_id || name.startsWith(`${r.dag_id}.`)) &&
        new Date(r.logical_date ?? r.run_after).getTime() === instant)
      .sort((a, b) => b.dag_id.length - a.dag_id.length)[0]
    if (run === undefined) throw notFound()
    const path = name.slice(run.dag_id.length + 1)
    const tasks = await reads.tasks(run.dag_id, run.dag_run_id, ctx)
    if (path !== '' && !tasks.some((t) => t.task_id.startsWith(`${path}.`))) throw notFound()
    return workflowDetail(run, tasks, path)
  }

  return { list, detail }
}

export type Workflows = ReturnType<typeof createWorkflows>
