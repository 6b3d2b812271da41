// Runs stub-engine alone: reads the environment, starts the scheduler, listens, shuts down on SIGTERM/SIGINT.
import { ConfigError, onShutdown } from '@slipway/common'
import { loadConfig } from './config.ts'
import { startEngine } from './start.ts'

try {
  const config = loadConfig()
  const engine = await startEngine(config)
  process.stdout.write(`stub-engine listening on ${engine.url} (Airflow REST API v2 at ${engine.url}/api/v2)\n`)
  onShutdown([engine])
} catch (error) {
  process.stderr.write(`${error instanceof ConfigError ? error.message : String((error as Error).stack ?? error)}\n`)
  process.exit(1)
}
