// Runs stub-site alone: `node packages/stub-site/src/server.ts` (HOST, PORT and the SITE_* variables). A bad variable
// or a busy port is one line naming the variable, exit 2 (runService); every other line goes through its logger.
import { onShutdown, runService } from '@slipway/common'
import { loadConfig } from './config.ts'
import { startSite } from './start.ts'

await runService('stub-site', async () => {
  const site = await startSite(loadConfig())
  onShutdown([site], { log: (message) => site.app.log.info(message) })
})
