// Free ports for a process that is to listen a moment later (the stack's services, a real Airflow's or API server's,
// which take a port number and cannot report one they picked), and whether a given port can be listened on.
import { readFileSync } from 'node:fs'
import { createServer } from 'node:net'

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
