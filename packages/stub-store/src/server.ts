// Runs the store alone: reads the environment, listens, and shuts down cleanly on SIGTERM/SIGINT. A bad variable or
// a busy port is one line naming the variable, exit 2 (runService); every other line goes through its logger.
import { onShutdown, runService } from '@slipway/common'
import { loadConfig } from './config.ts'
import { startStore } from './start.ts'

await runService('stub-store', async () => {
  const store = await startStore(loadConfig())
  onShutdown([store], { log: store.log })
})
