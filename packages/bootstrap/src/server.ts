// Runs the bootstrap service: config → deps → app → listen; SIGTERM/SIGINT close it gracefully.
import { onShutdown } from '@slipway/common'
import { loadConfig } from './config.ts'
import { createDeps } from './deps.ts'
import { buildApp } from './app.ts'

const config = loadConfig()
const deps = createDeps(config)
const app = await buildApp(deps)
await app.listen({ host: config.HOST, port: config.PORT })
onShutdown([app, { close: () => deps.authenticator.close?.() }], { log: (message) => app.log.info(message) })
