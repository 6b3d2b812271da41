// The workflow engine: Airflow 3 REST API v2 (spec/engine.md). A JWT from /auth/token, cached until shortly
// before its exp and renewed on 401; Airflow's 404/409/422 `detail` bodies mapped to our errors.
import type { Dispatcher } from 'undici'
import { ConflictError, createHttpClient, DownstreamError, NotFoundError, type CallContext } from '@slipway/common'
import type { DAGResponse, DAGRunResponse, TaskInstanceResponse } from '@slipway/stub-engine'

export type EngineRun = DAGRunResponse
export type EngineTask = TaskInstanceResponse

export interface EngineOptions { baseUrl: string, username: string, password: string, timeoutMs: number, dispatcher?: Dispatcher, now?: () => number }

function expiryOf (jwt: string): number | undefined {
  try {
    const payload = JSON.parse(Buffer.from(jwt.split('.')[1] ?? '', 'base64url').toString('utf8')) as { exp?: number }
    return typeof payload.exp === 'number' ? payload.exp * 1000 : undefined
  } catch {
    return undefined
  }
}

function detailOf (text: string): string {
  try {
    const body = JSON.parse(text) as { detail?: unknown }
    if (typeof body.detail === 'string') return body.detail
    if (body.detail !== undefined) return JSON.stringify(body.detail)
  } catch {
    // not JSON: the raw text says it
  }
  return text.slice(0, 500)
}

/** Items per page asked for (Airflow's default maximum_page_limit). */
const PAGE_LIMIT = 100
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

export function createEngineClient (options: EngineOptions) {
  const now = options.now ?? Date.now
  const auth = createHttpClient({ component: 'engine', baseUrl: options.baseUrl, timeoutMs: options.timeoutMs, dispatcher: options.dispatcher })
  let cached: { token: string, renewAt: number } | undefined
  let pending: Promise<string> | undefined

  async function obtain (): Promise<string> {
    const response = options.username === ''
      ? await auth.request('GET', '/auth/token')
      : await auth.request('POST', '/auth/token', { json: { username: options.username, password: options.password } })
    if (response.statusCode !== 200 && response.statusCode !== 201) {
      throw new DownstreamError('engine', `Unable to retrieve JWT token (${response.statusCode}: ${detailOf(response.text)})`, { failure: 'unreachable', upstreamStatus: response.statusCode })
    }
    const token = auth.parseJson<{ access_token?: string }>(response, 'POST /auth/token').access_token
    if (typeof token !== 'string' || token === '') throw new DownstreamError('engine', 'Unable to retrieve JWT token', { failure: 'unreachable' })
    const exp = expiryOf(token)
    cached = { token, renewAt: exp === undefined ? now() + 300_000 : exp - 30_000 }
    return token
  }

  const tokenSource = {
    token: async (): Promise<string> => {
      if (cached !== undefined && cached.renewAt > now()) return cached.token
      pending ??= obtain().finally(() => { pending = undefined })
      return await pending
    },
    invalidate: () => { cached = undefined }
  }
  const http = createHttpClient({
    component: 'engine',
    baseUrl: options.baseUrl,
    timeoutMs: options.timeoutMs,
    dispatcher: options.dispatcher
  })

  async function call<T> (method: Dispatcher.HttpMethod, path: string, body?: unknown, ctx?: CallContext, accept = 'application/json'): Promise<{ status: number, value: T, text: string }> {
    // Airflow reads a Bearer token; the common client sends X-Auth-Token, so put the JWT where Airflow looks
    const token = await tokenSource.token()
    let response = await http.request(method, path, { ctx, json: body, headers: { authorization: `Bearer ${token}`, accept, 'cache-control': 'no-cache' } })
    if (response.statusCode === 401) {
      tokenSource.invalidate()
      response = await http.request(method, path, { ctx, json: body, headers: { authorization: `Bearer ${await tokenSource.token()}`, accept } })
    }
    if (response.statusCode === 404) throw new NotFoundError('Not found in the workflow engine', detailOf(response.text), { errorType: 'AirflowError' })
    if (response.statusCode === 409) throw new ConflictError('Conflict in the workflow engine', detailOf(response.text), { errorType: 'AirflowError' })
    if (response.statusCode >= 400) {
      throw new DownstreamError('engine', `The engine answered ${method} ${path} with ${response.statusCode}: ${detailOf(response.text)}`, { upstreamStatus: response.statusCode })
    }
    const value = (response.text === '' || !accept.includes('json') ? undefined : http.parseJson<T>(response, `${method} ${path}`)) as T
    return { status: response.statusCode, value, text: response.text }
  }

  const enc = encodeURIComponent
  const runPath = (dagId: string, runId: string): string => `/api/v2/dags/${enc(dagId)}/dagRuns/${enc(runId)}`

  return {
    async dag (dagId: string, ctx?: CallContext): Promise<DAGResponse> {
      return (await call<DAGResponse>('GET', `/api/v2/dags/${enc(dagId)}`, undefined, ctx)).value
    },
    async setPaused (dagId: string, paused: boolean, ctx?: CallContext): Promise<void> {
      await call('PATCH', `/api/v2/dags/${enc(dagId)}`, { is_paused: paused }, ctx)
    },
    async trigger (dagId: string, runId: string, conf: Record<string, unknown>, ctx?: CallContext): Promise<EngineRun> {
      return (await call<EngineRun>('POST', `/api/v2/dags/${enc(dagId)}/dagRuns`, { dag_run_id: runId, logical_date: new Date(now()).toISOString(), conf }, ctx)).value
    },
    /** The run, or undefined when the engine has none with that id. */
    async run (dagId: string, runId: string, ctx?: CallContext): Promise<EngineRun | undefined> {
      try {
        return (await call<EngineRun>('GET', runPath(dagId, runId), undefined, ctx)).value
      } catch (error) {
        if (error instanceof NotFoundError) return undefined
        throw error
      }
    },
    async setRunState (dagId: string, runId: string, state: 'failed' | 'success' | 'queued', ctx?: CallContext): Promise<void> {
      await call('PATCH', runPath(dagId, runId), { state }, ctx)
    },
    /** Runs of the given DAGs (or all), paged by total_entries: one call per page. */
    async runs (filter: { dagIds?: string[], logicalDateGte?: string }, ctx?: CallContext): Promise<EngineRun[]> {
      return await allPages(async (offset) => {
        const body: Record<string, unknown> = { page_offset: offset, page_limit: PAGE_LIMIT, order_by: 'id' }
        if (filter.dagIds !== undefined) body.dag_ids = filter.dagIds
        if (filter.logicalDateGte !== undefined) body.logical_date_gte = filter.logicalDateGte
        const page = (await call<{ dag_runs: EngineRun[], total_entries: number }>('POST', '/api/v2/dags/~/dagRuns/list', body, ctx)).value
        return { items: page.dag_runs, total: page.total_entries }
      })
    },
    /** Task instances of one run, paged. */
    async tasks (dagId: string, runId: string, ctx?: CallContext): Promise<EngineTask[]> {
      return await allPages(async (offset) => {
        const page = (await call<{ task_instances: EngineTask[], total_entries: number }>('GET', `${runPath(dagId, runId)}/taskInstances?limit=${PAGE_LIMIT}&offset=${offset}`, undefined, ctx)).value
        return { items: page.task_instances, total: page.total_entries }
      })
    },
    /**
     * Task instances of many runs through the batch list (`~` for DAG and run), paged by total_entries: one call
     * per page of 100 instances, the run ids sent 100 at a time.
     */
    async tasksOfRuns (filter: { dagIds?: string[], runIds: string[] }, ctx?: CallContext): Promise<EngineTask[]> {
      const tasks: EngineTask[] = []
      for (let at = 0; at < filter.runIds.length; at += PAGE_LIMIT) {
        const runIds = filter.runIds.slice(at, at + PAGE_LIMIT)
        tasks.push(...await allPages(async (offset) => {
          const body: Record<string, unknown> = { dag_run_ids: runIds, page_offset: offset, page_limit: PAGE_LIMIT }
          if (filter.dagIds !== undefined) body.dag_ids = filter.dagIds
          const page = (await call<{ task_instances: EngineTask[], total_entries: number }>('POST', '/api/v2/dags/~/dagRuns/~/taskInstances/list', body, ctx)).value
          return { items: page.task_instances, total: page.total_entries }
        }))
      }
      return tasks
    },
    /** One try's log as text lines (`[timestamp] LEVEL - event`). */
    async log (dagId: string, runId: string, taskId: string, tryNumber: number, ctx?: CallContext): Promise<string> {
      const body = (await call<{ content?: unknown[] }>('GET', `${runPath(dagId, runId)}/taskInstances/${enc(taskId)}/logs/${tryNumber}?full_content=true`, undefined, ctx)).value
      return (body.content ?? []).map((entry) => {
        if (typeof entry === 'string') return entry
        const e = entry as { timestamp?: string, level?: string, event?: string, sources?: string[] }
        if (e.event?.startsWith('::group::') === true) return `${e.event.slice(9)}${e.sources === undefined ? '' : `: ${e.sources.join(', ')}`}`
        if (e.event?.startsWith('::endgroup::') === true) return undefined
        return `[${e.timestamp ?? ''}] ${(e.level ?? 'info').toUpperCase()} - ${e.event ?? ''}`
      }).filter((line) => line !== undefined).join('\n') + '\n'
    }
  }
}

export type EngineClient = ReturnType<typeof createEngineClient>
