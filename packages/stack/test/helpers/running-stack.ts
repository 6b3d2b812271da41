// The five processes started as `npm start` starts them, on 127.0.0.1 port 0 and a throw-away data folder, for
// one test file: started before its tests, stopped and removed after; every output line kept. Calls go to the
// orchestrator's API with the admin token.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll } from 'vitest'
import { startStack, type ProcessName, type Stack } from '../../src/stack.ts'

export interface CallOptions { body?: string, json?: unknown, type?: string, base?: string }

/** `callTimeoutMs` bounds each call. */
export function runningStack (options: {
  name: string
  adminToken: string
  callTimeoutMs: number
  env: Partial<Record<ProcessName, Record<string, string>>>
}) {
  const logs: string[] = []
  let stack: Stack | undefined
  let dataDir = ''

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), `slipway-${options.name}-`))
    stack = await startStack({
      dataDir,
      adminToken: options.adminToken,
      ports: { orchestrator: 0, bootstrap: 0, store: 0, engine: 0, site: 0 },
      env: options.env,
      output: (name, line) => { logs.push(`${name} | ${line}`) }
    })
  }, 60_000)

  afterAll(async () => {
    await stack?.close()
    rmSync(dataDir, { recursive: true, force: true })
  })

  const running = (): Stack => {
    if (stack === undefined) throw new Error('the stack has not started')
    return stack
  }

  /** A request to the orchestrator's API (or to `base`), as the admin. */
  async function call (method: string, path: string, call: CallOptions = {}) {
    const headers: Record<string, string> = { 'x-auth-token': options.adminToken }
    let body = call.body
    if (call.json !== undefined) { body = JSON.stringify(call.json); headers['content-type'] = 'application/json' }
    if (call.type !== undefined) headers['content-type'] = call.type
    const response = await fetch(`${call.base ?? `${running().urls.orchestrator}/api/v1.0`}${path}`, { method, headers, body, signal: AbortSignal.timeout(options.callTimeoutMs) })
    const text = await response.text()
    return { status: response.status, text, json: () => JSON.parse(text) as Record<string, unknown> & Array<Record<string, unknown>> }
  }

  /** Polls `probe` every 200 ms until it answers something, or fails after `timeoutMs`. */
  async function until<T> (what: string, probe: () => Promise<T | undefined>, timeoutMs = 60_000): Promise<T> {
    const deadline = Date.now() + timeoutMs
    while (Date.now() < deadline) {
      const value = await probe()
      if (value !== undefined) return value
      await new Promise((resolve) => setTimeout(resolve, 200))
    }
    throw new Error(`timed out waiting for ${what}`)
  }

  /**
   * Marks a step held by the engine's hang injection (ENGINE_HANG_TASKS) a success once it runs, so that its run goes
   * on: a test holds a run in progress for as long as it needs, however slow the machine, then lets it finish.
   */
  async function releaseHang (dagId: string, runId: string, taskId: string): Promise<void> {
    const engine = running().urls.engine
    const login = await fetch(`${engine}/auth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'slipway', password: readFileSync(join(dataDir, 'engine-password'), 'utf8').trim() })
    })
    const headers = { authorization: `Bearer ${((await login.json()) as { access_token: string }).access_token}`, 'content-type': 'application/json' }
    const path = `${engine}/api/v2/dags/${dagId}/dagRuns/${runId}/taskInstances/${taskId}`
    await until(`${dagId} ${runId}: ${taskId} running`, async () => {
      const task = await (await fetch(path, { headers })).json() as { state?: string }
      return task.state === 'running' ? true : undefined
    })
    const marked = await fetch(path, { method: 'PATCH', headers, body: JSON.stringify({ new_state: 'success' }) })
    if (marked.status !== 200) throw new Error(`marking ${taskId} a success answered ${marked.status}: ${await marked.text()}`)
  }

  return { logs, call, until, releaseHang, get stack (): Stack { return running() }, get dataDir (): string { return dataDir } }
}
