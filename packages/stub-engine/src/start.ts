// startEngine: builds, starts and listens in one call (tests, the stack); returns the root URL and a close().
import type { Config } from './config.ts'
import { buildApp } from './app.ts'
import { createDeps } from './deps.ts'
import type { SideEffects } from './domain/operators.ts'

export interface RunningEngine {
  /** http://HOST:PORT, the root (not /api/v2). */
  url: string
  /** A line through the engine's logger (so LOG_LEVEL applies). */
  log: (message: string) => void
  close: () => Promise<void>
}

export async function startEngine (config: Config, options: { logger?: boolean, effects?: SideEffects } = {}): Promise<RunningEngine> {
  const deps = createDeps(config, options.effects === undefined ? {} : { effects: options.effects })
  const app = buildApp({ ...deps, ...(options.logger === undefined ? {} : { logger: options.logger }) })
  deps.engine.start()
  try {
    await app.listen({ host: config.HOST, port: config.PORT })
  } catch (error) {
    await deps.engine.close()
    throw error
  }
  const address = app.server.address()
  const port = typeof address === 'object' && address !== null ? address.port : config.PORT
  const host = config.HOST.includes(':') ? `[${config.HOST}]` : config.HOST
  return {
    url: `http://${host}:${port}`,
    log: (message) => app.log.info(message),
    async close () {
      await app.close()
      await deps.engine.close()
    }
  }
}
