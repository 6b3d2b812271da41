// Starts a real stub-engine on 127.0.0.1:0 with fast simulated time, and a small JSON client for it.
import { onTestFinished, expect } from 'vitest'
import { loadConfig } from '../config.ts'
import { startEngine } from '../start.ts'
import type { SideEffects } from '../domain/operators.ts'
import type { DAGRunResponse, TaskInstanceResponse } from '@slipway/airflow-contract'

export const TEST_SECRET = 'test-secret-for-stub-engine'

/** waitRun's deadline unless a test gives its own. */
export const WAIT_RUN_MS = 30_000

export interface Reply<T = any> { status: number, body: T, headers: Headers, text: string }

export interface TestEngine {
  url: string
  token: string
  close: () => Promise<void>
  call: <T = any>(method: string, path: string, body?: unknown, headers?: Record<string, string>) => Promise<Reply<T>>
  /**
   * Polls a run until `done(run)` holds (default: finished); fails the test after `timeoutMs` (default 30 s: a run
   * of a few milliseconds alone can take seconds on a machine whose cores are busy with other work).
   */
  waitRun: (dagId: string, runId: string, done?: (run: DAGRunResponse) => boolean, timeoutMs?: number) => Promise<DAGRunResponse>
  tis: (dagId: string, runId: string) => Promise<TaskInstanceResponse[]>
  trigger: (dagId: string, runId: string, conf?: Record<string, unknown>) => Promise<Reply<DAGRunResponse>>
}

export function baseEnv (env: Record<string, string> = {}): Record<string, string> {
  return {
    PORT: '0',
    ENGINE_TASK_MS: '5',
    ENGINE_TICK_MS: '2',
    ENGINE_RETRY_DELAY_MS: '5',
    ENGINE_JWT_SECRET: TEST_SECRET,
    ENGINE_DAGS_PAUSED_AT_CREATION: 'false',
    ...env
  }
}

export async function client (url: string, token: string | undefined) {
  return async <T = any>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Reply<T>> => {
    const h: Record<string, string> = { ...headers }
    if (token !== undefined && h.authorization === undefined) h.authorization = `Bearer ${token}`
    let payload: string | undefined
    if (body !== undefined) {
      payload = typeof body === 'string' ? body : JSON.stringify(body)
      h['content-type'] ??= 'application/json'
    }
    const response = await fetch(url + path, { method, headers: h, body: payload })
    const text = await response.text()
    let parsed: unknown = text
    try { parsed = JSON.parse(text) } catch {}
    return { status: response.status, body: parsed as T, headers: response.headers, text }
  }
}

let lastDate = 0
/** Now, as an ISO date later than any this helper gave before: a DAG's runs need distinct logical dates. */
export function uniqueNow (): string {
  lastDate = Math.max(Date.now(), lastDate + 1)
  return new Date(lastDate).toISOString()
}

export async function startTestEngine (env: Record<string, string> = {}, effects?: SideEffects): Promise<TestEngine> {
  const config = loadConfig(baseEnv(env))
  const running = await startEngine(config, effects === undefined ? { logger: false } : { logger: false, effects })
  let closed = false
  const close = async (): Promise<void> => { if (!closed) { closed = true; await running.close() } }
  onTestFinished(close)
  const login = await fetch(`${running.url}/auth/token`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'admin', password: 'admin' })
  })
  const token = ((await login.json()) as { access_token: string }).access_token
  const call = await client(running.url, token)
  const engine: TestEngine = {
    url: running.url,
    token,
    close,
    call,
    async waitRun (dagId, runId, done = (r) => r.state === 'success' || r.state === 'failed', timeoutMs = WAIT_RUN_MS) {
      const until = Date.now() + timeoutMs
      for (;;) {
        const reply = await call<DAGRunResponse>('GET', `/api/v2/dags/${encodeURIComponent(dagId)}/dagRuns/${encodeURIComponent(runId)}`)
        expect(reply.status).toBe(200)
        if (done(reply.body)) return reply.body
        if (Date.now() > until) {
          throw new Error(`run ${dagId}/${runId} did not reach the expected state within ${timeoutMs} ms; last ${JSON.stringify(reply.body.state)}`)
        }
        await new Promise((resolve) => setTimeout(resolve, 10))
      }
    },
    async tis (dagId, runId) {
      const path = `/api/v2/dags/${encodeURIComponent(dagId)}/dagRuns/${encodeURIComponent(runId)}/taskInstances?limit=100`
      const reply = await call<{ task_instances: TaskInstanceResponse[] }>('GET', path)
      expect(reply.status).toBe(200)
      return reply.body.task_instances
    },
    async trigger (dagId, runId, conf = {}) {
      const body = { dag_run_id: runId, logical_date: uniqueNow(), conf }
      return await call<DAGRunResponse>('POST', `/api/v2/dags/${encodeURIComponent(dagId)}/dagRuns`, body)
    }
  }
  return engine
}

export const stateOf = (tis: TaskInstanceResponse[]): Record<string, string | null> =>
  Object.fromEntries(tis.map((t) => [t.map_index >= 0 ? `${t.task_id}[${t.map_index}]` : t.task_id, t.state]))
