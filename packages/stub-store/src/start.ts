// startStore: a running store for other packages' tests and the stack (listens, returns its base URL).
import { buildApp } from './app.ts'
import type { Config } from './config.ts'
import { createDeps } from './deps.ts'

export async function startStore (config: Config): Promise<{ url: string, log: (message: string) => void, close: () => Promise<void> }> {
  const deps = createDeps(config)
  const app = buildApp(deps)
  try {
    await app.listen({ host: config.HOST, port: config.PORT })
  } catch (error) {
    deps.db.close()
    throw error
  }
  const address = app.server.address()
  const port = typeof address === 'object' && address !== null ? address.port : config.PORT
  const host = config.HOST.includes(':') ? `[${config.HOST}]` : config.HOST
  return {
    url: `http://${host}:${port}/api/v1.0`,
    log: (message) => app.log.info(message),
    close: async () => {
      await app.close()
      deps.db.close()
    }
  }
}
