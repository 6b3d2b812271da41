// Runs the bootstrap service: config → deps → app → listen; SIGTERM/SIGINT close it gracefully. A bad variable or a
// busy port is one line naming the variable, exit 2 (runService).
import { authStartupWarnings, onShutdown, runService } from '@slipway/common'
import { loadConfig } from './config.ts'
import { createDeps } from './deps.ts'
import { buildApp } from './app.ts'

await runService('bootstrap', async () => {
  const config = loadConfig()
  const deps = createDeps(config)
  const app = await buildApp(deps)
  for (const warning of authStartupWarnings(config)) app.log.warn(warning)
  await app.listen({ host: config.HOST, port: config.PORT })
  onShutdown([app, { close: () => deps.authenticator.close?.() }], { log: (message) => app.log.info(message) })
})
