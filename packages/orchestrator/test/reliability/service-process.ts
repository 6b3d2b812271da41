// A Slipway service as its own process (`node <its server.ts>`), for the tests that kill one with SIGKILL: started
// with the given environment on a free port (PORT 0, read back from its log), its output kept, and killed after
// the test if it is still running. `call` calls an orchestrator's API as admin.
import { spawn } from 'node:child_process'
import { resolve } from 'node:path'
import { onTestFinished } from 'vitest'
import { AUTH } from '@slipway/common/testing'

const PACKAGES = resolve(import.meta.dirname, '../../..')
export const SERVERS = {
  orchestrator: resolve(PACKAGES, 'orchestrator/src/server.ts'),
  store: resolve(PACKAGES, 'stub-store/src/server.ts')
}

export interface ServiceProcess {
  /** http://127.0.0.1:<port> */
  origin: string
  pid: number
  /** Resolves once the output holds `pattern`; rejects when the process exits first. */
  until: (pattern: RegExp) => Promise<void>
  output: () => string
  /** SIGKILL, then waits for the process to be gone. */
  kill: () => Promise<void>
}

export async function startService (script: string, env: Record<string, string>): Promise<ServiceProcess> {
  const child = spawn(process.execPath, [script], {
    env: { PATH: process.env.PATH ?? '', PORT: '0', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe']
  })
  const exited = new Promise<void>((resolve) => child.once('exit', () => { resolve() }))
  onTestFinished(async () => {
    if (child.exitCode === null && child.signalCode === null) { child.kill('SIGKILL'); await exited }
  })
  let output = ''
  const waiters = new Set<() => void>()
  const take = (chunk: Buffer): void => { output += chunk.toString(); for (const waiter of waiters) waiter() }
  child.stdout.on('data', take)
  child.stderr.on('data', take)
  const until = async (pattern: RegExp): Promise<void> => {
    await new Promise<void>((resolve, reject) => {
      const check = (): void => { if (pattern.test(output)) { waiters.delete(check); resolve() } }
      waiters.add(check)
      check()
      exited.then(() => { check(); reject(new Error(`${script} exited before ${String(pattern)}:\n${output}`)) }, () => {})
    })
  }
  await until(/Server listening at http:\/\/127\.0\.0\.1:\d+/)
  const port = /Server listening at http:\/\/127\.0\.0\.1:(\d+)/.exec(output)?.[1] ?? ''
  return {
    origin: `http://127.0.0.1:${port}`,
    pid: child.pid ?? 0,
    until,
    output: () => output,
    kill: async () => { child.kill('SIGKILL'); await exited }
  }
}

export interface Answer { status: number, body: any, text: string, startedAt: number, endedAt: number }

/** Calls an orchestrator's API; the times are when the request was sent and when its answer was read. */
export async function call (origin: string, method: string, path: string, body?: string, type = 'application/json'): Promise<Answer> {
  const startedAt = Date.now()
  const res = await fetch(`${origin}/api/v1.0${path}`, {
    method,
    headers: { ...AUTH, ...(body === undefined ? {} : { 'content-type': type }) },
    body
  })
  const text = await res.text()
  let parsed: unknown
  try { parsed = JSON.parse(text) } catch { parsed = text }
  return { status: res.status, body: parsed, text, startedAt, endedAt: Date.now() }
}
