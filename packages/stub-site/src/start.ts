// startSite(config): builds and listens, for tests, the stack and server.ts; answers the root URL and a close().
import type { Config } from './config.ts'
import { buildApp, type SiteApp } from './app.ts'
import { createDeps } from './deps.ts'

export interface RunningSite {
  /** `http://HOST:PORT`, the root under which /api/v1.0 and /api/v1 live. */
  url: string
  app: SiteApp
  close: () => Promise<void>
}

export async function startSite (config: Config, options: { logger?: boolean } = {}): Promise<RunningSite> {
  const holder: { app?: SiteApp } = {}
  // the site logs through the app's logger, which exists only once the app is built
  const deps = createDeps(config, {
    logger: options.logger,
    log: {
      warn: (fields, message) => holder.app?.log.warn(fields, message),
      info: (fields, message) => holder.app?.log.info(fields, message)
    }
  })
  const built = buildApp(deps)
  holder.app = built
  await built.listen({ host: config.HOST, port: config.PORT })
  const address = built.server.address()
  const port = typeof address === 'object' && address !== null ? address.port : config.PORT
  const host = config.HOST.includes(':') ? `[${config.HOST}]` : config.HOST
  return { url: `http://${host}:${port}`, app: built, close: async () => { await built.close() } }
}
