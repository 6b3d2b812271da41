// The process-group module on real child processes (`node -e`): the lines they print, the tail that explains a
// failed start, and a stop that reaches the whole group by the leader's PID, SIGKILL after the grace included.
import { afterEach, describe, expect, it } from 'vitest'
import { groupMembers, startGroup, stopGroup, waitForLine, type GroupProcess } from '../src/process-group.ts'

const NODE = process.execPath
const started: GroupProcess[] = []

function start (name: string, script: string, output?: (line: string) => void): GroupProcess {
  const group = startGroup(NODE, ['-e', script], { name, output })
  started.push(group)
  return group
}

/** Resolves once the leader's output pipes have closed: every line it printed has been read. */
async function drained (group: GroupProcess): Promise<void> {
  if (group.child.stdout?.closed === true && group.child.stderr?.closed === true) return
  await new Promise((resolve) => { group.child.once('close', resolve) })
}

/** Whether a process with this PID exists (a zombie not yet reaped still counts). */
function alive (pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false
    throw error
  }
}

afterEach(async () => {
  // a failing test leaves nothing running: each group it started that still has members is stopped by its leader's PID
  const left = started.splice(0).filter((group) => groupMembers(group.child.pid ?? -1).length > 0)
  await Promise.all(left.map(async (group) => { await stopGroup(group, 1000) }))
})

describe('process groups', () => {
  it('passes each line to the output and to later listeners, and keeps the last 40 for tail()', async () => {
    const output: string[] = []
    const heard: string[] = []
    // 50 lines with blank ones between, the last without a newline: it ends when the output does
    const group = start('counter', `
      for (let i = 1; i <= 49; i++) console.log('line ' + i + '\\n')
      process.stdout.write('line 50')
    `, (line) => { output.push(line) })
    group.onLine((line) => { heard.push(line) })
    await group.exited
    await drained(group)
    const all = Array.from({ length: 50 }, (_, i) => `line ${i + 1}`)
    expect(output).toEqual(all)
    expect(heard).toEqual(all)
    expect(group.tail()).toEqual(all.slice(-40))
    expect(group.child.exitCode).toBe(0)
  })

  it('keeps as many lines as tailLines says', async () => {
    const group = startGroup(NODE, ['-e', 'for (let i = 1; i <= 5; i++) console.log(i)'], { name: 'five', tailLines: 2 })
    started.push(group)
    await group.exited
    await drained(group)
    expect(group.tail()).toEqual(['4', '5'])
  })

  it('waits for a line that matches, and says why when the leader exits first', async () => {
    const ready = start('ready', 'console.log("booting"); console.log("serving at 127.0.0.1:1234"); setInterval(() => {}, 1000)')
    const match = await waitForLine(ready, /serving at (\S+)$/, 15_000)
    expect(match[1]).toBe('127.0.0.1:1234')

    const failing = start('failing', 'console.error("cannot bind"); setTimeout(() => process.exit(3), 20)')
    await expect(waitForLine(failing, /serving at/, 15_000)).rejects.toThrow(/^failing exited while starting: /)
    await drained(failing)
    expect(failing.tail()).toEqual(['cannot bind'])
    expect(failing.child.exitCode).toBe(3)
  })

  it('records a command that cannot be spawned in the tail, and its exited settles', async () => {
    const group = startGroup('/nonexistent/slipway-test-command', [], { name: 'missing' })
    await group.exited
    expect(group.child.pid).toBeUndefined()
    expect(group.tail()).toEqual(['missing: spawn /nonexistent/slipway-test-command ENOENT'])
    await expect(waitForLine(group, /never/, 15_000)).rejects.toThrow('missing exited while starting: missing: spawn')
    await stopGroup(group, 300)
  })

  it('kills a leader that ignores SIGTERM once the grace has passed', async () => {
    const group = start('stubborn', 'process.on("SIGTERM", () => console.log("ignoring SIGTERM")); console.log("ready"); setInterval(() => {}, 1000)')
    await waitForLine(group, /^ready$/, 15_000)
    const before = performance.now()
    await stopGroup(group, 300)
    const took = performance.now() - before
    await drained(group)
    // whether its handler got to print within the grace is up to the machine's load: only the first line is sure
    expect(group.tail()[0]).toBe('ready')
    expect(group.child.signalCode).toBe('SIGKILL')
    // the grace is waited out, not cut short (a SIGKILL at once would take a few milliseconds; the timer's clock may
    // lag this one by a few)
    expect(took).toBeGreaterThanOrEqual(250)
  })

  it('stops the whole group with it: a grandchild that outlives its leader is killed by the group', async () => {
    // the leader starts a grandchild that ignores SIGTERM, and names its PID once the grandchild is ready
    const grandchild = 'process.on("SIGTERM", () => {}); console.log("ready"); setInterval(() => {}, 1000)'
    const group = start('parent', `
      const { spawn } = require('node:child_process')
      const child = spawn(process.execPath, ['-e', ${JSON.stringify(grandchild)}], { stdio: ['ignore', 'pipe', 'ignore'] })
      child.stdout.once('data', () => console.log('grandchild ' + child.pid))
      setInterval(() => {}, 1000)
    `)
    const pid = Number((await waitForLine(group, /^grandchild (\d+)$/, 15_000))[1])
    const leader = group.child.pid ?? -1
    expect(groupMembers(leader).map((m) => m.pid).sort()).toEqual([leader, pid].sort())
    expect(groupMembers(leader).every((m) => m.rssKiB > 0 && m.command.startsWith(NODE))).toBe(true)
    expect(alive(pid)).toBe(true)

    // the leader dies of SIGTERM at once; the grandchild is left, and goes with the group's SIGKILL
    await stopGroup(group, 10_000)
    expect(group.child.signalCode).toBe('SIGTERM')
    // an orphan killed is reaped by the machine's init, in its own time: poll until its PID is gone
    await expect.poll(() => alive(pid), { timeout: 15_000, interval: 50 }).toBe(false)
  })
})
