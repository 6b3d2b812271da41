// The workflow engine: Airflow 3 REST API v2, one group of calls per resource (DAGs, runs, task instances) over one
// authenticated call (engine-call.ts: the JWT, and Airflow's 404/409/422 `detail` bodies mapped to our errors).
import { ConflictError, DownstreamError, NotFoundError, type CallContext } from '@slipway/common'
import { logText } from './engine-logs.ts'
import type { EngineDag, EngineRun, EngineTask } from './engine-views.ts'
import { createEngineCall, type EngineCall, type EngineOptions } from './engine-call.ts'

export type { EngineDag, EngineRun, EngineTask } from './engine-views.ts'
export type { EngineOptions } from './engine-call.ts'

type TaskPage = { task_instances: EngineTask[], total_entries: number }

/** The connection was refused (or the host unknown): no byte of the request reached the engine. */
function neverSent (error: unknown): boolean {
  let e = error as { code?: string, cause?: unknown } | null | undefined
  for (let depth = 0; e !== undefined && e !== null && depth < 5; depth++) {
    if (e.code === 'ECONNREFUSED' || e.code === 'ENOTFOUND') return true
    e = e.cause as typeof e
  }
  return false
}

/**
 * True when a failed trigger certainly made no run: the engine answered it with a refusal (a 4xx: an unknown DAG,
 * a DAG with import errors, a forbidden user, a logical date that kept colliding) or the request never reached it.
 * A timeout, a connection broken off or a 5xx (from the engine or a proxy before it) leaves the run unknown: the
 * engine may have made it, or may still.
 */
export function triggerRefused (error: unknown): boolean {
  if (error instanceof NotFoundError || error instanceof ConflictError) return true
  if (!(error instanceof DownstreamError)) return false
  const status = error.upstreamStatus
  if (status !== undefined && status >= 400 && status < 500) return true
  return error.failure === 'unreachable' && neverSent(error.cause)
}

/** Triggers tried before a logical date that keeps colliding is reported. */
const TRIGGER_ATTEMPTS = 5

/** Items per page asked for (Airflow's default maximum_page_limit). */
const PAGE_LIMIT = 100
/**
 * Items per page asked of the batch (POST …/list) endpoints, and run ids sent in one batch body. Airflow clamps only
 * a query's `limit`; a server that caps `page_limit` too is still read whole, as pages are stepped by what came back.
 */
const BATCH_PAGE_LIMIT = 1000
/** Pages fetched at once after the first has told how many items there are. */
const PAGES_AT_ONCE = 4

/**
 * Every item of a paged list. The first page gives total_entries and the page size the engine really uses (it
 * may cap page_limit); the remaining pages are then fetched PAGES_AT_ONCE at a time, in order.
 */
async function allPages<T> (fetchPage: (offset: number) => Promise<{ items: T[], total: number }>): Promise<T[]> {
  const first = await fetchPage(0)
  const stride = first.items.length
  if (stride === 0 || stride >= first.total) return first.items
  const offsets: number[] = []
  for (let offset = stride; offset < first.total; offset += stride) offsets.push(offset)
  const items = [...first.items]
  for (let at = 0; at < offsets.length; at += PAGES_AT_ONCE) {
    const pages = await Promise.all(offsets.slice(at, at + PAGES_AT_ONCE).map(fetchPage))
    for (const page of pages) items.push(...page.items)
    // the list shrank while it was read: nothing lies beyond an empty page
    if (pages.some((page) => page.items.length === 0)) break
  }
  return items
}

const enc = encodeURIComponent
const runPath = (dagId: string, runId: string): string => `/api/v2/dags/${enc(dagId)}/dagRuns/${enc(runId)}`

/** The DAGs: one, all with their pause flags, and pausing. */
function dagCalls (call: EngineCall) {
  return {
    async dag (dagId: string, ctx?: CallContext): Promise<EngineDag> {
      return (await call<EngineDag>('GET', `/api/v2/dags/${enc(dagId)}`, undefined, ctx)).value
    },
    async setPaused (dagId: string, paused: boolean, ctx?: CallContext): Promise<void> {
      await call('PATCH', `/api/v2/dags/${enc(dagId)}`, { is_paused: paused }, ctx)
    },
    /** Every DAG with its pause flag, paged. */
    async dags (ctx?: CallContext): Promise<EngineDag[]> {
      return await allPages(async (offset) => {
        const path = `/api/v2/dags?limit=${PAGE_LIMIT}&offset=${offset}&order_by=dag_id`
        const page = (await call<{ dags: EngineDag[], total_entries: number }>('GET', path, undefined, ctx)).value
        return { items: page.dags, total: page.total_entries }
      })
    }
  }
}

/** The runs: triggered, read one or many, their state set. */
function runCalls (call: EngineCall, now: () => number) {
  /** The run, or undefined when the engine has none with that id. */
  async function getRun (dagId: string, runId: string, ctx?: CallContext): Promise<EngineRun | undefined> {
    try {
      return (await call<EngineRun>('GET', runPath(dagId, runId), undefined, ctx)).value
    } catch (error) {
      if (error instanceof NotFoundError) return undefined
      throw error
    }
  }

  let lastLogical = 0
  /** Now, or a millisecond after the last date this client gave a run if that is later. */
  const nextLogicalDate = (): string => {
    lastLogical = Math.max(now(), lastLogical + 1)
    return new Date(lastLogical).toISOString()
  }

  return {
    /**
     * Triggers a run with id `runId` at a logical date of now. Airflow 3.0–3.2 keep (dag_id, logical_date) unique,
     * so this process never gives a DAG the same date twice, and a 409 for a run that does not exist (another
     * orchestrator took that millisecond) is tried again a millisecond later. A 409 for an existing run id means it
     * was triggered already: that run is the answer.
     */
    async trigger (dagId: string, runId: string, conf: Record<string, unknown>, ctx?: CallContext): Promise<EngineRun> {
      for (let attempt = 1; ; attempt++) {
        const logicalDate = nextLogicalDate()
        try {
          const body = { dag_run_id: runId, logical_date: logicalDate, conf }
          return (await call<EngineRun>('POST', `/api/v2/dags/${enc(dagId)}/dagRuns`, body, ctx)).value
        } catch (error) {
          if (!(error instanceof ConflictError)) throw error
          const existing = await getRun(dagId, runId, ctx)
          if (existing !== undefined) return existing
          if (attempt >= TRIGGER_ATTEMPTS) throw error
        }
      }
    },
    run: getRun,
    async setRunState (dagId: string, runId: string, state: 'failed' | 'success' | 'queued', ctx?: CallContext): Promise<void> {
      await call('PATCH', runPath(dagId, runId), { state }, ctx)
    },
    /** Runs of the given DAGs (or all), paged by total_entries: one call per page. */
    async runs (filter: { dagIds?: string[], logicalDateGte?: string, states?: string[] }, ctx?: CallContext): Promise<EngineRun[]> {
      return await allPages(async (offset) => {
        const body: Record<string, unknown> = { page_offset: offset, page_limit: BATCH_PAGE_LIMIT, order_by: 'id' }
        if (filter.dagIds !== undefined) body.dag_ids = filter.dagIds
        if (filter.logicalDateGte !== undefined) body.logical_date_gte = filter.logicalDateGte
        if (filter.states !== undefined) body.states = filter.states
        const page = (await call<{ dag_runs: EngineRun[], total_entries: number }>('POST', '/api/v2/dags/~/dagRuns/list', body, ctx)).value
        return { items: page.dag_runs, total: page.total_entries }
      })
    }
  }
}

/** The task instances: of one run, of many, and one try's log. */
function taskCalls (call: EngineCall) {
  return {
    /** Task instances of one run, paged. */
    async tasks (dagId: string, runId: string, ctx?: CallContext): Promise<EngineTask[]> {
      return await allPages(async (offset) => {
        const path = `${runPath(dagId, runId)}/taskInstances?limit=${PAGE_LIMIT}&offset=${offset}`
        const page = (await call<TaskPage>('GET', path, undefined, ctx)).value
        return { items: page.task_instances, total: page.total_entries }
      })
    },
    /**
     * Task instances of many runs through the batch list (`~` for DAG and run), paged by total_entries: one call
     * per page of up to BATCH_PAGE_LIMIT instances, the run ids sent BATCH_PAGE_LIMIT at a time.
     */
    async tasksOfRuns (filter: { dagIds?: string[], runIds: string[] }, ctx?: CallContext): Promise<EngineTask[]> {
      const tasks: EngineTask[] = []
      for (let at = 0; at < filter.runIds.length; at += BATCH_PAGE_LIMIT) {
        const runIds = filter.runIds.slice(at, at + BATCH_PAGE_LIMIT)
        tasks.push(...await allPages(async (offset) => {
          const body: Record<string, unknown> = { dag_run_ids: runIds, page_offset: offset, page_limit: BATCH_PAGE_LIMIT }
          if (filter.dagIds !== undefined) body.dag_ids = filter.dagIds
          const page = (await call<TaskPage>('POST', '/api/v2/dags/~/dagRuns/~/taskInstances/list', body, ctx)).value
          return { items: page.task_instances, total: page.total_entries }
        }))
      }
      return tasks
    },
    /** One try's log as text: every structured line with all its keys, a failure's traceback as Python prints it. */
    async log (dagId: string, runId: string, taskId: string, tryNumber: number, ctx?: CallContext): Promise<string> {
      const path = `${runPath(dagId, runId)}/taskInstances/${enc(taskId)}/logs/${tryNumber}?full_content=true`
      const body = (await call<{ content?: unknown[] }>('GET', path, undefined, ctx)).value
      return logText(body.content ?? [])
    }
  }
}

/**
 * Runs and task instances of every DAG changed at or after `since` (the engine's `updated_at`), paged: the GET
 * lists with `~` take `updated_at_gte`, the batch bodies do not. The runs first, then the task instances, never at
 * once: the engine ends a run's task instances before the run, so a run read as ended has every step ended in the
 * later read — read together, a run could be read success beside its last step still running.
 */
function changedSince (call: EngineCall) {
  return async (since: string, ctx?: CallContext): Promise<{ runs: EngineRun[], tasks: EngineTask[] }> => {
    const query = `updated_at_gte=${enc(since)}&limit=${PAGE_LIMIT}&order_by=id`
    const runs = await allPages(async (offset) => {
      const path = `/api/v2/dags/~/dagRuns?${query}&offset=${offset}`
      const page = (await call<{ dag_runs: EngineRun[], total_entries: number }>('GET', path, undefined, ctx)).value
      return { items: page.dag_runs, total: page.total_entries }
    })
    const tasks = await allPages(async (offset) => {
      const path = `/api/v2/dags/~/dagRuns/~/taskInstances?${query}&offset=${offset}`
      const page = (await call<TaskPage>('GET', path, undefined, ctx)).value
      return { items: page.task_instances, total: page.total_entries }
    })
    return { runs, tasks }
  }
}

export function createEngineClient (options: EngineOptions) {
  const call = createEngineCall(options)
  return {
    ...dagCalls(call),
    ...runCalls(call, options.now ?? Date.now),
    ...taskCalls(call),
    changedSince: changedSince(call)
  }
}

export type EngineClient = ReturnType<typeof createEngineClient>
