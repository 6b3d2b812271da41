// A command run in a process group of its own (test peers, a real Airflow): stopping it signals exactly that group,
// by its leader's PID, so whatever the command started goes with it and nothing else on the machine is touched.
// Not part of the package index: services never start processes; import it as @slipway/common/process-group.
import { spawn, type ChildProcess } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'

export interface GroupOptions {
  /** Names the process in a failed spawn's line and in waitForLine's reasons. */
  name: string
  /** The whole environment of the command (default: this process's). */
  env?: NodeJS.ProcessEnv
  /** Called with each non-blank line the command prints, on stdout or stderr. */
  output?: (line: string) => void
  /** How many of the last lines tail() keeps (default 40). */
  tailLines?: number
}

export interface GroupProcess {
  name: string
  /** The group's leader; its PID is the group's id. */
  child: ChildProcess
  /** Settles once the leader has exited, or could not be spawned at all. */
  exited: Promise<void>
  /** The last lines printed (a failed spawn adds one), to explain a failed start. */
  tail: () => string[]
  /** Calls `listener` with each line printed from now on, after the output callback. */
  onLine: (listener: (line: string) => void) => void
}

export function startGroup (command: string, args: string[], options: GroupOptions): GroupProcess {
  const { name } = options
  const keep = options.tailLines ?? 40
  const child = spawn(command, args, { env: options.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'], detached: true })
  const last: string[] = []
  const remember = (line: string): void => {
    last.push(line)
    if (last.length > keep) last.shift()
  }
  const listeners: Array<(line: string) => void> = options.output === undefined ? [] : [options.output]
  const heard = (line: string): void => {
    if (line.trim() === '') return
    for (const listener of listeners) listener(line)
    remember(line)
  }
  for (const stream of [child.stdout, child.stderr]) {
    let rest = ''
    stream.setEncoding('utf8')
    stream.on('data', (chunk: string) => {
      const lines = (rest + chunk).split('\n')
      rest = lines.pop() ?? ''
      for (const line of lines) heard(line)
    })
    // a last line without a newline (often the one that says why a start failed) counts once the output ends
    stream.on('end', () => { heard(rest) })
  }
  const exited = new Promise<void>((resolve) => {
    child.once('exit', () => { resolve() })
    // a command that cannot be spawned (missing, not executable) never exits: its error ends the wait instead
    child.on('error', (error) => {
      if (child.pid !== undefined) return
      remember(`${name}: ${error.message}`)
      resolve()
    })
  })
  return { name, child, exited, tail: () => [...last], onLine: (listener) => { listeners.push(listener) } }
}

function signalGroup (pid: number, signal: NodeJS.Signals): void {
  try { process.kill(-pid, signal) } catch { /* the group is gone already */ }
}

/** SIGTERM to the group, SIGKILL to whatever is left of it after `graceMs`; resolves once the leader has exited. */
export async function stopGroup (group: GroupProcess, graceMs = 10_000): Promise<void> {
  const pid = group.child.pid
  if (pid === undefined) return
  signalGroup(pid, 'SIGTERM')
  let timer: NodeJS.Timeout | undefined
  await Promise.race([group.exited, new Promise((resolve) => { timer = setTimeout(resolve, graceMs) })])
  clearTimeout(timer)
  // the leader has gone (or would not): whatever it left in its group goes too
  signalGroup(pid, 'SIGKILL')
  await group.exited
}

/** The first printed line that matches `pattern`, or the reason there is none (the leader exited, the deadline). */
export async function waitForLine (group: GroupProcess, pattern: RegExp, timeoutMs: number): Promise<RegExpExecArray> {
  return await new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(new Error(`${group.name} did not start within ${timeoutMs} ms: ${group.tail().slice(-5).join(' | ')}`))
    }, timeoutMs)
    group.onLine((line) => {
      const match = pattern.exec(line)
      if (match !== null) { clearTimeout(timer); resolve(match) }
    })
    group.exited.then(() => {
      clearTimeout(timer)
      reject(new Error(`${group.name} exited while starting: ${group.tail().slice(-5).join(' | ')}`))
    }, () => {})
  })
}

export interface GroupMember { pid: number, rssKiB: number, command: string }

/** The processes of the group `pgid`, read from /proc (Linux; none elsewhere): PID, resident memory in KiB, command line. */
export function groupMembers (pgid: number): GroupMember[] {
  const members: GroupMember[] = []
  let entries: string[] = []
  try { entries = readdirSync('/proc') } catch { return members }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8')
      // the command name stands in parentheses and may hold spaces: the fields after it start with the state, and
      // the group id is the third of them
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      if (Number(fields[2]) !== pgid) continue
      const status = readFileSync(`/proc/${entry}/status`, 'utf8')
      const rss = /VmRSS:\s+(\d+)/.exec(status)?.[1]
      const command = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').join(' ').trim()
      members.push({ pid: Number(entry), rssKiB: Number(rss ?? 0), command })
    } catch {
      // gone meanwhile
    }
  }
  return members
}
