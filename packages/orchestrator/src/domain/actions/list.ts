// GET /actions: every action (or a window of them) as an entity, read in pages with their runs, steps and notes from
// batched engine and database calls, never calls per action; entries kept while their inputs are the very same; and
// the token that says when the answer may have changed (the ETag's).
import type { RequestContext } from '@slipway/common'
import type { ActionRecord, ListWindow, Repositories } from '../../db/repositories.ts'
import type { EngineRun } from '../../clients/engine.ts'
import type { EngineReads } from '../engine/engine-reads.ts'
import type { StepState } from '../steps.ts'
import type { NoteView, Notes } from '../notes.ts'
import { sameInputs } from '../kept-answers.ts'
import { decodeSummary } from '../engine/run-summaries.ts'
import { actionEntity, type ActionEntity } from './entity.ts'

/** How many of the newest actions of the last list read keep their entries (see `ListMemory`). */
const KEPT_ENTRIES = 1000

/** How many actions a whole list reads at a time, with their runs, steps and notes. */
const LIST_PAGE = 500

interface ListDeps {
  repos: Repositories
  reads: EngineReads
  notes: Notes
}

interface KeptEntry { inputs: unknown[], entry: ActionEntity }

/**
 * GET /actions' entries kept per action while their inputs are the very same: the engine watch hands out the same
 * run and step objects until the engine changes them, so an action that has ended is made once, not on every read
 * of the list. The record's fields that change after it is saved are part of the inputs; the others never change.
 * Kept only for the newest KEPT_ENTRIES actions of the last read (those still changing, those a console shows): a
 * site's whole history would hold an entry per action for as long as it exists, and an older entry is made again
 * when a whole list is read, at a cost that grows with the answer.
 */
interface ListMemory { listed: Map<string, KeptEntry> }

/** Where one list read takes its runs and pause flags from: each DAG's flag read once per list. */
function engineSources (reads: EngineReads, ctx: RequestContext, window: ListWindow | undefined) {
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
  return { pausedOf, runsOf }
}

/** Steps of many actions from the engine's batch list of task instances, paged: never a call per action. */
async function stepsOfMany (reads: EngineReads, actions: ActionRecord[], ctx: RequestContext): Promise<Map<string, StepState[]>> {
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

/** One page of actions with their runs, pause flags, steps and notes. */
async function pageOf (
  deps: ListDeps, sources: ReturnType<typeof engineSources>, actions: ActionRecord[], verbosity: number, ctx: RequestContext
) {
  const started = actions.filter((a) => !a.validation_failed)
  const dagIds = [...new Set(started.map((a) => a.dag_id))]
  // the engine's runs, DAG flags and steps and the database's notes are independent: read them at once
  const [runs, flags, steps, notes] = await Promise.all([
    dagIds.length === 0 ? [] : sources.runsOf(dagIds, started.map((a) => a.id)),
    Promise.all(dagIds.map(async (d) => [d, await sources.pausedOf(d)] as const)),
    stepsOfMany(deps.reads, started, ctx),
    actions.length === 0 ? new Map<string, NoteView[]>() : deps.notes.forActions(actions.map((a) => a.id), verbosity)
  ])
  const byRunId = new Map(runs.map((r) => [r.dag_run_id, r]))
  await keptSummaries(deps.repos, started.filter((a) => a.start_state === 'started' && !byRunId.has(a.id)), byRunId, steps)
  return { actions, byRunId, flags: new Map(flags), steps, notes }
}

/**
 * The runs of started actions that the engine reads did not find (gone from the engine, or reads that bypass the
 * watch's summaries), from the summaries the orchestrator kept when they ended: one database read a page.
 */
async function keptSummaries (
  repos: Repositories, missing: ActionRecord[], byRunId: Map<string, EngineRun>, steps: Map<string, StepState[]>
): Promise<void> {
  if (missing.length === 0 || repos.runSummaries === undefined) return
  for (const record of await repos.runSummaries.get(missing.map((a) => ({ dag_id: a.dag_id, run_id: a.id })))) {
    const kept = decodeSummary(record)
    byRunId.set(record.run_id, kept.run)
    if ((steps.get(record.run_id) ?? []).length === 0) steps.set(record.run_id, kept.steps)
  }
}

type Page = Awaited<ReturnType<typeof pageOf>>

/**
 * The entries of one read in a ring of KEPT_ENTRIES: the newest of them once the read ends. A map trimmed from its
 * front at each action cost more per action the more it had trimmed (its deleted slots are skipped until it is
 * rebuilt): a tenth of a whole read's time at 20,000 actions.
 */
function newestEntries () {
  const ids: string[] = []
  const kept: KeptEntry[] = []
  let count = 0
  return {
    add (id: string, entry: KeptEntry): void {
      ids[count % KEPT_ENTRIES] = id
      kept[count % KEPT_ENTRIES] = entry
      count++
    },
    /** The newest KEPT_ENTRIES added, by action id. */
    map (): Map<string, KeptEntry> {
      const newest = new Map<string, KeptEntry>()
      for (let i = Math.max(0, count - KEPT_ENTRIES); i < count; i++) newest.set(ids[i % KEPT_ENTRIES]!, kept[i % KEPT_ENTRIES]!)
      return newest
    }
  }
}

/** A page's entries, each kept one reused while its inputs are the same; `next` keeps the newest of this read. */
function * entriesOf (page: Page, listed: Map<string, KeptEntry>, next: ReturnType<typeof newestEntries>) {
  for (const action of page.actions) {
    const run = page.byRunId.get(action.id)
    const dagPaused = page.flags.get(action.dag_id) ?? false
    const actionSteps = page.steps.get(action.id) ?? []
    const inputs = [action.start_state, action.start_reason, action.validation_failed, action.dag_execution_date,
      run, dagPaused, ...actionSteps]
    const kept = listed.get(action.id)
    const entry = kept !== undefined && sameInputs(kept.inputs, inputs)
      ? kept.entry
      : actionEntity(action, run, dagPaused, actionSteps)
    next.add(action.id, { inputs, entry })
    yield { ...entry, notes: page.notes.get(action.id) ?? [] }
  }
}

/**
 * GET /actions, each entry made as it is read (`entries`); `window` narrows it to the actions after an id, the newest
 * so many. The whole list is read in pages of LIST_PAGE actions (by id, oldest first), each page's runs, steps and
 * notes with it, while the answer is written: its cost grows with its size, and nothing holds the whole history at
 * once. The first page is read before the answer starts, so that a database or engine failing at once is answered
 * as an error.
 */
async function listEntries (deps: ListDeps, memory: ListMemory, verbosity: number, ctx: RequestContext, window?: ListWindow) {
  const sources = engineSources(deps.reads, ctx, window)
  const read = async (actions: ActionRecord[]): Promise<Page> => await pageOf(deps, sources, actions, verbosity, ctx)
  const first = await read(window === undefined ? await deps.repos.actions.page('', LIST_PAGE) : await deps.repos.actions.list(window))
  const next = newestEntries()
  async function * entries () {
    let page = first
    yield * entriesOf(page, memory.listed, next)
    // a window is read at once; the whole list page after page
    const more = (done: Page): boolean => window === undefined && done.actions.length === LIST_PAGE
    while (more(page)) {
      page = await read(await deps.repos.actions.page(page.actions[page.actions.length - 1]!.id, LIST_PAGE))
      yield * entriesOf(page, memory.listed, next)
    }
    memory.listed = next.map()
  }
  return { entries: entries() }
}

export function createActionList (deps: ListDeps) {
  const memory: ListMemory = { listed: new Map() }

  /**
   * A token that changes whenever the list's answer (of any window and verbosity) may: the database's and the engine
   * watch's. Undefined while the engine reads do not come from a fresh watch: then nothing cheap says what changed.
   */
  async function listVersion (): Promise<string | undefined> {
    const engineVersion = deps.reads.version()
    if (engineVersion === undefined) return undefined
    return `${await deps.repos.actions.listVersion()}.${engineVersion}`
  }

  /**
   * GET /actions as the route answers it: the list's version is read first (the list is never older than its token)
   * and handed to `holdsVersion`, which answers whether the caller holds that list already; the entries unless so.
   */
  async function read (verbosity: number, ctx: RequestContext, window: ListWindow | undefined, holdsVersion: (version: string) => boolean) {
    const version = await listVersion()
    if (version !== undefined && holdsVersion(version)) return { entries: undefined }
    return { entries: (await listEntries(deps, memory, verbosity, ctx, window)).entries }
  }

  return {
    read,
    listVersion,
    listEntries: async (verbosity: number, ctx: RequestContext, window?: ListWindow) =>
      await listEntries(deps, memory, verbosity, ctx, window),
    /** GET /actions as one array (tests, small lists). */
    list: async (verbosity: number, ctx: RequestContext, window?: ListWindow) => {
      const answer = []
      for await (const entry of (await listEntries(deps, memory, verbosity, ctx, window)).entries) answer.push(entry)
      return answer
    }
  }
}

export type ActionList = ReturnType<typeof createActionList>
