// Processes as the operating system sees them, for tests that a stack leaves nothing behind: every process whose
// environment carries a marker (Linux /proc), free ports, and `npm start`'s runner started as a process.
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { onTestFinished } from 'vitest'
import { freePort, portRefusal } from '@slipway/common/ports'
import { PORT_VARIABLES, PROCESS_NAMES, type ProcessName } from '../../src/environment.ts'

const CLI = resolve(import.meta.dirname, '../../src/cli.ts')

/** Pids of the processes whose environment holds `entry` (`NAME=value`). */
export function processesWith (entry: string): number[] {
  const pids: number[] = []
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      if (readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').includes(entry)) pids.push(Number(pid))
    } catch {
      // gone, or not ours
    }
  }
  return pids
}

/**
 * Waits until no process carries `entry`; answers those still there after `timeoutMs` (generous: on a busy machine
 * a graceful stop takes seconds, and the wait ends as soon as they are gone).
 */
export async function leftBehind (entry: string, timeoutMs = 30_000): Promise<number[]> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const pids = processesWith(entry)
    if (pids.length === 0 || Date.now() > deadline) return pids
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

/** The ports of `ports` that something still listens on. */
export async function busyPorts (ports: number[]): Promise<number[]> {
  const busy: number[] = []
  for (const port of ports) if (await portRefusal('127.0.0.1', port) !== undefined) busy.push(port)
  return busy
}

export async function freePorts (): Promise<Record<ProcessName, number>> {
  const ports = {} as Record<ProcessName, number>
  for (const name of PROCESS_NAMES) ports[name] = await freePort('127.0.0.1')
  return ports
}

/** A throw-away data folder, removed after the test; its path in an environment marks the stack's processes. */
export function dataFolder (): { dir: string, marker: string } {
  const dir = mkdtempSync(join(tmpdir(), 'slipway-start-'))
  onTestFinished(() => { rmSync(dir, { recursive: true, force: true }) })
  return { dir, marker: `SLIPWAY_DATA_DIR=${dir}` }
}

export interface RunnerProcess {
  child: ChildProcess
  output: () => { stdout: string, stderr: string }
  exited: Promise<number | null>
  /** Resolves once the output matches `pattern`; rejects, with the output, after `timeoutMs` (default 90 s). */
  until: (pattern: RegExp, timeoutMs?: number) => Promise<void>
}

/**
 * `npm start`'s runner (src/cli.ts) on `dataDir` and `ports`, killed after the test if still running; a variable of
 * `env` given as undefined is left out of its environment. `underParent` starts it through a parent process that
 * stands for npm (its output passed through): `child` is then that parent.
 */
export function startRunner (
  dataDir: string,
  ports: Record<ProcessName, number>,
  env: Record<string, string | undefined> = {},
  underParent = false
): RunnerProcess {
  const portEnv = Object.fromEntries(PROCESS_NAMES.map((name) => [PORT_VARIABLES[name], String(ports[name])]))
  const args = underParent
    ? ['-e', 'require("node:child_process").spawn(process.execPath, [process.argv[1]], { stdio: "inherit" })', CLI]
    : [CLI]
  const child = spawn(process.execPath, args, {
    // LOG_LEVEL warn unless the test says (undefined: the stack's default)
    env: Object.fromEntries(Object.entries({ PATH: process.env.PATH ?? '', SLIPWAY_DATA_DIR: dataDir, LOG_LEVEL: 'warn', ...portEnv, ...env })
      .filter((entry): entry is [string, string] => entry[1] !== undefined)),
    stdio: ['ignore', 'pipe', 'pipe']
  })
  onTestFinished(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
    // a failing test may leave the runner's processes behind: only those carrying this test's own data folder
    for (const pid of processesWith(`SLIPWAY_DATA_DIR=${dataDir}`)) {
      try { process.kill(pid, 'SIGKILL') } catch {}
    }
  })
  let stdout = ''
  let stderr = ''
  const waiters: Array<() => void> = []
  const poke = (): void => { waiters.forEach((waiter) => { waiter() }) }
  child.stdout?.on('data', (chunk: Buffer) => { stdout += chunk.toString(); poke() })
  child.stderr?.on('data', (chunk: Buffer) => { stderr += chunk.toString(); poke() })
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => { resolve(code) }))
  // a start on a busy machine may take up to the health limit (60 s) per process
  async function until (pattern: RegExp, timeoutMs = 90_000): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => { reject(new Error(`no ${String(pattern)} in: ${stdout}${stderr}`)) }, timeoutMs)
      const check = (): void => { if (pattern.test(stdout + stderr)) { clearTimeout(timer); resolve() } }
      waiters.push(check)
      check()
      exited.then(() => { check(); reject(new Error(`exited before ${String(pattern)}: ${stdout}${stderr}`)) }, () => {})
    })
  }
  return { child, output: () => ({ stdout, stderr }), exited, until }
}
