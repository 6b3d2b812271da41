// Ports of the stack: before anything starts, which wanted ports are taken and by whom (so that a second `npm start`
// says what holds them instead of printing a banner answered by the first). Free ones come from @slipway/common/ports.
import { readdirSync, readFileSync, readlinkSync } from 'node:fs'
import { basename } from 'node:path'

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
