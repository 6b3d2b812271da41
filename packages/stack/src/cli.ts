// `npm start`: the whole stack on 127.0.0.1 with embedded defaults, data under SLIPWAY_DATA_DIR (./data).
import { resolve } from 'node:path'
import { DEFAULT_PORTS, PROCESS_NAMES, startStack, type ProcessName } from './stack.ts'

const PORT_VARIABLES: Record<ProcessName, string> = {
  orchestrator: 'ORCHESTRATOR_PORT',
  bootstrap: 'BOOTSTRAP_PORT',
  store: 'STORE_PORT',
  engine: 'ENGINE_PORT',
  site: 'SITE_PORT'
}

function portsFromEnv (): Record<ProcessName, number> {
  const ports = { ...DEFAULT_PORTS }
  for (const name of PROCESS_NAMES) {
    const value = process.env[PORT_VARIABLES[name]]
    if (value === undefined || value === '') continue
    const port = Number(value)
    if (!Number.isInteger(port) || port < 0 || port > 65535) {
      process.stderr.write(`${PORT_VARIABLES[name]} must be a port number (0-65535), got '${value}'\n`)
      process.exit(2)
    }
    ports[name] = port
  }
  return ports
}

const started = Date.now()
const dataDir = resolve(process.env.SLIPWAY_DATA_DIR ?? 'data')
let stack: Awaited<ReturnType<typeof startStack>> | undefined
let shuttingDown = false

async function shutdown (code: number): Promise<void> {
  if (shuttingDown) return
  shuttingDown = true
  await stack?.close()
  process.exit(code)
}

process.on('SIGINT', () => { shutdown(0).catch(() => process.exit(1)) })
process.on('SIGTERM', () => { shutdown(0).catch(() => process.exit(1)) })

try {
  stack = await startStack({
    dataDir,
    ports: portsFromEnv(),
    adminToken: process.env.SLIPWAY_ADMIN_TOKEN,
    onExit: (name, code, signal) => {
      process.stderr.write(`\nslipway: ${name} exited unexpectedly (${signal ?? `code ${code}`}); stopping the stack\n`)
      shutdown(1).catch(() => process.exit(1))
    }
  })
} catch (error) {
  process.stderr.write(`slipway: the stack did not start: ${(error as Error).message}\n`)
  process.exit(1)
}

const { urls, adminToken } = stack
process.stdout.write([
  '',
  `Slipway is up in ${Date.now() - started} ms (data in ${dataDir})`,
  `  orchestrator  ${urls.orchestrator}/api/v1.0`,
  `  bootstrap     ${urls.bootstrap}/api/v1.0`,
  `  store         ${urls.store}/api/v1.0   (Deckhand stand-in)`,
  `  engine        ${urls.engine}/api/v2     (Airflow 3 stand-in)`,
  `  site          ${urls.site}/api/v1.0   (Drydock + Kubernetes stand-in)`,
  '',
  `  admin token   ${adminToken}`,
  `  try: curl -H 'X-Auth-Token: ${adminToken}' ${urls.orchestrator}/api/v1.0/configdocs`,
  '',
  'Ctrl-C stops everything.',
  ''
].join('\n'))
