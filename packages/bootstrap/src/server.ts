// Runs the bootstrap service: config → deps → app → listen; SIGTERM/SIGINT close it gracefully. A bad variable, an
// unusable TLS file or a busy port is one line naming the variable, exit 2 (runService). With TLS_CERT_FILE and
// TLS_KEY_FILE it serves HTTPS only; TLS_CA_FILE's CAs are trusted by every client.
import { authStartupWarnings, onShutdown, readTlsSettings, runService, trustOutboundCas } from '@slipway/common'
import { loadConfig } from './config.ts'
import { createDeps } from './deps.ts'
import { buildApp } from './app.ts'

await runService('bootstrap', async () => {
  const config = loadConfig()
  // before any client is built: a bad TLS file stops the start, and no client connects without the CAs
  const tls = readTlsSettings(config)
  trustOutboundCas(tls.trustedCas)
  const deps = createDeps(config)
  const app = await buildApp({ ...deps, https: tls.server })
  for (const warning of authStartupWarnings(config)) app.log.warn(warning)
  await app.listen({ host: config.HOST, port: config.PORT })
  onShutdown([app, { close: () => deps.authenticator.close?.() }], { log: (message) => app.log.info(message) })
})
