// One process of the stack: spawned with the child guard in a process group of its own, its output forwarded line by
// line, healthy once its health URL answers, and what it said on stderr kept to explain a failed start.
import { spawn, type ChildProcess } from 'node:child_process'

const GUARD = new URL('./child-guard.ts', import.meta.url).href

export interface ServiceChild {
  child: ChildProcess
  /** Settles when the process has exited: `exit code 2`, `signal SIGKILL`. */
  exited: Promise<string>
  /** Why it stopped, in its own words: its `<package>: …` lines (runService), else its last error line. */
  reason: () => string | undefined
}

export function spawnService (options: {
  /** The package name, which prefixes the service's own start-up problem lines. */
  service: string
  entry: string
  nodeFlags: string[]
  cwd: string
  env: NodeJS.ProcessEnv
  output: (line: string) => void
}): ServiceChild {
  const child = spawn(process.execPath, [...options.nodeFlags, '--import', GUARD, options.entry], {
    cwd: options.cwd,
    env: options.env,
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    detached: true
  })
  const errors: string[] = []
  const forward = (stream: NodeJS.ReadableStream | null, keep: boolean): void => {
    let rest = ''
    stream?.setEncoding('utf8')
    stream?.on('data', (chunk: string) => {
      const lines = (rest + chunk).split('\n')
      rest = lines.pop() ?? ''
      for (const line of lines) {
        if (line === '') continue
        options.output(line)
        if (keep) errors.push(line)
        if (errors.length > 100) errors.shift()
      }
    })
  }
  forward(child.stdout, false)
  forward(child.stderr, true)
  const exited = new Promise<string>((resolve) => {
    child.once('exit', (code, signal) => { resolve(signal === null ? `exit code ${code}` : `signal ${signal}`) })
  })
  const reason = (): string | undefined => {
    const prefix = `${options.service}: `
    const own = errors.filter((line) => line.startsWith(prefix)).map((line) => line.slice(prefix.length))
    if (own.length > 0) return own.join('; ')
    // a crash: the error line of its stack trace, not the trace's frames or Node's version line
    return errors.filter((line) => !/^\s+at |^Node\.js v|^\s*[\^~]+\s*$|^\s*\}?\s*$/.test(line)).at(-1)
  }
  return { child, exited, reason }
}

/** Resolves once `url` answers 2xx; rejects as soon as the process exits, on abort, or after `timeoutMs`. */
export async function waitHealthy (url: string, service: ServiceChild, timeoutMs: number, signal?: AbortSignal): Promise<void> {
  const deadline = Date.now() + timeoutMs
  let exit: string | undefined
  service.exited.then((how) => { exit = how }, () => {})
  while (Date.now() < deadline) {
    if (exit !== undefined) throw new Error(`stopped while starting (${exit})`)
    signal?.throwIfAborted()
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(1000) })
      await response.body?.cancel()
      if (response.status < 300) return
    } catch {
      // not listening yet
    }
    await Promise.race([new Promise((resolve) => setTimeout(resolve, 50)), service.exited])
  }
  throw new Error(`not healthy within ${formatLimit(timeoutMs)} (${url})`)
}

/** A limit as an operator sets it: whole seconds in seconds, anything else in milliseconds. */
function formatLimit (ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`
}
