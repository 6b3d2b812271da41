// A step held by the engine's hang injection (ENGINE_HANG_TASKS, or conf.stub.hang) keeps its run in progress for as
// long as a test needs, however slow the machine; `releaseHang` lets the run go on when the test is done with it.
import { expect } from 'vitest'

async function engineCall (engineUrl: string, method: string, path: string, body?: unknown): Promise<{ status: number, json: any }> {
  const login = await fetch(`${engineUrl}/auth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: 'admin' })
  })
  const { access_token: token } = await login.json() as { access_token: string }
  const response = await fetch(`${engineUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body)
  })
  const text = await response.text()
  return { status: response.status, json: text === '' ? undefined : JSON.parse(text) }
}

/**
 * Waits until the held step `taskId` of run `runId` is running (bounded by `timeoutMs`), then marks it a success:
 * the engine ends the hanging try and the run goes on to its next steps.
 */
export async function releaseHang (engineUrl: string, dagId: string, runId: string, taskId: string, timeoutMs = 30_000): Promise<void> {
  const path = `/api/v2/dags/${encodeURIComponent(dagId)}/dagRuns/${encodeURIComponent(runId)}/taskInstances/${encodeURIComponent(taskId)}`
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const task = await engineCall(engineUrl, 'GET', path)
    if (task.status === 200 && task.json.state === 'running') break
    if (Date.now() > deadline) throw new Error(`${dagId}/${runId}: ${taskId} was not running within ${timeoutMs} ms (last ${String(task.json?.state)})`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  const marked = await engineCall(engineUrl, 'PATCH', path, { new_state: 'success' })
  expect(marked.status, `marking ${taskId} a success`).toBe(200)
}
