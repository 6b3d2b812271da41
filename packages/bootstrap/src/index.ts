// @slipway/bootstrap: the node bootstrap service (join scripts, design validation, node labels).
import { loadConfig, type Config } from './config.ts'
import { createDeps } from './deps.ts'
import { buildApp } from './app.ts'

export { buildApp } from './app.ts'
export { ConfigSchema, loadConfig, type Config } from './config.ts'
export { createDeps, type Deps, type DepsOverrides } from './deps.ts'

/** Starts the service on its configured host and port (tests: PORT=0); url is the API root. */
export async function startBootstrap (config: Config = loadConfig({ PORT: '0' })): Promise<{ url: string, close: () => Promise<void> }> {
  const deps = createDeps(config)
  const app = await buildApp({ ...deps, logger: false })
  await app.listen({ host: config.HOST, port: config.PORT })
  const address = app.server.address()
  const port = typeof address === 'object' && address !== null ? address.port : config.PORT
  return {
    url: `http://${config.HOST}:${port}/api/v1.0`,
    close: async () => { await app.close(); deps.authenticator.close?.() }
  }
}
