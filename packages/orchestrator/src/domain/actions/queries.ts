// Reading one action: the entity from the database with its run, pause flag and steps from the engine reads (the
// engine watch, or the engine itself), its validations and audit; one validation; one step; a step's log from the
// engine. The list of actions is list.ts.
import { NotFoundError, type RequestContext } from '@slipway/common'
import type { ActionDetailRecord, Repositories } from '../../db/repositories.ts'
import type { EngineClient, EngineRun } from '../../clients/engine.ts'
import type { EngineReads } from '../engine/engine-reads.ts'
import { orderedSteps, resolveStep, type StepState } from '../steps.ts'
import { plainTimestamp, spacedDate, zonedTimestamp } from '../format.ts'
import { noteView, type NoteView, type Notes } from '../notes.ts'
import { keptAnswers } from '../kept-answers.ts'
import { actionEntity, lastKnownRun, requireAction, runOf } from './entity.ts'
import { runFromSummaryReason } from './lifecycle.ts'

interface QueryDeps {
  repos: Repositories
  /** Logs are read from the engine itself; everything else through `reads`. */
  engine: Pick<EngineClient, 'log'>
  reads: EngineReads
  notes: Notes
}

/**
 * What one action's answer reads from the database: in one read where the database offers it (SQLite and
 * PostgreSQL do), else list by list. Step notes to verbosity 1 at most, whatever was asked, as
 * Shipyard answers an action.
 */
async function detailOf (repos: Repositories, id: string, verbosity: number): Promise<ActionDetailRecord> {
  const bounds = { action: verbosity, steps: Math.min(verbosity, 1) }
  const read = repos.actions.detail
  const found = read === undefined ? await readOneByOne(repos, id, bounds) : await read(id, bounds)
  if (found === undefined) throw new NotFoundError('Action not found', `Unknown Action: ${id}`)
  return found
}

async function readOneByOne (
  repos: Repositories, id: string, bounds: { action: number, steps: number }
): Promise<ActionDetailRecord | undefined> {
  const action = await repos.actions.get(id)
  if (action === undefined) return undefined
  return {
    action,
    validations: await repos.validationFailures.listFor(id),
    audit: await repos.audit.listFor(id),
    actionNotes: bounds.action < 1 ? [] : await repos.notes.find({ exact: [`action/${id}`], maxVerbosity: bounds.action }),
    stepNotes: bounds.steps < 1 ? [] : await repos.notes.find({ prefix: `step/${id}/`, maxVerbosity: bounds.steps })
  }
}

function detailAnswer (
  detail: ActionDetailRecord, run: EngineRun | undefined, paused: boolean, steps: StepState[], fromSummary: boolean
) {
  const { action } = detail
  const stepNotes = new Map<string, NoteView[]>()
  const prefix = `step/${action.id}/`
  for (const note of detail.stepNotes) {
    const step = note.assoc_id.slice(prefix.length)
    stepNotes.set(step, [...(stepNotes.get(step) ?? []), noteView(note)])
  }
  const entity = actionEntity(action, run, paused, steps, stepNotes)
  return {
    ...entity,
    ...(fromSummary ? { start_reason: runFromSummaryReason(action) } : {}),
    validations: detail.validations,
    command_audit: detail.audit.map((a) => ({ ...a, datetime: zonedTimestamp(a.datetime) })),
    notes: detail.actionNotes.map(noteView)
  }
}

async function validation (repos: Repositories, actionId: string, validationId: string) {
  await requireAction(repos, actionId)
  const found = (await repos.validationFailures.listFor(actionId)).find((v) => v.id === validationId)
  if (found === undefined) throw new NotFoundError('Validation not found', `Unknown validation ${validationId}`)
  return found
}

async function findStep (deps: QueryDeps, actionId: string, stepId: string, ctx: RequestContext) {
  const action = await requireAction(deps.repos, actionId)
  const { steps } = await runOf(deps.reads, action, ctx)
  const ordered = orderedSteps(action.dag_id, steps)
  const found = resolveStep(ordered, stepId)
  if (found?.task === undefined) throw new NotFoundError('Step not found', `Unknown step ${stepId}`)
  return { task: found.task, index: ordered.indexOf(found) + 1 }
}

async function step (deps: QueryDeps, actionId: string, stepId: string, verbosity: number, ctx: RequestContext) {
  const { task, index } = await findStep(deps, actionId, stepId, ctx)
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

async function log (
  deps: QueryDeps, actionId: string, stepId: string, tryNumber: number | undefined, ctx: RequestContext
): Promise<string> {
  // the logs route words its 404s its own way (Shipyard's 'Action Not Found!', 'Step Not Found!'), unlike the
  // other action reads
  const action = await deps.repos.actions.get(actionId)
  if (action === undefined) throw new NotFoundError('Action Not Found!', `Unknown Action: ${actionId}`)
  const { steps } = await runOf(deps.reads, action, ctx)
  if (steps.length === 0) throw new NotFoundError('Steps Not Found!', `Action ${actionId} has no steps in the workflow engine`)
  const task = resolveStep(orderedSteps(action.dag_id, steps), stepId)?.task
  if (task === undefined) throw new NotFoundError('Step Not Found!', `Unknown step ${stepId}`)
  const wanted = tryNumber ?? task.try_number
  if (wanted < 1 || wanted > task.try_number) {
    throw new NotFoundError('Step Not Found!',
      `Step ${stepId} has no try ${wanted} (tries: ${task.try_number})`)
  }
  try {
    return await deps.engine.log(task.dag_id, task.dag_run_id, task.task_id, wanted, ctx)
  } catch (error) {
    if (error instanceof NotFoundError) {
      throw new NotFoundError('Log retrieval error', 'Airflow endpoint returned error status code', { cause: error })
    }
    throw error
  }
}

export function createActionQueries (deps: QueryDeps) {
  // GET /actions/{id}'s answers, made again only when the database or the engine watch hands out something new; kept
  // for the actions being polled now (each answer holds the inputs it was made from, so not for every action read)
  const answers = keptAnswers<ReturnType<typeof detailAnswer>>(64)

  /** One action's answer: the same object while its record and its run, flag and steps are (callers must not change it). */
  async function get (id: string, verbosity: number, ctx: RequestContext) {
    const detail = await detailOf(deps.repos, id, verbosity)
    const read = await runOf(deps.reads, detail.action, ctx)
    const { paused } = read
    let { run, steps }: { run: EngineRun | undefined, steps: StepState[] } = read
    // a run the engine has no steps of (gone from the engine, or none made yet): its summary if one was kept when it ended
    const kept = steps.length === 0 && detail.action.start_state === 'started'
      ? await lastKnownRun(deps.repos, detail.action)
      : undefined
    if (kept !== undefined) ({ run, steps } = { run: run ?? kept.run, steps: kept.steps })
    const fromSummary = kept !== undefined
    return answers(`${id}\u0000${verbosity}`, [detail, run, paused, fromSummary, ...steps],
      () => detailAnswer(detail, run, paused, steps, fromSummary))
  }

  return {
    get,
    validation: async (actionId: string, validationId: string) => await validation(deps.repos, actionId, validationId),
    step: async (actionId: string, stepId: string, verbosity: number, ctx: RequestContext) =>
      await step(deps, actionId, stepId, verbosity, ctx),
    log: async (actionId: string, stepId: string, tryNumber: number | undefined, ctx: RequestContext): Promise<string> =>
      await log(deps, actionId, stepId, tryNumber, ctx)
  }
}

export type ActionQueries = ReturnType<typeof createActionQueries>
