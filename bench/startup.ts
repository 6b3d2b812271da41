// Start-up benchmark: how long each service takes from spawn to its health URL answering, alone and as the whole
// stack (all five at once, as `npm start` starts them: same Node flags, same wiring), with Node's compile cache cold
// (an empty cache folder every start) and warm (a folder filled by one start before), median of RUNS (default 5);
// and each process's resident memory once the stack has idled IDLE_MS (default 3 s).
// Run: node bench/startup.ts
//   RUNS=5 IDLE_MS=3000          runs per figure, idle time before the RSS is read
//   SLIPWAY_ROOT=/path           the services of another checkout (a commit to compare), this bench's wiring
//   CPU_PROF=/dir                each service started alone once more (warm cache) writes a --cpu-prof profile there
//   HEAP_SNAPSHOT=/dir           every process of one warm stack start writes a heap snapshot there once idle
//   ONLY=stack|alone|none        one half of the figures, or none (with CPU_PROF or HEAP_SNAPSHOT)
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { stringify as stringifyYaml } from 'yaml'
import { freePort } from '@slipway/common/ports'
import { NODE_FLAGS, PROCESS_NAMES, stackEnvironment, type ProcessName } from '@slipway/stack'

const ROOT = resolve(process.env.SLIPWAY_ROOT ?? resolve(import.meta.dirname, '..'))
const RUNS = Number(process.env.RUNS ?? 5)
const IDLE_MS = Number(process.env.IDLE_MS ?? 3000)
const ONLY = process.env.ONLY
const HOST = '127.0.0.1'
const PACKAGE_OF: Record<ProcessName, string> = {
  store: 'stub-store', engine: 'stub-engine', site: 'stub-site', bootstrap: 'bootstrap', orchestrator: 'orchestrator'
}
const HEALTH: Record<ProcessName, string> = {
  orchestrator: '/api/v1.0/health',
  bootstrap: '/api/v1.0/health',
  store: '/api/v1.0/health',
  engine: '/api/v2/monitor/health',
  site: '/api/v1.0/health'
}

interface Healthy { ms: number, cpuS: number, blockedS: number }
interface Running { name: ProcessName, child: ChildProcess, exited: Promise<void>, healthy: Promise<Healthy>, url: string }

/** Resident memory in MiB (VmRSS), and the part of it that is the process's own (RssAnon: heap, code space, buffers). */
function rssMiB (pid: number | undefined): { rss: number, anon: number } {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8')
    const field = (name: string): number => Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(status)?.[1]) / 1024
    return { rss: field('VmRSS'), anon: field('RssAnon') }
  } catch {
    return { rss: Number.NaN, anon: Number.NaN }
  }
}

/** CPU seconds (user + system) a process has used so far: unlike wall time, hardly moved by a busy machine. */
function cpuSeconds (pid: number | undefined): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return (Number(fields[11]) + Number(fields[12])) / 100
  } catch {
    return Number.NaN
  }
}

/**
 * Seconds the main thread has been neither running nor waiting for a core after `wallS` (/proc/<pid>/schedstat: its
 * time on a core, its time runnable in a queue): time it waited on something else (a timer, the disk, another process).
 */
function blockedSeconds (pid: number | undefined, wallS: number): number {
  try {
    const [onCpu, queued] = readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ').map(Number)
    return wallS - ((onCpu ?? 0) + (queued ?? 0)) / 1e9
  } catch {
    return Number.NaN
  }
}

function median (values: number[]): number {
  const sorted = values.filter((v) => !Number.isNaN(v)).sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[middle] ?? Number.NaN : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2
}

const load = (): string => loadavg().map((l) => l.toFixed(1)).join(' ')

/** The wiring `npm start` gives the five processes, on free ports and a fresh data folder. */
async function wiring (dataDir: string): Promise<Record<ProcessName, Record<string, string>>> {
  const ports = {} as Record<ProcessName, number>
  for (const name of PROCESS_NAMES) ports[name] = await freePort(HOST)
  const tokensFile = join(dataDir, 'tokens.yaml')
  writeFileSync(tokensFile, stringifyYaml({
    tokens: {
      'bench-admin': { user: 'admin', project: 'service', roles: ['admin'] },
      'bench-service': { user: 'slipway', project: 'service', roles: ['admin'] }
    }
  }))
  return stackEnvironment({
    host: HOST, ports, dataDir, serviceToken: 'bench-service', engineUser: 'slipway', enginePassword: 'bench-password', tokensFile
  })
}

// a bench stopped half-way (Ctrl-C, a failure) leaves no process behind
const children = new Set<ChildProcess>()
process.on('exit', () => { for (const child of children) child.kill('SIGKILL') })
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => process.exit(130))

interface Diagnostics { profileDir?: string, snapshotDir?: string }

function start (name: ProcessName, env: Record<string, string>, cache: string, diagnostics: Diagnostics): Running {
  const started = performance.now()
  const flags = [...NODE_FLAGS]
  const { profileDir, snapshotDir } = diagnostics
  if (profileDir !== undefined) flags.push('--cpu-prof', `--cpu-prof-dir=${profileDir}`, `--cpu-prof-name=${name}.cpuprofile`)
  if (snapshotDir !== undefined) {
    mkdirSync(join(snapshotDir, name), { recursive: true })
    flags.push('--heapsnapshot-signal=SIGUSR2', `--diagnostic-dir=${join(snapshotDir, name)}`)
  }
  const child = spawn(process.execPath, [...flags, join(ROOT, 'packages', PACKAGE_OF[name], 'src', 'server.ts')], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'warn', NODE_COMPILE_CACHE: cache, ...env },
    stdio: ['ignore', 'ignore', 'pipe']
  })
  children.add(child)
  child.once('exit', () => children.delete(child))
  let stderr = ''
  child.stderr?.on('data', (chunk: Buffer) => { stderr += chunk.toString() })
  let gone = false
  const exited = new Promise<void>((resolve) => child.once('exit', () => { gone = true; resolve() }))
  const url = `http://${HOST}:${env.PORT}${HEALTH[name]}`
  const healthy = (async () => {
    for (;;) {
      if (gone) throw new Error(`${name} exited while starting: ${stderr.slice(-500)}`)
      try {
        const response = await fetch(url, { signal: AbortSignal.timeout(1000) })
        await response.body?.cancel()
        if (response.status < 300) {
          const ms = performance.now() - started
          return { ms, cpuS: cpuSeconds(child.pid), blockedS: blockedSeconds(child.pid, ms / 1000) }
        }
      } catch {
        // not listening yet
      }
      await new Promise((resolve) => setTimeout(resolve, 10))
    }
  })()
  return { name, child, exited, healthy, url }
}

async function stop (processes: Running[]): Promise<void> {
  for (const p of processes) p.child.kill('SIGTERM')
  await Promise.all(processes.map(async (p) => await p.exited))
}

/** A heap snapshot of each idle process (SIGUSR2): Node writes it on the main thread, so a health answer after it means it is written. */
async function snapshots (processes: Running[], dir: string): Promise<void> {
  for (const p of processes) {
    p.child.kill('SIGUSR2')
    const folder = join(dir, p.name)
    while (!readdirSync(folder).some((f) => f.endsWith('.heapsnapshot'))) await new Promise((resolve) => setTimeout(resolve, 50))
    await (await fetch(p.url)).body?.cancel()
  }
}

/** One start of `names` at once: the time until the last is healthy, each one's time and CPU seconds, each one's RSS after idling. */
async function startOnce (names: ProcessName[], cache: string, options: { idle?: boolean } & Diagnostics = {}) {
  const dataDir = mkdtempSync(join(tmpdir(), 'slipway-startup-'))
  const env = await wiring(dataDir)
  const started = performance.now()
  const processes = names.map((name) => start(name, env[name], cache, options))
  try {
    const each = await Promise.all(processes.map(async (p) => await p.healthy))
    const allMs = performance.now() - started
    let rss: Array<{ rss: number, anon: number }> = []
    if (options.idle === true) {
      await new Promise((resolve) => setTimeout(resolve, IDLE_MS))
      rss = processes.map((p) => rssMiB(p.child.pid))
      if (options.snapshotDir !== undefined) await snapshots(processes, options.snapshotDir)
    }
    return { allMs, each, rss }
  } finally {
    await stop(processes)
    rmSync(dataDir, { recursive: true, force: true })
  }
}

const freshCache = (): string => mkdtempSync(join(tmpdir(), 'slipway-cc-'))
const caches: string[] = []
function cacheFor (kind: 'cold' | 'warm', warm: string): string {
  if (kind === 'warm') return warm
  const cache = freshCache()
  caches.push(cache)
  return cache
}

const list = (values: number[], digits = 0): string => values.map((v) => v.toFixed(digits)).join(', ')

try {
  const warm = freshCache()
  caches.push(warm)
  console.log(`services of ${ROOT}; node ${process.version}; ${RUNS} runs a figure; load average at the start ${load()}`)
  console.log('(CPU: seconds of CPU a process used until healthy; blocked: seconds its main thread waited on anything but a core —\n' +
    ' timers, disk, other processes; a busy machine moves both far less than the wall time)')
  await startOnce([...PROCESS_NAMES], warm) // fills the warm cache
  if (ONLY === undefined || ONLY === 'alone') {
    for (const name of PROCESS_NAMES) {
      const figures: string[] = []
      for (const kind of ['cold', 'warm'] as const) {
        const ms: number[] = []
        const cpu: number[] = []
        const blocked: number[] = []
        for (let r = 0; r < RUNS; r++) {
          const run = await startOnce([name], cacheFor(kind, warm))
          ms.push(run.allMs)
          cpu.push(run.each[0]?.cpuS ?? Number.NaN)
          blocked.push(run.each[0]?.blockedS ?? Number.NaN)
        }
        figures.push(`${kind} ${median(ms).toFixed(0)} ms, CPU ${median(cpu).toFixed(2)} s, blocked ${median(blocked).toFixed(2)} s [${list(ms)}]`)
      }
      console.log(`${name.padEnd(12)} alone: ${figures.join('; ')}  (load ${load()})`)
    }
  }
  if (ONLY === undefined || ONLY === 'stack') {
    for (const kind of ['cold', 'warm'] as const) {
      const all: number[] = []
      const cpu: number[][] = PROCESS_NAMES.map(() => [])
      const blocked: number[][] = PROCESS_NAMES.map(() => [])
      const rss: number[][] = PROCESS_NAMES.map(() => [])
      const anon: number[][] = PROCESS_NAMES.map(() => [])
      for (let r = 0; r < RUNS; r++) {
        const run = await startOnce([...PROCESS_NAMES], cacheFor(kind, warm), { idle: kind === 'warm' })
        all.push(run.allMs)
        run.each.forEach((one, i) => { cpu[i]?.push(one.cpuS); blocked[i]?.push(one.blockedS) })
        run.rss.forEach((mib, i) => { rss[i]?.push(mib.rss); anon[i]?.push(mib.anon) })
      }
      const cpuTotal = median(all.map((_, r) => cpu.reduce((sum, series) => sum + (series[r] ?? 0), 0)))
      console.log(`stack ${kind}: all healthy ${median(all).toFixed(0)} ms [${list(all)}]; CPU ${cpuTotal.toFixed(2)} s in all: ` +
        `${PROCESS_NAMES.map((name, i) => `${name} ${median(cpu[i] ?? []).toFixed(2)}`).join(', ')} s; blocked: ` +
        `${PROCESS_NAMES.map((name, i) => `${name} ${median(blocked[i] ?? []).toFixed(2)}`).join(', ')} s  (load ${load()})`)
      if (kind === 'warm') {
        const idleRss = PROCESS_NAMES.map((name, i) =>
          `${name} ${median(rss[i] ?? []).toFixed(1)} (${median(anon[i] ?? []).toFixed(1)})`).join(', ')
        console.log(`idle RSS after ${IDLE_MS} ms (median, of which anonymous): ${idleRss} MiB`)
      }
    }
  }
  const snapshotDir = process.env.HEAP_SNAPSHOT
  if (snapshotDir !== undefined) {
    await startOnce([...PROCESS_NAMES], warm, { idle: true, snapshotDir: resolve(snapshotDir) })
    console.log(`heap snapshots of each process of one warm stack start, idle ${IDLE_MS} ms, in ${resolve(snapshotDir)}/<process>`)
  }
  const profileDir = process.env.CPU_PROF
  if (profileDir !== undefined) {
    for (const name of PROCESS_NAMES) await startOnce([name], warm, { profileDir: resolve(profileDir) })
    console.log(`CPU profiles of each service started alone (warm cache, stopped once healthy) in ${resolve(profileDir)}`)
  }
} finally {
  for (const cache of caches) rmSync(cache, { recursive: true, force: true })
}
