// The read-only view of every workflow in the engine (seed 000 §2.5, §4.12–4.13; spec/orchestrator.md §4).
import { BadRequestError, NotFoundError, type RequestContext } from '@slipway/common'
import type { EngineClient, EngineRun, EngineTask } from '../clients/engine.ts'
import { plainTimestamp, spacedDate, workflowDate } from './format.ts'

// the engine's datetimes are Python's: years 1 to 9999; bounds beyond them are clamped, never sent
const EARLIEST_MS = Date.parse('0001-01-01T00:00:00Z')
const LATEST_MS = Date.parse('9999-12-31T23:59:59.999Z')
const withinEngine = (ms: number): Date => new Date(Number.isNaN(ms) ? EARLIEST_MS : Math.min(Math.max(ms, EARLIEST_MS), LATEST_MS))

const DURATION = /^P(?:(\d+)Y)?(?:(\d+)M)?(?:(\d+)W)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?)?$/

/** The lower bound of `since`: an ISO date/time in the past, or an ISO duration back from now; default 30 days. */
export function sinceOf (value: string | undefined, now = new Date()): Date {
  if (value === undefined || value === '') return new Date(now.getTime() - 30 * 86_400_000)
  const duration = DURATION.exec(value)
  if (duration !== null && value !== 'P' && !value.endsWith('T')) {
    const [, y, mo, w, d, h, mi, s] = duration.map((x) => Number(x ?? 0))
    const ms = (((((y ?? 0) * 365 + (mo ?? 0) * 30 + (w ?? 0) * 7 + (d ?? 0)) * 24 + (h ?? 0)) * 60 + (mi ?? 0)) * 60 + (s ?? 0)) * 1000
    return withinEngine(now.getTime() - ms)
  }
  const zoned = /(Z|[+-]\d\d:?\d\d)$/.test(value) || /^\d{4}-\d\d-\d\d$/.test(value) ? value : `${value}Z`
  const date = new Date(/^\d{4}-\d\d-\d\d$/.test(zoned) ? `${zoned}T00:00:00Z` : zoned)
  if (Number.isNaN(date.getTime())) throw new BadRequestError('Invalid since parameter', `since must be an ISO 8601 date/time or duration, got '${value}'`)
  return withinEngine(date.getTime())
}

function workflowOf (run: EngineRun) {
  const logical = run.logical_date ?? run.run_after
  return {
    workflow_id: `${run.dag_id}__${workflowDate(logical)}`,
    dag_id: run.dag_id,
    run_id: run.dag_run_id,
    execution_date: spacedDate(logical),
    start_date: plainTimestamp(run.start_date ?? null),
    end_date: plainTimestamp(run.end_date ?? null),
    state: run.state,
    external_trigger: run.run_type === 'manual' || run.run_type === 'asset_triggered'
  }
}

function stepOf (task: EngineTask) {
  return {
    task_id: task.task_id,
    dag_id: task.dag_id,
    execution_date: spacedDate(task.logical_date ?? task.run_after ?? null),
    start_date: plainTimestamp(task.start_date ?? null),
    end_date: plainTimestamp(task.end_date ?? null),
    duration: task.duration ?? null,
    queued_dttm: plainTimestamp(task.queued_when ?? null),
    try_number: task.try_number,
    state: task.state ?? null,
    operator: task.operator ?? null
  }
}

export function createWorkflows (deps: { engine: EngineClient }) {
  async function list (since: string | undefined, ctx: RequestContext) {
    const threshold = sinceOf(since)
    const runs = await deps.engine.runs({ logicalDateGte: threshold.toISOString() }, ctx)
    return runs.filter((r) => !r.dag_id.includes('.'))
      .map(workflowOf)
      .sort((a, b) => String(a.execution_date).localeCompare(String(b.execution_date)) || a.dag_id.localeCompare(b.dag_id))
  }

  async function detail (workflowId: string, ctx: RequestContext) {
    const at = workflowId.lastIndexOf('__')
    if (at <= 0) throw new BadRequestError('Invalid Workflow ID specified', 'Workflow id must use {dag id}__{execution date} format')
    const dagId = workflowId.slice(0, at)
    const instant = new Date(`${workflowId.slice(at + 2)}Z`).getTime()
    if (Number.isNaN(instant) || instant < EARLIEST_MS || instant > LATEST_MS) throw new BadRequestError('Invalid Workflow ID specified', 'Workflow id must use {dag id}__{execution date} format')
    const runs = (await deps.engine.runs({ logicalDateGte: withinEngine(instant - 1000).toISOString() }, ctx))
      .filter((r) => (r.dag_id === dagId || r.dag_id.startsWith(`${dagId}.`)) && new Date(r.logical_date ?? r.run_after).getTime() === instant)
      .sort((a, b) => a.dag_id.localeCompare(b.dag_id))
    const [main, ...subs] = runs
    if (main === undefined) throw new NotFoundError('Workflow not found', `A Workflow with id ${workflowId} was not found`)
    const steps = (await Promise.all(runs.map(async (r) => await deps.engine.tasks(r.dag_id, r.dag_run_id, ctx)))).flat()
    return { ...workflowOf(main), steps: steps.map(stepOf), sub_dags: subs.map(workflowOf) }
  }

  return { list, detail }
}

export type Workflows = ReturnType<typeof createWorkflows>
