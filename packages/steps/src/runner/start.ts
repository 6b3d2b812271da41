// startRunner(config): builds the step library and the runner, and listens; for the stack, tests and server.ts.
import { createStepLibrary } from '../library.ts'
import { buildRunnerApp } from './app.ts'
import type { RunnerConfig } from './config.ts'
import { createStepRuns } from './runs.ts'

export interface RunningRunner { url: string, close: () => Promise<void>, app: ReturnType<typeof buildRunnerApp> }

export async function startRunner (config: RunnerConfig, options: { logger?: boolean } = {}): Promise<RunningRunner> {
  const runs = createStepRuns({ library: createStepLibrary(config), keepMs: config.RUNNER_KEEP_S * 1000, maxRuns: config.RUNNER_MAX_RUNS })
  const app = buildRunnerApp({
    runs,
    authTokens: config.RUNNER_AUTH_TOKENS.split(',').map((t) => t.trim()),
    logger: options.logger,
    logLevel: config.LOG_LEVEL
  })
  await app.listen({ host: config.HOST, port: config.PORT })
  const address = app.server.address()
  const port = typeof address === 'object' && address !== null ? address.port : config.PORT
  const host = config.HOST.includes(':') ? `[${config.HOST}]` : config.HOST
  return { url: `http://${host}:${port}`, app, close: async () => { await app.close() } }
}
