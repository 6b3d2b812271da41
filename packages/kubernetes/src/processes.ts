// etcd and kube-apiserver each run in a process group of their own: stopping one signals exactly that group, by the
// leader's PID, and nothing else on the machine.
import { spawn, type ChildProcess } from 'node:child_process'

export interface Started {
  name: string
  child: ChildProcess
  exited: Promise<void>
  /** The last lines it printed, to explain a failed start. */
  tail: () => string[]
  /** Calls `listener` with each line printed from now on. */
  onLine: (listener: (line: string) => void) => void
}

export function startProcess (
  name: string, command: string, args: string[], output: (line: string) => void, env?: NodeJS.ProcessEnv
): Started {
  const child = spawn(command, args, { env: env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'], detached: true })
  const last: string[] = []
  const listeners: Array<(line: string) => void> = [output]
  for (const stream of [child.stdout, child.stderr]) {
    let rest = ''
    stream.setEncoding('utf8')
    stream.on('data', (chunk: string) => {
      const lines = (rest + chunk).split('\n')
      rest = lines.pop() ?? ''
      for (const line of lines) {
        if (line.trim() === '') continue
        for (const listener of listeners) listener(line)
        last.push(line)
        if (last.length > 40) last.shift()
      }
    })
  }
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve()
    else child.once('exit', () => { resolve() })
  })
  child.once('error', (error) => { last.push(`${name}: ${error.message}`) })
  return { name, child, exited, tail: () => [...last], onLine: (listener) => { listeners.push(listener) } }
}

function signalGroup (pid: number, signal: NodeJS.Signals): void {
  try { process.kill(-pid, signal) } catch { /* the group is gone already */ }
}

/** SIGTERM to the group, SIGKILL to whatever is left of it after `graceMs`; resolves once the leader has exited. */
export async function stopProcess (started: Started, graceMs = 10_000): Promise<void> {
  const pid = started.child.pid
  if (pid === undefined) return
  signalGroup(pid, 'SIGTERM')
  let timer: NodeJS.Timeout | undefined
  await Promise.race([started.exited, new Promise((resolve) => { timer = setTimeout(resolve, graceMs) })])
  clearTimeout(timer)
  signalGroup(pid, 'SIGKILL')
  await started.exited
}

/** The first printed line that matches `pattern`, or the reason there is none (exit, deadline). */
export async function waitForLine (started: Started, pattern: RegExp, timeoutMs: number): Promise<RegExpExecArray> {
  return await new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(new Error(`${started.name} did not start within ${timeoutMs} ms: ${started.tail().slice(-5).join(' | ')}`))
    }, timeoutMs)
    started.onLine((line) => {
      const match = pattern.exec(line)
      if (match !== null) { clearTimeout(timer); resolve(match) }
    })
    started.exited.then(() => {
      clearTimeout(timer)
      reject(new Error(`${started.name} exited while starting: ${started.tail().slice(-5).join(' | ')}`))
    }, () => {})
  })
}
