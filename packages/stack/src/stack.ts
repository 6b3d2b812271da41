// Starts the five Slipway processes wired to each other, waits until each is healthy, and stops them all.
import { spawn, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { dirname, join, resolve as resolvePath } from 'node:path'
import { stringify as stringifyYaml } from 'yaml'

const REPO_ROOT = resolvePath(import.meta.dirname, '../../..')
// Node keeps the type-stripped, compiled modules here: a start after the first skips the TypeScript stripper
// (about a second of start-up and 20 MB of memory per process)
// young-generation halves capped at 4 MB: about 8 MB less resident memory per idle process than Node's
// default (bench/stack.ts)
const NODE_FLAGS = ['--max-semi-space-size=4']
const COMPILE_CACHE = resolvePath(REPO_ROOT, process.env.NODE_COMPILE_CACHE ?? join('node_modules', '.cache', 'slipway-compile'))

export type ProcessName = 'store' | 'engine' | 'site' | 'bootstrap' | 'orchestrator'

/** The five processes of the stack. */
export const PROCESS_NAMES: ProcessName[] = ['store', 'site', 'engine', 'bootstrap', 'orchestrator']

const PACKAGE_OF: Record<ProcessName, string> = {
  store: 'stub-store',
  engine: 'stub-engine',
  site: 'stub-site',
  bootstrap: 'bootstrap',
  orchestrator: 'orchestrator'
}

export const DEFAULT_PORTS: Record<ProcessName, number> = { orchestrator: 9000, bootstrap: 9001, store: 9100, engine: 9200, site: 9300 }

/** Where each process answers when it is ready. */
const HEALTH_PATH: Record<ProcessName, string> = {
  orchestrator: '/api/v1.0/health',
  bootstrap: '/api/v1.0/health',
  store: '/api/v1.0/health',
  engine: '/api/v2/monitor/health',
  site: '/api/v1.0/health'
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
  /** Called when a process exits while the stack is running. */
  onExit?: (name: ProcessName, code: number | null, signal: NodeJS.Signals | null) => void
  healthTimeoutMs?: number
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
  /** The process id of a running process (benchmarks read its memory). */
  pid: (name: ProcessName) => number | undefined
  close: () => Promise<void>
}

async function freePort (host: string): Promise<number> {
  return await new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, host, () => {
      const address = server.address()
      server.close(() => { resolve(typeof address === 'object' && address !== null ? address.port : 0) })
    })
  })
}

/** A secret kept in the data folder: made once, the same on every later start. */
function keptSecret (file: string, given?: string): string {
  if (given !== undefined && given !== '') return given
  if (existsSync(file)) return readFileSync(file, 'utf8').trim()
  const secret = randomBytes(24).toString('base64url')
  mkdirSync(dirname(file), { recursive: true })
  writeFileSync(file, `${secret}\n`, { mode: 0o600 })
  return secret
}

async function waitHealthy (url: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`exited (${child.exitCode ?? child.signalCode}) before it was healthy`)
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(1000) })
      if (response.status < 300) return
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error(`not healthy within ${timeoutMs} ms (${url})`)
}

/** The environment of each process: ports, data folders, and the URLs and tokens that wire them together. */
export function stackEnvironment (options: {
  host: string
  ports: Record<ProcessName, number>
  dataDir: string
  serviceToken: string
  engineUser: string
  enginePassword: string
  tokensFile: string
}): Record<ProcessName, Record<string, string>> {
  const { host, ports, dataDir, serviceToken } = options
  const base = (name: ProcessName): string => `http://${host}:${ports[name]}`
  const storeUrl = `${base('store')}/api/v1.0`
  const auth = { AUTH_PROVIDER: 'static', AUTH_TOKENS_FILE: options.tokensFile, SERVICE_TOKEN: serviceToken }
  return {
    store: { HOST: host, PORT: String(ports.store), STORE_DATA_DIR: join(dataDir, 'store'), STORE_AUTH_TOKENS: serviceToken },
    site: { HOST: host, PORT: String(ports.site), SITE_DATA_DIR: join(dataDir, 'site'), STORE_URL: storeUrl, SERVICE_TOKEN: serviceToken, SITE_AUTH_TOKENS: serviceToken },
    engine: {
      HOST: host,
      PORT: String(ports.engine),
      ENGINE_DATA_DIR: join(dataDir, 'engine'),
      ENGINE_USERS: `${options.engineUser}:${options.enginePassword}`,
      SITE_URL: base('site'),
      BOOTSTRAP_URL: `${base('bootstrap')}/api/v1.0`,
      STORE_URL: storeUrl,
      SERVICE_TOKEN: serviceToken
    },
    bootstrap: { HOST: host, PORT: String(ports.bootstrap), ...auth, KUBE_API_URL: base('site'), KUBE_TOKEN: serviceToken },
    orchestrator: {
      HOST: host,
      PORT: String(ports.orchestrator),
      ...auth,
      ORCHESTRATOR_DATA_DIR: join(dataDir, 'orchestrator'),
      STORE_URL: storeUrl,
      VALIDATORS: `Promenade=${base('bootstrap')}/api/v1.0/validatedesign`,
      ENGINE_URL: base('engine'),
      ENGINE_USERNAME: options.engineUser,
      ENGINE_PASSWORD: options.enginePassword,
      PROVISIONER_URL: `${base('site')}/api/v1.0`
    }
  }
}

/** Starts the whole stack; rejects (after stopping what it started) when a process is not healthy in time. */
export async function startStack (options: StackOptions): Promise<Stack> {
  const host = options.host ?? '127.0.0.1'
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
  const children = new Map<ProcessName, ChildProcess>()
  const stopping = new Set<ProcessName>()
  let closing = false

  function forward (name: ProcessName, stream: NodeJS.ReadableStream | null): void {
    let rest = ''
    stream?.setEncoding('utf8')
    stream?.on('data', (chunk: string) => {
      const lines = (rest + chunk).split('\n')
      rest = lines.pop() ?? ''
      for (const line of lines) if (line !== '') output(name, line)
    })
  }

  async function startProcess (name: ProcessName): Promise<void> {
    const entry = join(REPO_ROOT, 'packages', PACKAGE_OF[name], 'src', 'server.ts')
    const child = spawn(process.execPath, [...NODE_FLAGS, entry], {
      cwd: REPO_ROOT,
      env: { ...process.env, LOG_LEVEL: process.env.LOG_LEVEL ?? 'info', NODE_COMPILE_CACHE: COMPILE_CACHE, ...env[name], ...options.env?.[name] },
      stdio: ['ignore', 'pipe', 'pipe']
    })
    children.set(name, child)
    forward(name, child.stdout)
    forward(name, child.stderr)
    child.on('exit', (code, signal) => {
      if (children.get(name) === child) children.delete(name)
      if (!closing && !stopping.has(name)) options.onExit?.(name, code, signal)
    })
    await waitHealthy(urls[name] + HEALTH_PATH[name], child, options.healthTimeoutMs ?? 15_000)
      .catch((error: Error) => { throw new Error(`${name}: ${error.message}`) })
  }

  async function stopProcess (name: ProcessName, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    const child = children.get(name)
    if (child === undefined) return
    stopping.add(name)
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
    child.kill(signal)
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000)
    await exited
    clearTimeout(timer)
    stopping.delete(name)
  }

  function signalProcess (name: ProcessName, signal: NodeJS.Signals): void {
    children.get(name)?.kill(signal)
  }

  async function close (): Promise<void> {
    closing = true
    // a stopped process would not act on SIGTERM
    for (const child of children.values()) child.kill('SIGCONT')
    await Promise.all([...children.keys()].reverse().map(async (name) => await stopProcess(name)))
  }

  try {
    // no process needs another at start-up (they find each other per request), so all start at once
    await Promise.all(PROCESS_NAMES.map(startProcess))
  } catch (error) {
    await close()
    throw error
  }
  return { urls, adminToken, serviceToken, stopProcess, startProcess, signalProcess, pid: (name) => children.get(name)?.pid, close }
}
