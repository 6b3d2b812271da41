// `npm start`: the whole stack on 127.0.0.1 with embedded defaults, data under SLIPWAY_DATA_DIR (./data). Every
// failure to start is one line per problem and stops whatever had started; Ctrl-C stops everything, at any moment.
import { resolve } from 'node:path'
import { banner } from './banner.ts'
import { leftoverState, watchDataFolder } from './data-folder.ts'
import { DEFAULT_PORTS, PORT_VARIABLES, PROCESS_NAMES, stackVariables, type ProcessName } from './environment.ts'
import { DEFAULT_HEALTH_TIMEOUT_MS, StackStartError, startStack, type Stack } from './stack.ts'

function say (line: string): void {
  process.stderr.write(`slipway: ${line}\n`)
}

function portsFromEnv (): { ports: Record<ProcessName, number>, problems: string[] } {
  const ports = { ...DEFAULT_PORTS }
  const problems: string[] = []
  for (const name of PROCESS_NAMES) {
    const value = process.env[PORT_VARIABLES[name]]
    if (value === undefined || value === '') continue
    const port = /^\d+$/.test(value) ? Number(value) : Number.NaN
    if (!Number.isInteger(port) || port > 65535) {
      problems.push(`${PORT_VARIABLES[name]}: must be a port number (0-65535) (got ${JSON.stringify(value)})`)
    } else {
      ports[name] = port
    }
  }
  return { ports, problems }
}

/** SLIPWAY_HEALTH_TIMEOUT_S: how long each process may take to become healthy, in whole seconds (default 60). */
function healthTimeoutFromEnv (): { seconds: number, problem?: string } {
  const value = process.env.SLIPWAY_HEALTH_TIMEOUT_S ?? ''
  if (value === '') return { seconds: DEFAULT_HEALTH_TIMEOUT_MS / 1000 }
  const seconds = /^\d+$/.test(value) ? Number(value) : Number.NaN
  if (Number.isSafeInteger(seconds) && seconds >= 1) return { seconds }
  return { seconds: 0, problem: `SLIPWAY_HEALTH_TIMEOUT_S: must be a whole number of seconds, at least 1 (got ${JSON.stringify(value)})` }
}

/** SLIPWAY_ENGINE: stub (default) or airflow. */
function engineFromEnv (): 'stub' | 'airflow' {
  const value = process.env.SLIPWAY_ENGINE ?? ''
  if (value === '' || value === 'stub') return 'stub'
  if (value === 'airflow') return 'airflow'
  say(`SLIPWAY_ENGINE: must be stub or airflow (got ${JSON.stringify(value)})`)
  process.exit(2)
}

const started = Date.now()
const engine = engineFromEnv()
const dataDir = resolve(process.env.SLIPWAY_DATA_DIR ?? 'data')
const { ports, problems } = portsFromEnv()
const health = healthTimeoutFromEnv()
if (health.problem !== undefined) problems.push(health.problem)
if (problems.length > 0) {
  problems.forEach(say)
  process.exit(2)
}
// the stack wires its processes with these itself: the caller's values would otherwise be silently dropped
const ignored = stackVariables().filter((name) => (process.env[name] ?? '') !== '')
if (ignored.length > 0) {
  say(`npm start sets ${ignored.join(', ')} itself for its processes and does not use the values in this environment ` +
    `(ports: ${Object.values(PORT_VARIABLES).join(', ')}; data: SLIPWAY_DATA_DIR)`)
}
const leftovers = leftoverState(dataDir)
if (leftovers.length > 0) {
  say(`${dataDir} has no admin-token but holds ${leftovers.join(', ')} state from an earlier stack: those processes will remember ` +
    `what the others do not; to start afresh, stop the stack and delete ${dataDir}`)
}

const controller = new AbortController()
let stack: Stack | undefined
let stopping = false

function stop (code: number): void {
  if (stopping) return
  stopping = true
  // while starting, startStack stops what it started and rejects: the catch below exits
  if (stack === undefined) { controller.abort(); return }
  // the last line of a stack that ran: every process has stopped (the terminal is the operator's again)
  stack.close().then(() => { say('stopped'); process.exit(code) }, (error: unknown) => {
    say(`stopped, but not cleanly: ${(error as Error).message}`)
    process.exit(1)
  })
}

for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => { stop(0) })
// under `npm start` npm forwards SIGINT and SIGTERM to this runner, its child; npm killed outright (kill -9) forwards
// nothing, so a parent that goes away stops the stack as well
if (process.env.npm_lifecycle_event === 'start') {
  const parent = process.ppid
  setInterval(() => { if (process.ppid !== parent) stop(0) }, 500).unref()
}

try {
  stack = await startStack({
    dataDir,
    ports,
    adminToken: process.env.SLIPWAY_ADMIN_TOKEN,
    engine,
    airflowVersion: process.env.AIRFLOW_VERSION,
    airflowDatabaseUrl: process.env.AIRFLOW_DATABASE_URL,
    signal: controller.signal,
    healthTimeoutMs: health.seconds * 1000,
    onSlowStart: (waiting, waitedMs) => {
      say(`still waiting for ${waiting.join(', ')} to answer ${waiting.length === 1 ? 'its' : 'their'} health URL ` +
        `(${Math.round(waitedMs / 1000)} s so far; each may take ${health.seconds} s: SLIPWAY_HEALTH_TIMEOUT_S)`)
    },
    onExit: (name, code, signal) => {
      say(`${name} exited unexpectedly (${signal ?? `exit code ${code}`}); stopping the stack`)
      stop(1)
    }
  })
} catch (error) {
  if (controller.signal.aborted) {
    say('start interrupted; every process it had started is stopped')
    process.exit(130)
  }
  if (error instanceof StackStartError) {
    error.problems.forEach(say)
    process.exit(error.exitCode)
  }
  say(`the stack did not start: ${(error as Error).message}`)
  process.exit(1)
}

process.stdout.write(banner({ stack, dataDir, startedMs: Date.now() - started, databaseUrl: process.env.DATABASE_URL }))
watchDataFolder(dataDir, () => {
  say(`${dataDir} was deleted while the stack runs: the processes keep their open files and the engine and site write ` +
    'their state again when they stop; for a clean reset stop the stack (Ctrl-C), then delete the folder again')
})
