// Starts the five Slipway processes wired to each other, waits until each is healthy, and stops them all: a start
// that fails half-way, or is interrupted, stops every process it started before it rejects.
import { randomBytes } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join, resolve as resolvePath } from 'node:path'
import { stringify as stringifyYaml } from 'yaml'
import type { Airflow } from '@slipway/airflow'
import { freePort, portRefusal } from '@slipway/common/ports'
import { startAirflowEngine, startStepRunner, type EngineKind } from './airflow-engine.ts'
import { spawnService, waitHealthy, type ServiceChild } from './child.ts'
import {
  DEFAULT_PORTS, MALLOC_TUNABLES, NODE_FLAGS, PORT_VARIABLES, PROCESS_NAMES, peersEnvironment, stackEnvironment, type ProcessName
} from './environment.ts'
import { portHolder } from './ports.ts'

export { airflowInjectFile } from './airflow-engine.ts'
export { DEFAULT_PORTS, PORT_VARIABLES, PROCESS_NAMES, stackEnvironment, stackVariables, type ProcessName } from './environment.ts'

const REPO_ROOT = resolvePath(import.meta.dirname, '../../..')
// Node keeps the type-stripped, compiled modules here: a start after the first skips the TypeScript stripper
// (about a second of start-up and 20 MB of memory per process)
const COMPILE_CACHE = resolvePath(REPO_ROOT, process.env.NODE_COMPILE_CACHE ?? join('node_modules', '.cache', 'slipway-compile'))

const PACKAGE_OF: Record<ProcessName, string> = {
  store: 'stub-store',
  engine: 'stub-engine',
  site: 'stub-site',
  bootstrap: 'bootstrap',
  orchestrator: 'orchestrator'
}

/** How long a process may take to become healthy unless told otherwise: a busy machine starts slowly. */
export const DEFAULT_HEALTH_TIMEOUT_MS = 60_000

/** Where each process answers when it is ready. */
export const HEALTH_PATH: Record<ProcessName, string> = {
  orchestrator: '/api/v1.0/health',
  bootstrap: '/api/v1.0/health',
  store: '/api/v1.0/health',
  engine: '/api/v2/monitor/health',
  site: '/api/v1.0/health'
}

/** A start that failed; `problems` are one line each, and `exitCode` is 2 when the operator can fix them. */
export class StackStartError extends Error {
  readonly problems: string[]
  readonly exitCode: number
  constructor (problems: string[], exitCode: number) {
    super(problems.join('; '))
    this.name = 'StackStartError'
    this.problems = problems
    this.exitCode = exitCode
  }
}

export interface StackOptions {
  /** All data lives here (SLIPWAY_DATA_DIR). */
  dataDir: string
  host?: string
  /** Port per process; 0 picks a free one. */
  ports?: Partial<Record<ProcessName, number>>
  adminToken?: string | undefined
  /** Extra environment per process (tests: failure injection, short timeouts). */
  env?: Partial<Record<ProcessName, Record<string, string>>>
  /** Where process output goes (default: prefixed lines on stdout). */
  output?: (name: ProcessName, line: string) => void
  /** Called when a process exits while the stack is running (not while it starts or stops). */
  onExit?: (name: ProcessName, code: number | null, signal: NodeJS.Signals | null) => void
  /** How long each process may take to answer its health URL before the start fails (default 60 s). */
  healthTimeoutMs?: number
  /** Called every `slowStartEveryMs` (default 5 s) of a start: the processes not yet healthy, and the time so far. */
  onSlowStart?: (waiting: ProcessName[], waitedMs: number) => void
  slowStartEveryMs?: number
  /** Aborting it while the stack starts stops every process started so far; startStack then rejects. */
  signal?: AbortSignal
  /** false: no look at the ports before starting, each process finds a busy one itself (a start failing half-way). */
  checkPorts?: boolean
  /** The engine: stub-engine (default), or a real Apache Airflow 3 with Slipway's DAGs. */
  engine?: EngineKind
  /** With engine 'airflow': its version (a lock file's) and its metadata database (default SQLite in the data folder). */
  airflowVersion?: string
  airflowDatabaseUrl?: string
}

export interface Stack {
  urls: Record<ProcessName, string>
  adminToken: string
  serviceToken: string
  /** Stops one process (SIGTERM, or SIGKILL) without stopping the stack; `startProcess` brings it back. */
  stopProcess: (name: ProcessName, signal?: NodeJS.Signals) => Promise<void>
  startProcess: (name: ProcessName) => Promise<void>
  /** Sends a signal to one process and returns (SIGSTOP makes it hang, SIGCONT brings it back). */
  signalProcess: (name: ProcessName, signal: NodeJS.Signals) => void
  /** The process id of a running process (benchmarks read its memory); with Airflow, its API server's. */
  pid: (name: ProcessName) => number | undefined
  /** The real Airflow when the stack runs on one: its processes, credentials and restarts. */
  airflow?: Airflow
  close: () => Promise<void>
}

/** A secret that never begins with `-` or `_`, so that it cannot be read as an option on a command line. */
export function newSecret (): string {
  for (;;) {
    const secret = randomBytes(24).toString('base64url')
    if (/^[A-Za-z0-9]/.test(secret)) return secret
  }
}

/** A secret kept in the data folder: made once, the same on every later start. */
function keptSecret (file: string, given?: string): string {
  if (given !== undefined && given !== '') return given
  if (existsSync(file)) return readFileSync(file, 'utf8').trim()
  const secret = newSecret()
  mkdirSync(dirname(file), { recursive: true })
  writeFileSync(file, `${secret}\n`, { mode: 0o600 })
  return secret
}

/** Every wanted port that cannot be listened on, as one line each naming its variable and what holds it. */
async function portProblems (host: string, ports: Partial<Record<ProcessName, number>>): Promise<string[]> {
  const problems: string[] = []
  for (const name of PROCESS_NAMES) {
    const port = ports[name] ?? DEFAULT_PORTS[name]
    if (port === 0) continue
    const refusal = await portRefusal(host, port)
    if (refusal === undefined) continue
    const holder = refusal === 'EADDRINUSE' ? portHolder(port) : undefined
    const inUse = `is in use${holder === undefined ? '' : ` by ${holder}`}`
    const what = refusal === 'EADDRINUSE' ? inUse : `cannot be listened on at ${host} (${refusal})`
    problems.push(`port ${port} (${name}) ${what}: set ${PORT_VARIABLES[name]}, or stop what holds it`)
  }
  return problems
}

/** Starts the whole stack; rejects, after stopping what it started, when a process fails or is not healthy in time. */
export async function startStack (options: StackOptions): Promise<Stack> {
  const host = options.host ?? '127.0.0.1'
  const busy = options.checkPorts === false ? [] : await portProblems(host, options.ports ?? {})
  if (busy.length > 0) throw new StackStartError(busy, 2)
  options.signal?.throwIfAborted()
  const dataDir = resolvePath(options.dataDir)
  mkdirSync(dataDir, { recursive: true })
  const ports = {} as Record<ProcessName, number>
  for (const name of PROCESS_NAMES) {
    const wanted = options.ports?.[name] ?? DEFAULT_PORTS[name]
    ports[name] = wanted === 0 ? await freePort(host) : wanted
  }
  const adminToken = keptSecret(join(dataDir, 'admin-token'), options.adminToken)
  const serviceToken = keptSecret(join(dataDir, 'service-token'))
  const enginePassword = keptSecret(join(dataDir, 'engine-password'))
  const tokensFile = join(dataDir, 'tokens.yaml')
  writeFileSync(tokensFile, stringifyYaml({
    tokens: {
      [adminToken]: { user: 'admin', project: 'service', roles: ['admin'] },
      [serviceToken]: { user: 'slipway', project: 'service', roles: ['admin'] }
    }
  }), { mode: 0o600 })
  const env = stackEnvironment({ host, ports, dataDir, serviceToken, engineUser: 'slipway', enginePassword, tokensFile })
  const urls = Object.fromEntries(PROCESS_NAMES.map((name) => [name, `http://${host}:${ports[name]}`])) as Record<ProcessName, string>
  const output = options.output ?? ((name, line) => { process.stdout.write(`${name.padEnd(12)} | ${line}\n`) })
  const children = new Map<ProcessName, ServiceChild>()
  const stopping = new Set<ProcessName>()
  let running = false
  let closing = false

  const engine = options.engine ?? 'stub'
  // Airflow 3's API server serves its UI too: the console links each action's run there, unless told another address
  if (engine === 'airflow' && process.env.ENGINE_UI_URL === undefined) env.orchestrator.ENGINE_UI_URL = urls.engine
  let airflow: Airflow | undefined
  let runner: Awaited<ReturnType<typeof startStepRunner>> | undefined
  const airflowSecret = engine === 'airflow' ? keptSecret(join(dataDir, 'airflow-jwt-secret')) : ''
  async function startAirflowProcesses (): Promise<void> {
    if (airflow !== undefined) { await airflow.restart(); return }
    try {
      runner ??= await startStepRunner(host, peersEnvironment(urls, serviceToken), serviceToken)
      airflow = await startAirflowEngine({
        runnerUrl: runner.url,
        peers: peersEnvironment(urls, serviceToken),
        dataDir,
        host,
        port: ports.engine,
        username: 'slipway',
        password: enginePassword,
        jwtSecret: airflowSecret,
        serviceToken,
        version: options.airflowVersion,
        databaseUrl: options.airflowDatabaseUrl,
        output: (line) => { output('engine', line) },
        signal: options.signal
      })
    } catch (error) {
      throw new StackStartError([`engine (Airflow) ${(error as Error).message}`], 1)
    }
  }

  async function startProcess (name: ProcessName): Promise<void> {
    if (name === 'engine' && engine === 'airflow') { await startAirflowProcesses(); return }
    const service = spawnService({
      service: PACKAGE_OF[name],
      entry: join(REPO_ROOT, 'packages', PACKAGE_OF[name], 'src', 'server.ts'),
      nodeFlags: NODE_FLAGS,
      cwd: REPO_ROOT,
      env: {
        GLIBC_TUNABLES: MALLOC_TUNABLES,
        ...process.env,
        LOG_LEVEL: process.env.LOG_LEVEL ?? 'info',
        NODE_COMPILE_CACHE: COMPILE_CACHE,
        ...env[name],
        ...options.env?.[name]
      },
      output: (line) => { output(name, line) }
    })
    children.set(name, service)
    service.child.once('exit', (code, signal) => {
      if (children.get(name) === service) children.delete(name)
      if (running && !closing && !stopping.has(name)) options.onExit?.(name, code, signal)
    })
    try {
      await waitHealthy(urls[name] + HEALTH_PATH[name], service, options.healthTimeoutMs ?? DEFAULT_HEALTH_TIMEOUT_MS, options.signal)
    } catch (error) {
      if (options.signal?.aborted === true) throw error
      // its last words may still be in the pipe when it has exited
      await Promise.race([
        new Promise((resolve) => service.child.once('close', resolve)),
        new Promise((resolve) => setTimeout(resolve, 500))
      ])
      const how = (error as Error).message
      const reason = service.reason()
      // the service's own exit code 2 is an operator's problem (runService): a variable, a port, a database
      const code = service.child.exitCode === 2 ? 2 : 1
      // the service names its own PORT; here the port is the stack's variable
      if (code === 2 && reason?.startsWith('PORT: ') === true && reason.includes('in use')) {
        throw new StackStartError([`port ${ports[name]} (${name}) is in use: set ${PORT_VARIABLES[name]}, or stop what holds it`], 2)
      }
      throw new StackStartError([`${name} ${how}${reason === undefined ? '' : `: ${reason}`}`], code)
    }
  }

  async function stopProcess (name: ProcessName, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    if (name === 'engine' && airflow !== undefined) { await airflow.close(); return }
    const service = children.get(name)
    if (service === undefined) return
    stopping.add(name)
    // a stopped process would not act on SIGTERM
    service.child.kill('SIGCONT')
    service.child.kill(signal)
    const timer = setTimeout(() => service.child.kill('SIGKILL'), 10_000)
    await service.exited
    clearTimeout(timer)
    stopping.delete(name)
  }

  function signalProcess (name: ProcessName, signal: NodeJS.Signals): void {
    children.get(name)?.child.kill(signal)
  }
  const pid = (name: ProcessName): number | undefined =>
    name === 'engine' && airflow !== undefined ? airflow.pid('api-server') : children.get(name)?.child.pid

  async function close (): Promise<void> {
    closing = true
    await Promise.all([...children.keys()].reverse().map(async (name) => { await stopProcess(name) }))
    await airflow?.close()
    await runner?.close()
  }

  // a slow start says which processes it still waits for
  const waiting = new Set(PROCESS_NAMES)
  const startedAt = Date.now()
  const slow = setInterval(() => {
    if (waiting.size > 0) options.onSlowStart?.(PROCESS_NAMES.filter((name) => waiting.has(name)), Date.now() - startedAt)
  }, options.slowStartEveryMs ?? 5000)
  try {
    // no process needs another at start-up (they find each other per request), so all start at once
    await Promise.all(PROCESS_NAMES.map(async (name) => {
      await startProcess(name)
      waiting.delete(name)
    }))
  } catch (error) {
    clearInterval(slow)
    await close()
    throw error
  }
  clearInterval(slow)
  running = true
  return { urls, adminToken, serviceToken, stopProcess, startProcess, signalProcess, pid, airflow, close }
}
