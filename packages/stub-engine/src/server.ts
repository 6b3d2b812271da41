// Runs stub-engine alone: reads the environment, starts the scheduler, listens, shuts down on SIGTERM/SIGINT. A bad
// variable or a busy port is one line naming the variable, exit 2 (runService); every other line goes through its
// logger, so LOG_LEVEL applies to them too.
import { onShutdown, runService } from '@slipway/common'
import { loadConfig } from './config.ts'
import { startEngine } from './start.ts'

await runService('stub-engine', async () => {
  const engine = await startEngine(loadConfig())
  engine.log(`stub-engine listening on ${engine.url} (Airflow REST API v2 at ${engine.url}/api/v2)`)
  onShutdown([engine], { log: engine.log })
})
