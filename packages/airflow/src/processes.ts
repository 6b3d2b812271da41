// The processes of one Airflow: each started in a process group of its own, so that stopping it stops exactly what
// it started (its uvicorn workers, its executor's workers and their task processes) and nothing else.
import { spawn, type ChildProcess } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'

export interface GroupProcess {
  child: ChildProcess
  exited: Promise<void>
  /** Its last lines of output, to explain a failed start. */
  tail: () => string[]
}

export function startGroup (command: string, args: string[], env: NodeJS.ProcessEnv, output: (line: string) => void): GroupProcess {
  const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'], detached: true })
  const last: string[] = []
  for (const stream of [child.stdout, child.stderr]) {
    let rest = ''
    stream.setEncoding('utf8')
    stream.on('data', (chunk: string) => {
      const lines = (rest + chunk).split('\n')
      rest = lines.pop() ?? ''
      for (const line of lines) {
        if (line.trim() === '') continue
        output(line)
        last.push(line)
        if (last.length > 40) last.shift()
      }
    })
  }
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve()
    else child.once('exit', () => { resolve() })
  })
  return { child, exited, tail: () => [...last] }
}

function signalGroup (pid: number, signal: NodeJS.Signals): void {
  try { process.kill(-pid, signal) } catch { /* the group is gone */ }
}

/** SIGTERM to the group; SIGKILL to what is left of it after `graceMs`. Resolves once the leader has exited. */
export async function stopGroup (group: GroupProcess, graceMs = 20_000): Promise<void> {
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

/** The processes of a group, by /proc (Linux): pid and resident memory in KiB. */
export function groupMembers (pgid: number): Array<{ pid: number, rssKiB: number, command: string }> {
  const members: Array<{ pid: number, rssKiB: number, command: string }> = []
  let entries: string[] = []
  try { entries = readdirSync('/proc') } catch { return members }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8')
      // fields after the command (which may hold spaces) start at state; pgrp is the third of them
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
