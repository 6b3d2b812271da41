// Runs stub-site alone: `node packages/stub-site/src/server.ts` (HOST, PORT and the SITE_* variables).
import { ConfigError, onShutdown } from '@slipway/common'
import { loadConfig } from './config.ts'
import { startSite } from './start.ts'

try {
  const site = await startSite(loadConfig())
  onShutdown([site])
} catch (error) {
  process.stderr.write(`stub-site: ${error instanceof ConfigError ? error.message : String((error as Error).stack ?? error)}\n`)
  process.exit(1)
}
