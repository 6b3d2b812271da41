// @slipway/orchestrator: the orchestration service (configuration documents, actions, workflows, statuses).
import { loadConfig, type Config } from './config.ts'
import { createDeps, startStagingRecovery, startTagPoller, STAGING_RECOVERY_INTERVAL_MS } from './deps.ts'
import { buildApp } from './app.ts'

export { buildApp } from './app.ts'
export { ConfigSchema, loadConfig, type Config } from './config.ts'
export { createDeps, startStagingRecovery, startTagPoller, type Deps, type DepsOverrides } from './deps.ts'
// what a fake engine needs to answer as Airflow does for Slipway's workflows: each one's steps in order
export { STEP_ORDER } from './domain/catalog.ts'

/** Starts the service on its configured host and port (tests: PORT=0); url is the API root. */
export async function startOrchestrator (
  config: Config = loadConfig({ PORT: '0', ORCHESTRATOR_DATA_DIR: ':memory:' })
): Promise<{ url: string, close: () => Promise<void> }> {
  const deps = await createDeps(config)
  const app = await buildApp({ ...deps, logger: false })
  await app.listen({ host: config.HOST, port: config.PORT })
  const poller = startTagPoller(deps, config.TAG_POLL_INTERVAL_MS, () => {})
  const recovery = startStagingRecovery(deps, STAGING_RECOVERY_INTERVAL_MS, () => {})
  const address = app.server.address()
  const port = typeof address === 'object' && address !== null ? address.port : config.PORT
  return {
    url: `http://${config.HOST}:${port}/api/v1.0`,
    close: async () => { poller.close(); recovery.close(); await app.close(); await deps.repos.close(); deps.authenticator.close?.() }
  }
}
