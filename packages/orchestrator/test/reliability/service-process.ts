// A Slipway service as its own process (`node <its server.ts>`), for the tests that kill one with SIGKILL: started
// with the given environment on a free port (PORT 0, read back from its log), its output kept, and killed after
// the test if it is still running.
import { spawn } from 'node:child_process'
import { resolve } from 'node:path'
import { onTestFinished } from 'vitest'

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
