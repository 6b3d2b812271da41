// Runs the orchestrator: config → deps → app → listen; the tag poller and the engine watch; SIGTERM/SIGINT close
// it gracefully. A bad variable, a busy port, an unusable TLS file or database is one line naming the variable, exit 2
// (runService). With TLS_CERT_FILE and TLS_KEY_FILE it serves HTTPS only; TLS_CA_FILE's CAs are trusted by every client.
import { authStartupWarnings, onShutdown, readTlsSettings, runService, trustOutboundCas } from '@slipway/common'
import { loadConfig } from './config.ts'
import { createDeps } from './deps.ts'
import { buildApp } from './app.ts'
import { reconcileLines } from './domain/actions/reconcile.ts'
import { startReconciling, startStagingRecovery, startTagPoller, STAGING_RECOVERY_INTERVAL_MS } from './background.ts'

await runService('orchestrator', async () => {
  const config = loadConfig()
  // before anything is opened or called: a bad TLS file stops the start, and no client connects without the CAs
  const tls = readTlsSettings(config)
  trustOutboundCas(tls.trustedCas)
  const deps = await createDeps(config)
  const app = await buildApp({ ...deps, https: tls.server })
  for (const warning of authStartupWarnings(config)) app.log.warn(warning)
  await app.listen({ host: config.HOST, port: config.PORT })
  const poller = startTagPoller(deps, config.TAG_POLL_INTERVAL_MS, (error) => app.log.warn({ err: error }, 'site-action tags not settled'))
  const recovery = startStagingRecovery(deps, STAGING_RECOVERY_INTERVAL_MS, (message, details) => app.log.warn(details ?? {}, message))
  deps.watch?.start()
  // no engine run without its action: pending starts settled, runs without an action reported (log and metrics)
  const reconciling = startReconciling(deps.actions.reconcile, config.ACTION_RECONCILE_INTERVAL_MS, (report, atStart) => {
    for (const line of reconcileLines(report, atStart)) app.log[line.level](line.details, line.message)
  })
  onShutdown([
    { close: () => poller.close() },
    { close: () => recovery.close() },
    { close: () => deps.watch?.stop() },
    app,
    { close: () => reconciling.close() },
    deps.repos,
    { close: () => deps.authenticator.close?.() }
  ], { log: (message) => app.log.info(message) })
})
