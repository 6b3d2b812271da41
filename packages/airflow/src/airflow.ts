// Starts a real Apache Airflow 3 for Slipway: installed from its lock file (bin/install.sh), configured in a home
// folder of its own (settings.ts), its database migrated, then its API server, scheduler and DAG processor started
// on 127.0.0.1. Ready once a token can be fetched and every expected DAG is listed; stops exactly what it started.
import { randomBytes } from 'node:crypto'
import { mkdirSync } from 'node:fs'
import { join, resolve as resolvePath } from 'node:path'
import { freePort } from '@slipway/common/ports'
import { groupMembers, startGroup, stopGroup, type GroupProcess } from '@slipway/common/process-group'
import { runScript } from '@slipway/common/script'
import { WORKFLOW_IDS } from '@slipway/airflow-contract'
import { writeAirflowConfig, type AirflowSettings } from './settings.ts'
import { waitReady } from './ready.ts'

export const PACKAGE_ROOT = resolvePath(import.meta.dirname, '..')
export const DEFAULT_VERSION = '3.1.5'
export const SITE_DAGS = [...WORKFLOW_IDS].sort()
export const AIRFLOW_PROCESSES = ['api-server', 'scheduler', 'dag-processor'] as const
export type AirflowProcess = typeof AIRFLOW_PROCESSES[number]
// each Airflow process runs in a process group of its own, so that stopping it stops exactly what it started (its
// uvicorn workers, its executor's workers and their task processes): SIGTERM, and this long later SIGKILL to what is left
const STOP_GRACE_MS = 20_000

/** This machine cannot run the real Airflow (no CPython 3.11, no package index): the reason, for a visible skip. */
export class AirflowUnavailableError extends Error { override name = 'AirflowUnavailableError' }

export interface AirflowOptions {
  /** apache-airflow version with a lock file in locks/ (default AIRFLOW_VERSION, else 3.1.5). */
  version?: string
  /** Airflow's home folder: airflow.cfg, logs, the SQLite database when no databaseUrl is given. */
  home: string
  /** SQLAlchemy or postgres:// URL of the metadata database; default SQLite in the home folder. */
  databaseUrl?: string
  host?: string
  /** 0 or absent: a free port. */
  port?: number
  username?: string
  password?: string
  jwtSecret?: string
  dagsFolder?: string
  /** Environment of the task processes (where the step runner is: SLIPWAY_STEPS_URL, SLIPWAY_STEPS_TOKEN). */
  taskEnv?: Record<string, string>
  expectDags?: string[]
  output?: (process: AirflowProcess | 'install' | 'migrate', line: string) => void
  /** Bound on the whole start once installed (default 240 s). */
  startTimeoutMs?: number
  parallelism?: number
}

export interface AirflowMemory { process: AirflowProcess, pid: number, processes: number, rssMiB: number }

export interface Airflow {
  url: string
  version: string
  username: string
  password: string
  home: string
  /** Milliseconds from the first process spawned to ready (install and migration not counted). */
  startMs: number
  migrateMs: number
  memory: () => AirflowMemory[]
  pid: (name: AirflowProcess) => number | undefined
  stopProcess: (name: AirflowProcess) => Promise<void>
  startProcess: (name: AirflowProcess) => Promise<void>
  /** Stops every process and starts them again, with a new JWT secret when given; ready as after the first start. */
  restart: (changes?: { jwtSecret?: string }) => Promise<void>
  close: () => Promise<void>
}

/** Installs the version from its lock (seconds when already installed) and answers its virtual environment. */
export async function installAirflow (version: string, output: (line: string) => void = () => {}): Promise<string> {
  const { answer } = await runScript(join(PACKAGE_ROOT, 'bin', 'install.sh'), [version], {
    name: `airflow install ${version}`,
    output,
    unavailable: (reason) => new AirflowUnavailableError(reason ?? 'airflow install: skipped')
  })
  return answer
}

/** Airflow's SQLAlchemy spelling of a PostgreSQL URL (postgres://… → postgresql+psycopg2://…). */
export function sqlAlchemyUrl (url: string): string {
  return url.replace(/^postgres(ql)?:\/\//, 'postgresql+psycopg2://')
}

async function runToEnd (command: string, args: string[], env: NodeJS.ProcessEnv, output: (line: string) => void, timeoutMs: number):
Promise<void> {
  const group = startGroup(command, args, { name: `airflow ${args.join(' ')}`, env, output })
  const timer = setTimeout(() => { stopGroup(group, 1000).catch(() => {}) }, timeoutMs)
  await group.exited
  clearTimeout(timer)
  if (group.child.exitCode !== 0) {
    const how = group.child.exitCode ?? group.child.signalCode
    throw new Error(`${args.join(' ')} failed (${how}): ${group.tail().slice(-5).join(' | ')}`)
  }
}

export async function startAirflow (options: AirflowOptions): Promise<Airflow> {
  const version = options.version ?? process.env.AIRFLOW_VERSION ?? DEFAULT_VERSION
  const output = options.output ?? (() => {})
  const venv = await installAirflow(version, (line) => { output('install', line) })
  const home = resolvePath(options.home)
  mkdirSync(home, { recursive: true })
  const host = options.host ?? '127.0.0.1'
  const settings: AirflowSettings = {
    home,
    dagsFolder: options.dagsFolder ?? join(PACKAGE_ROOT, 'dags'),
    databaseUrl: options.databaseUrl === undefined ? `sqlite:///${join(home, 'airflow.db')}` : sqlAlchemyUrl(options.databaseUrl),
    host,
    port: options.port === undefined || options.port === 0 ? await freePort(host) : options.port,
    username: options.username ?? 'slipway',
    password: options.password ?? randomBytes(18).toString('base64url'),
    jwtSecret: options.jwtSecret ?? randomBytes(32).toString('base64url'),
    parallelism: options.parallelism ?? 4
  }
  const url = `http://${host}:${settings.port}`
  const airflowBin = join(venv, 'bin', 'airflow')
  const environment = (): NodeJS.ProcessEnv => {
    const config = writeAirflowConfig(settings)
    // the configuration file is the whole truth: no AIRFLOW__* of the caller's environment overrides it
    const inherited = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('AIRFLOW__')))
    return { ...inherited, ...options.taskEnv, AIRFLOW_HOME: home, AIRFLOW_CONFIG: config, PYTHONUNBUFFERED: '1' }
  }

  const migrateStarted = Date.now()
  await runToEnd(airflowBin, ['db', 'migrate'], environment(), (line) => { output('migrate', line) }, 300_000)
  const migrateMs = Date.now() - migrateStarted

  const groups = new Map<AirflowProcess, GroupProcess>()
  const args: Record<AirflowProcess, string[]> = {
    'api-server': ['api-server', '--host', host, '--port', String(settings.port), '--workers', '1'],
    scheduler: ['scheduler'],
    'dag-processor': ['dag-processor']
  }
  let env = environment()
  async function startProcess (name: AirflowProcess): Promise<void> {
    if (groups.has(name)) return
    groups.set(name, startGroup(airflowBin, args[name], { name: `airflow ${name}`, env, output: (line) => { output(name, line) } }))
  }
  async function stopProcess (name: AirflowProcess): Promise<void> {
    const group = groups.get(name)
    if (group === undefined) return
    await stopGroup(group, STOP_GRACE_MS)
    groups.delete(name)
  }
  async function close (): Promise<void> {
    await Promise.all([...groups.keys()].map(stopProcess))
  }
  const expect = options.expectDags ?? SITE_DAGS
  async function startAll (): Promise<number> {
    const started = Date.now()
    for (const name of AIRFLOW_PROCESSES) await startProcess(name)
    const exited = Promise.race([...groups.entries()].map(async ([name, group]) => { await group.exited; return { name, group } }))
    const timeoutMs = options.startTimeoutMs ?? 240_000
    await waitReady({ url, username: settings.username, password: settings.password, dags: expect, timeoutMs, exited })
    return Date.now() - started
  }

  let startMs = 0
  try {
    startMs = await startAll()
  } catch (error) {
    await close()
    throw error
  }
  return {
    url,
    version,
    username: settings.username,
    password: settings.password,
    home,
    startMs,
    migrateMs,
    memory: () => [...groups.entries()].map(([name, group]) => {
      const members = groupMembers(group.child.pid ?? -1)
      const rssMiB = members.reduce((sum, m) => sum + m.rssKiB, 0) / 1024
      return { process: name, pid: group.child.pid ?? -1, processes: members.length, rssMiB }
    }),
    pid: (name) => groups.get(name)?.child.pid,
    stopProcess,
    startProcess,
    async restart (changes = {}) {
      await close()
      if (changes.jwtSecret !== undefined) settings.jwtSecret = changes.jwtSecret
      env = environment()
      await startAll()
    },
    close
  }
}
