// Reading actions: the entity from the
// database with its run, pause flag and steps from the engine reads (the engine watch, or the engine itself), the
// validations and audit, one step, and a step's log from the engine.
import { NotFoundError, type RequestContext } from '@slipway/common'
import type { ActionDetailRecord, ActionRecord, ListWindow, Repositories, StartState } from '../db/repositories.ts'
import type { EngineClient, EngineRun, EngineTask } from '../clients/engine.ts'
import { actionLifecycle } from './catalog.ts'
import { orderedSteps, resolveStep, type StepState } from './steps.ts'
import type { EngineReads } from './engine-watch.ts'
import { executionDate, plainTimestamp, spacedDate, zonedTimestamp } from './format.ts'
import { noteView, type NoteView, type Notes } from './notes.ts'
import { keptAnswers, sameInputs } from './kept-answers.ts'

/** How many of the newest actions of the last list read keep their entries (see `listed`). */
const KEPT_ENTRIES = 1000

/** How many actions a whole list reads at a time, with their runs, steps and notes. */
const LIST_PAGE = 500

/** How a saved start state reads in the entity's `start_status`. */
const START_STATUS: Record<StartState, string> = {
  pending: 'trigger_pending', started: 'started', failed: 'failed_to_start', refused: 'refused'
}

export function createActionReads (deps: {
  repos: Repositories
  /** Logs are read from the engine itself; everything else through `reads`. */
  engine: Pick<EngineClient, 'log'>
  reads: EngineReads
  notes: Notes
}) {
  const { repos, engine, reads } = deps

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
  async function stepsOfMany (actions: ActionRecord[], ctx: RequestContext): Promise<Map<string, StepState[]>> {
    const steps = new Map<string, StepState[]>()
    if (actions.length === 0) return steps
    const tasks = await reads.tasksOfRuns({ dagIds: [...new Set(actions.map((a) => a.dag_id))], runIds: actions.map((a) => a.id) }, ctx)
    for (const task of tasks) {
      const list = steps.get(task.dag_run_id)
      if (list === undefined) steps.set(task.dag_run_id, [task])
      else list.push(task)
    }
    return steps
  }

  function stepSummary (actionId: string, step: { id: string, state: string | null }, index: number, notes: NoteView[] = []) {
    return { id: step.id, url: `/actions/${actionId}/steps/${step.id}`, index, state: step.state, notes }
  }

  /**
   * The action entity from a record, its run (if any), the DAG's pause flag and the steps. `start_status` says
   * whether the engine has the action's run: `started`; `trigger_pending` (saved, the engine has not confirmed the run
   * yet: lifecycle Pending); `failed_to_start` (no run, its trigger failed: lifecycle Failed, `start_reason` says why);
   * `refused` (a pre-run validation stopped it). A run the engine has counts whatever the database still says.
   */
  function entityOf (
    action: ActionRecord,
    run: EngineRun | undefined,
    dagPaused: boolean,
    steps: StepState[],
    stepNotes?: Map<string, NoteView[]>
  ) {
    const start = action.validation_failed ? 'refused' : run !== undefined ? 'started' : START_STATUS[action.start_state]
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
      // the same rule for a list and one action, whether the steps came from the engine watch or the engine
      action_lifecycle: start === 'refused' || start === 'failed_to_start'
        ? 'Failed'
        : actionLifecycle(run?.state, dagPaused, steps.map((s) => s.state)),
      start_status: start,
      start_reason: start === 'started' || start === 'refused' ? null : action.start_reason,
      // an action that never ran has no steps; one that did lists its workflow's whole step list
      steps: run === undefined && steps.length === 0
        ? []
        : orderedSteps(action.dag_id, steps).map((step, i) => stepSummary(action.id, step, i + 1, stepNotes?.get(step.id)))
    }
  }

  // GET /actions' entries kept per action while their inputs are the very same: the engine watch hands out the same
  // run and step objects until the engine changes them, so an action that has ended is made once, not on every
  // read of the list. The record's fields that change after it is saved are part of the inputs; the others never
  // change. Kept only for the newest KEPT_ENTRIES actions of the last read (those still changing, those a console
  // shows): a site's whole history would hold an entry per action for as long as it exists, and an older entry is
  // made again when a whole list is read, at a cost that grows with the answer.
  let listed = new Map<string, { inputs: unknown[], entry: ReturnType<typeof entityOf> }>()

  /**
   * A token that changes whenever the list's answer (of any window and verbosity) may: the database's and the engine
   * watch's. Read before the list it stands for, so that the list is never older than its token. Undefined while the
   * engine reads do not come from a fresh watch: then nothing cheap says what changed.
   */
  async function listVersion (): Promise<string | undefined> {
    const engineVersion = reads.version()
    if (engineVersion === undefined) return undefined
    return `${await repos.actions.listVersion()}.${engineVersion}`
  }

  /**
   * GET /actions, each entry made as it is read (`entries`): runs and steps come from batched engine calls, never
   * calls per action; `window` narrows it to the actions after an id, the newest so many. The whole list is read in
   * pages of LIST_PAGE actions (by id, oldest first), each page's runs, steps and notes with it, while the answer is
   * written: its cost grows with its size, and nothing holds the whole history at once. The first page is read
   * before the answer starts, so that a database or engine failing at once is answered as an error.
   */
  async function listEntries (verbosity: number, ctx: RequestContext, window?: ListWindow) {
    const paused = new Map<string, Promise<boolean>>()
    const pausedOf = async (dagId: string): Promise<boolean> => {
      let flag = paused.get(dagId)
      if (flag === undefined) {
        flag = reads.isPaused(dagId, ctx).then((p) => p === true)
        paused.set(dagId, flag)
      }
      return await flag
    }
    // reads not served by a fresh watch go to the engine, which cannot list runs by id: the whole list's runs are
    // read once, as before, not once a page
    let allRuns: Promise<EngineRun[]> | undefined
    const runsOf = async (dagIds: string[], runIds: string[]): Promise<EngineRun[]> => {
      if (window !== undefined || reads.version() !== undefined) return await reads.runs({ dagIds, runIds }, ctx)
      allRuns ??= reads.runs({}, ctx)
      const ids = new Set(runIds)
      return (await allRuns).filter((r) => dagIds.includes(r.dag_id) && ids.has(r.dag_run_id))
    }
    const first = await pageOf(window === undefined ? await repos.actions.page('', LIST_PAGE) : await repos.actions.list(window))
    const next = new Map<string, { inputs: unknown[], entry: ReturnType<typeof entityOf> }>()

    /** One page of actions with their runs, pause flags, steps and notes. */
    async function pageOf (actions: ActionRecord[]) {
      const started = actions.filter((a) => !a.validation_failed)
      const dagIds = [...new Set(started.map((a) => a.dag_id))]
      // the engine's runs, DAG flags and steps and the database's notes are independent: read them at once
      const [runs, flags, steps, notes] = await Promise.all([
        dagIds.length === 0 ? [] : runsOf(dagIds, started.map((a) => a.id)),
        Promise.all(dagIds.map(async (d) => [d, await pausedOf(d)] as const)),
        stepsOfMany(started, ctx),
        actions.length === 0 ? new Map<string, NoteView[]>() : deps.notes.forActions(actions.map((a) => a.id), verbosity)
      ])
      return { actions, byRunId: new Map(runs.map((r) => [r.dag_run_id, r])), flags: new Map(flags), steps, notes }
    }

    function * entriesOf (page: Awaited<ReturnType<typeof pageOf>>) {
      for (const action of page.actions) {
        const run = page.byRunId.get(action.id)
        const dagPaused = page.flags.get(action.dag_id) ?? false
        const actionSteps = page.steps.get(action.id) ?? []
        const inputs = [action.start_state, action.start_reason, action.validation_failed, action.dag_execution_date,
          run, dagPaused, ...actionSteps]
        const kept = listed.get(action.id)
        const entry = kept !== undefined && sameInputs(kept.inputs, inputs)
          ? kept.entry
          : entityOf(action, run, dagPaused, actionSteps)
        // the newest KEPT_ENTRIES of this read: those read last
        next.set(action.id, { inputs, entry })
        if (next.size > KEPT_ENTRIES) next.delete(next.keys().next().value as string)
        yield { ...entry, notes: page.notes.get(action.id) ?? [] }
      }
    }

    async function * entries () {
      let page = first
      yield * entriesOf(page)
      // a window is read at once; the whole list page after page
      const more = (read: typeof page): boolean => window === undefined && read.actions.length === LIST_PAGE
      while (more(page)) {
        page = await pageOf(await repos.actions.page(page.actions[page.actions.length - 1]!.id, LIST_PAGE))
        yield * entriesOf(page)
      }
      listed = next
    }
    return { entries: entries() }
  }

  /** GET /actions as one array (tests, small lists). */
  async function list (verbosity: number, ctx: RequestContext, window?: ListWindow) {
    const answer = []
    for await (const entry of (await listEntries(verbosity, ctx, window)).entries) answer.push(entry)
    return answer
  }

  /**
   * What one action's answer reads from the database: in one read where the database offers it (SQLite and
   * PostgreSQL do), else list by list. Step notes to verbosity 1 at most, whatever was asked, as
   * Shipyard answers an action.
   */
  async function detailOf (id: string, verbosity: number): Promise<ActionDetailRecord> {
    const bounds = { action: verbosity, steps: Math.min(verbosity, 1) }
    const read = repos.actions.detail
    const found = read === undefined ? await readOneByOne(id, bounds) : await read(id, bounds)
    if (found === undefined) throw new NotFoundError('Action not found', `Unknown Action: ${id}`)
    return found
  }

  async function readOneByOne (id: string, bounds: { action: number, steps: number }): Promise<ActionDetailRecord | undefined> {
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

  // GET /actions/{id}'s answers, made again only when the database or the engine watch hands out something new; kept
  // for the actions being polled now (each answer holds the inputs it was made from, so not for every action read)
  const answers = keptAnswers<ReturnType<typeof detailAnswer>>(64)

  /** One action's answer: the same object while its record and its run, flag and steps are (callers must not change it). */
  async function get (id: string, verbosity: number, ctx: RequestContext) {
    const detail = await detailOf(id, verbosity)
    const { run, paused, steps } = await runOf(detail.action, ctx)
    return answers(`${id}\u0000${verbosity}`, [detail, run, paused, ...steps], () => detailAnswer(detail, run, paused, steps))
  }

  function detailAnswer (detail: ActionDetailRecord, run: EngineRun | undefined, paused: boolean, steps: EngineTask[]) {
    const { action } = detail
    const stepNotes = new Map<string, NoteView[]>()
    const prefix = `step/${action.id}/`
    for (const note of detail.stepNotes) {
      const step = note.assoc_id.slice(prefix.length)
      stepNotes.set(step, [...(stepNotes.get(step) ?? []), noteView(note)])
    }
    return {
      ...entityOf(action, run, paused, steps, stepNotes),
      validations: detail.validations,
      command_audit: detail.audit.map((a) => ({ ...a, datetime: zonedTimestamp(a.datetime) })),
      notes: detail.actionNotes.map(noteView)
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
    // the logs route words its 404s its own way (Shipyard's 'Action Not Found!', 'Step Not Found!'), unlike the
    // other action reads
    const action = await repos.actions.get(actionId)
    if (action === undefined) throw new NotFoundError('Action Not Found!', `Unknown Action: ${actionId}`)
    const { steps } = await runOf(action, ctx)
    if (steps.length === 0) throw new NotFoundError('Steps Not Found!', `Action ${actionId} has no steps in the workflow engine`)
    const task = resolveStep(orderedSteps(action.dag_id, steps), stepId)?.task
    if (task === undefined) throw new NotFoundError('Step Not Found!', `Unknown step ${stepId}`)
    const wanted = tryNumber ?? task.try_number
    if (wanted < 1 || wanted > task.try_number) {
      throw new NotFoundError('Step Not Found!',
        `Step ${stepId} has no try ${wanted} (tries: ${task.try_number})`)
    }
    try {
      return await engine.log(task.dag_id, task.dag_run_id, task.task_id, wanted, ctx)
    } catch (error) {
      if (error instanceof NotFoundError) {
        throw new NotFoundError('Log retrieval error', 'Airflow endpoint returned error status code', { cause: error })
      }
      throw error
    }
  }

  return { requireAction, stepsOf, list, listEntries, listVersion, get, validation, step, log }
}

export type ActionReads = ReturnType<typeof createActionReads>
