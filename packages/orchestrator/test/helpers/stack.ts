// Real stand-ins on 127.0.0.1 (port 0) — stub-store, stub-engine, stub-site (the provisioner's nodes) — plus a fake
// validator, wired to an orchestrator app that tests drive with inject. Everything is closed when the test finishes.
import Fastify from 'fastify'
import { onTestFinished } from 'vitest'
import { createPolicy } from '@slipway/common'
import { testAuthenticator } from '@slipway/common/testing'
import { loadConfig as storeConfig, startStore } from '@slipway/stub-store'
import { testStoreEnv } from '@slipway/stub-store/testing'
import { loadConfig as engineConfig, startEngine } from '@slipway/stub-engine'
import { loadConfig as siteConfig, startSite } from '@slipway/stub-site'
import { buildApp, createDeps, loadConfig } from '../../src/index.ts'
import { openSqlite } from '../../src/db/sqlite.ts'
import type { Repositories } from '../../src/db/repositories.ts'
import { createEngineClient } from '../../src/clients/engine.ts'
import type { VersionSeverity } from '../../src/domain/deployment-configuration.ts'
import { POLICY_DEFAULTS } from '../../src/policy.ts'

export { GLOBAL_YAML, SITE_YAML } from './example-site.ts'

/**
 * The timeout of every call the orchestrator makes to a component of the test stack, unless a test sets its own to
 * test what a timeout does. The components are healthy and in this process: a timeout is there to end a hang, and a
 * call that takes 100 ms alone can take seconds on a machine whose cores are busy with other work.
 */
export const CALL_TIMEOUT_MS = 10_000

export type ValidatorMode = 'pass' | 'fail' | 'garbage' | 'down' | 'slow'

/** A validating component answering as told; `calls` records the design references it was sent. */
export async function startValidator (mode: { current: ValidatorMode }) {
  const calls: unknown[] = []
  const app = Fastify()
  app.post('/validatedesign', async (request, reply) => {
    calls.push(request.body)
    if (mode.current === 'slow') await new Promise((resolve) => setTimeout(resolve, 3000))
    if (mode.current === 'garbage') return await reply.code(200).type('application/json').send('{not json')
    if (mode.current === 'down') return await reply.code(503).send({ oops: true })
    const failed = mode.current === 'fail'
    return await reply.code(failed ? 400 : 200).send({
      kind: 'Status',
      status: failed ? 'Failure' : 'Success',
      details: { errorCount: failed ? 1 : 0, messageList: failed ? [{ message: 'Node n9 has no kubelet certificate', error: true, name: null }] : [] }
    })
  })
  await app.listen({ host: '127.0.0.1', port: 0 })
  onTestFinished(async () => { await app.close() })
  const address = app.server.address()
  return { url: `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}/validatedesign`, calls }
}

/** The orchestrator on real stand-ins. `reader` tokens may be granted rules through `policy`. */
export interface TestStackOptions {
  policy?: Record<string, string>
  leaseS?: number
  engineEnv?: Record<string, string>
  /** The document store's environment (its mode: STORE_MODES of stub-store). */
  storeEnv?: Record<string, string>
  /** Timeout of the validator's calls (default CALL_TIMEOUT_MS). */
  validatorTimeoutMs?: number
  /** Timeout of the store, engine and provisioner calls (default CALL_TIMEOUT_MS). */
  timeoutMs?: number
  /** The deployment-version checks (default: Skip both). */
  deploymentVersion?: { create: VersionSeverity, commit: VersionSeverity }
  /** The database (the caller closes it); default: a fresh in-memory SQLite closed with the stack. */
  repos?: Repositories
  /** An engine watch serving the action and workflow reads (started with the stack, stopped after the test). */
  watch?: { intervalMs: number, staleMs: number }
  /** How actions are started: the grace of an unconfirmed start (default 60 s). */
  actionStarts?: { startGraceMs?: number }
  /** More of the orchestrator's configuration (environment variables), over the stack's. */
  orchestratorEnv?: Record<string, string>
  /** Puts something (a fault proxy) between the orchestrator and a component: answers the URL to call instead. */
  wrap?: (component: 'store' | 'engine' | 'provisioner' | 'validator', url: string) => Promise<string>
}

export async function buildTestStack (options: TestStackOptions = {}) {
  const store = await startStore(storeConfig({ PORT: '0', LOG_LEVEL: 'silent', ...(options.storeEnv ?? testStoreEnv()) }))
  const site = await startSite(siteConfig({ PORT: '0', LOG_LEVEL: 'silent', STORE_URL: store.url }))
  // the workflow steps reach the store as Deckhand and the site as Drydock, Armada and Kubernetes; Promenade is left
  // out (the validator here is a fake), so its steps say they skipped that work
  const engine = await startEngine(engineConfig({
    PORT: '0',
    LOG_LEVEL: 'silent',
    ENGINE_TASK_MS: '20',
    DECKHAND_URL: store.url,
    DRYDOCK_URL: `${site.url}/api/v1.0`,
    ARMADA_URL: `${site.url}/armada/api/v1.0`,
    KUBE_API_URL: site.url,
    ...options.engineEnv
  }))
  const validatorMode = { current: 'pass' as ValidatorMode }
  const validator = await startValidator(validatorMode)
  const wrap = options.wrap ?? (async (_component: string, url: string) => url)
  const urls = {
    store: await wrap('store', store.url),
    engine: await wrap('engine', engine.url),
    provisioner: await wrap('provisioner', `${site.url}/api/v1.0`),
    validator: await wrap('validator', validator.url)
  }
  // the engine as the tests call it themselves (each orchestrator has clients of its own)
  const engineClient = createEngineClient({ baseUrl: urls.engine, username: 'admin', password: 'admin', timeoutMs: options.timeoutMs ?? CALL_TIMEOUT_MS })
  const timeout = String(options.timeoutMs ?? CALL_TIMEOUT_MS)
  const config = loadConfig({
    LOG_LEVEL: 'silent',
    METRICS_ENABLED: 'false',
    BODY_LIMIT_BYTES: String(256 * 1024),
    STORE_URL: urls.store,
    STORE_TIMEOUT_MS: timeout,
    VALIDATORS: `Promenade=${urls.validator}`,
    VALIDATOR_TIMEOUT_MS: String(options.validatorTimeoutMs ?? CALL_TIMEOUT_MS),
    ENGINE_URL: urls.engine,
    ENGINE_USERNAME: 'admin',
    ENGINE_PASSWORD: 'admin',
    ENGINE_TIMEOUT_MS: timeout,
    PROVISIONER_URL: urls.provisioner,
    PROVISIONER_TIMEOUT_MS: timeout,
    NOTES_TIMEOUT_MS: String(CALL_TIMEOUT_MS),
    NOTES_MAX_BYTES: '1000',
    SERVICE_TOKEN: 'svc-token',
    COMMIT_LOCK_LEASE_S: String(options.leaseS ?? 60),
    // no engine watch unless asked for: every read calls the engine
    ENGINE_WATCH_INTERVAL_MS: String(options.watch?.intervalMs ?? 0),
    ENGINE_WATCH_STALE_MS: String(options.watch?.staleMs ?? 5000),
    DEPLOYMENT_VERSION_CREATE: options.deploymentVersion?.create ?? 'Skip',
    DEPLOYMENT_VERSION_COMMIT: options.deploymentVersion?.commit ?? 'Skip',
    ...options.orchestratorEnv
  })

  /** An orchestrator on `repos` over these stand-ins; building a second one on the same database is a restart. */
  async function orchestrator (repos: Repositories) {
    // each orchestrator process keeps its own clients and its own engine watch
    const deps = await createDeps(config, {
      repos,
      authenticator: testAuthenticator(),
      policy: createPolicy(POLICY_DEFAULTS, options.policy),
      startGraceMs: options.actionStarts?.startGraceMs ?? 60_000
    })
    const { actions, watch, configdocs } = deps
    watch?.start()
    onTestFinished(() => watch?.stop())
    const app = await buildApp({ ...deps, logger: false })
    return { app, actions, watch, configdocs }
  }

  const repos = options.repos ?? openSqlite(':memory:')
  const { app, actions, watch, configdocs } = await orchestrator(repos)
  onTestFinished(async () => {
    await app.close()
    if (options.repos === undefined) await repos.close()
    await engine.close()
    await closeSite(site)
    await store.close()
  })
  return { app, repos, store, site, engine, validator, validatorMode, actions, configdocs, engineClient, orchestrator, watch }
}

/**
 * Closes the site. A step the engine had begun may still be calling it when the test ends; the engine's client keeps
 * that connection open after the answer, which would hold the close for good: each connection is let go once idle.
 */
async function closeSite (site: Awaited<ReturnType<typeof startSite>>): Promise<void> {
  const idle = setInterval(() => site.app.server.closeIdleConnections(), 50)
  try {
    await site.close()
  } finally {
    clearInterval(idle)
  }
}
