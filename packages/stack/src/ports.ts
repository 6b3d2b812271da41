// Ports of the stack: a free one when 0 is asked for, and, before anything starts, which wanted ports are taken and
// by whom (so that a second `npm start` says what holds them instead of printing a banner answered by the first).
import { readdirSync, readFileSync, readlinkSync } from 'node:fs'
import { createServer } from 'node:net'
import { basename } from 'node:path'

// the ports the system hands out by itself (a listen on port 0, the local end of every outgoing connection) when it
// does not say: Linux's default
const DEFAULT_EPHEMERAL: [number, number] = [32768, 60999]
// below this, ports are left to the services people run on purpose
const LOWEST = 15000
// the ports this process has handed out already: never the same one twice
const handedOut = new Set<number>()

/** The system's own range of ports (Linux: ip_local_port_range). */
function ephemeralRange (): [number, number] {
  try {
    const [low, high] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number)
    if (Number.isInteger(low) && Number.isInteger(high) && low! <= high!) return [low!, high!]
  } catch {}
  return DEFAULT_EPHEMERAL
}

/**
 * A port no one listens on now, for a process that will listen on it a moment later. It is taken outside the range the
 * system hands out by itself: a port from that range (what a listen on 0 gives) may be taken, before its process
 * listens, by the local end of any outgoing connection — on a busy machine that happens; outside it, only by someone
 * who picks the same number. When no such port is free, one from the system.
 */
export async function freePort (host: string): Promise<number> {
  const [low, high] = ephemeralRange()
  const spans = [[LOWEST, low - 1], [high + 1, 65535]].filter(([from, to]) => to! >= from!) as Array<[number, number]>
  const size = spans.reduce((sum, [from, to]) => sum + to - from + 1, 0)
  for (let attempt = 0; attempt < (size > 0 ? 50 : 0); attempt++) {
    let pick = Math.floor(Math.random() * size)
    let port = 0
    for (const [from, to] of spans) {
      if (pick <= to - from) { port = from + pick; break }
      pick -= to - from + 1
    }
    if (handedOut.has(port) || await portRefusal(host, port) !== undefined) continue
    handedOut.add(port)
    return port
  }
  return await systemPort(host)
}

/** A port from the system (a listen on 0). */
async function systemPort (host: string): Promise<number> {
  return await new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, host, () => {
      const address = server.address()
      server.close(() => { resolve(typeof address === 'object' && address !== null ? address.port : 0) })
    })
  })
}

/** Why `port` cannot be listened on at `host` (its error code, e.g. EADDRINUSE), or undefined when it can. */
export async function portRefusal (host: string, port: number): Promise<string | undefined> {
  return await new Promise((resolve) => {
    const server = createServer()
    server.once('error', (error: NodeJS.ErrnoException) => { resolve(error.code ?? error.message) })
    server.listen(port, host, () => { server.close(() => { resolve(undefined) }) })
  })
}

/** Socket inodes of TCP listeners on `port`, from /proc/net/tcp and tcp6 (Linux; empty elsewhere). */
function listenerInodes (port: number): Set<string> {
  const inodes = new Set<string>()
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text = ''
    try { text = readFileSync(table, 'utf8') } catch { continue }
    for (const line of text.split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/)
      // local address is hex ip:port; state 0A is LISTEN; the inode is the tenth field
      const local = fields[1]?.split(':')[1]
      if (local !== undefined && Number.parseInt(local, 16) === port && fields[3] === '0A' && fields[9] !== undefined) inodes.add(fields[9])
    }
  }
  return inodes
}

/** A process's command line in a few words: a Slipway service by its package, anything else without its options. */
function describeCommand (args: string[]): string {
  const service = args.map((arg) => /packages\/([\w-]+)\/src\/server\.ts$/.exec(arg)?.[1]).find((name) => name !== undefined)
  if (service !== undefined) return `, Slipway's ${service} (another npm start?)`
  if (args.length === 0) return ''
  const words = [basename(args[0] ?? ''), ...args.slice(1).filter((arg) => !arg.startsWith('-'))].join(' ')
  return ` (${words.length > 80 ? `${words.slice(0, 77)}...` : words})`
}

/** `pid 123 (node …/server.ts)` of the process listening on `port`, when this user may see it; else undefined. */
export function portHolder (port: number): string | undefined {
  const inodes = listenerInodes(port)
  if (inodes.size === 0) return undefined
  let pids: string[] = []
  try { pids = readdirSync('/proc').filter((entry) => /^\d+$/.test(entry)) } catch { return undefined }
  for (const pid of pids) {
    let fds: string[] = []
    try { fds = readdirSync(`/proc/${pid}/fd`) } catch { continue }
    for (const fd of fds) {
      let target = ''
      try { target = readlinkSync(`/proc/${pid}/fd/${fd}`) } catch { continue }
      const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1]
      if (inode === undefined || !inodes.has(inode)) continue
      let args: string[] = []
      try { args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter((part) => part !== '') } catch {}
      return `pid ${pid}${describeCommand(args)}`
    }
  }
  return undefined
}
