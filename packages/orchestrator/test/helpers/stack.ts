// Real stand-ins on 127.0.0.1 (port 0) — stub-store, stub-engine, stub-site — plus a fake validator, wired to an
// orchestrator app that tests drive with inject. Everything is closed when the test finishes.
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import Fastify from 'fastify'
import { onTestFinished } from 'vitest'
import { createPolicy, staticServiceToken } from '@slipway/common'
import { testAuthenticator } from '@slipway/common/testing'
import { loadConfig as storeConfig, startStore } from '@slipway/stub-store'
import { testStoreEnv } from '@slipway/stub-store/testing'
import { loadConfig as engineConfig, startEngine } from '@slipway/stub-engine'
import { loadConfig as siteConfig, startSite } from '@slipway/stub-site'
import { buildApp } from '../../src/app.ts'
import { openSqlite } from '../../src/db/sqlite.ts'
import type { Repositories } from '../../src/db/repositories.ts'
import { createStoreClient } from '../../src/clients/store.ts'
import { createValidatorClient } from '../../src/clients/validators.ts'
import { createEngineClient } from '../../src/clients/engine.ts'
import { createProvisionerClient } from '../../src/clients/provisioner.ts'
import { createApiLock } from '../../src/domain/api-lock.ts'
import { createConfigdocs } from '../../src/domain/configdocs.ts'
import type { VersionSeverity } from '../../src/domain/deployment-configuration.ts'
import { createActions } from '../../src/domain/actions.ts'
import { createNotes } from '../../src/domain/notes.ts'
import { createNoteFetcher } from '../../src/clients/note-source.ts'
import { createWorkflows } from '../../src/domain/workflows.ts'
import { createEngineWatch } from '../../src/domain/engine-watch.ts'
import { createSiteStatuses } from '../../src/domain/site-statuses.ts'
import { POLICY_DEFAULTS } from '../../src/policy.ts'

const SITE = resolve(import.meta.dirname, '../../../../examples/site')
export const GLOBAL_YAML = readFileSync(resolve(SITE, 'global.yaml'), 'utf8')
export const SITE_YAML = readFileSync(resolve(SITE, 'site.yaml'), 'utf8')

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
  /** Largest expanded size of a staged body (default: no limit). */
  maxExpandedBytes?: number
  /** The database (the caller closes it); default: a fresh in-memory SQLite closed with the stack. */
  repos?: Repositories
  /** An engine watch serving the action and workflow reads (started with the stack, stopped after the test). */
  watch?: { intervalMs: number, staleMs: number }
  /** How actions are started: the grace of an unconfirmed start, the retry window (default: the service's). */
  actionStarts?: { startGraceMs?: number, retryWindowMs?: number }
  /** Puts something (a fault proxy) between the orchestrator and a component: answers the URL to call instead. */
  wrap?: (component: 'store' | 'engine' | 'provisioner' | 'validator', url: string) => Promise<string>
}

export async function buildTestStack (options: TestStackOptions = {}) {
  const store = await startStore(storeConfig({ PORT: '0', LOG_LEVEL: 'silent', ...(options.storeEnv ?? testStoreEnv()) }))
  const site = await startSite(siteConfig({ PORT: '0', LOG_LEVEL: 'silent', STORE_URL: store.url }))
  const engine = await startEngine(engineConfig({ PORT: '0', LOG_LEVEL: 'silent', ENGINE_TASK_MS: '20', SITE_URL: site.url, STORE_URL: store.url, BOOTSTRAP_URL: 'none', ...options.engineEnv }))
  const validatorMode = { current: 'pass' as ValidatorMode }
  const validator = await startValidator(validatorMode)
  const wrap = options.wrap ?? (async (_component: string, url: string) => url)
  const urls = {
    store: await wrap('store', store.url),
    engine: await wrap('engine', engine.url),
    provisioner: await wrap('provisioner', `${site.url}/api/v1.0`),
    validator: await wrap('validator', validator.url)
  }
  const engineClient = createEngineClient({ baseUrl: urls.engine, username: 'admin', password: 'admin', timeoutMs: options.timeoutMs ?? CALL_TIMEOUT_MS })

  /** An orchestrator on `repos` over these stand-ins; building a second one on the same database is a restart. */
  async function orchestrator (repos: Repositories) {
    // each orchestrator process keeps its own watch, on its own engine client
    const ownEngine = createEngineClient({ baseUrl: urls.engine, username: 'admin', password: 'admin', timeoutMs: options.timeoutMs ?? CALL_TIMEOUT_MS })
    const watch = options.watch === undefined ? undefined : createEngineWatch({ engine: ownEngine, ...options.watch })
    watch?.start()
    onTestFinished(() => watch?.stop())
    const storeClient = createStoreClient({ baseUrl: urls.store, timeoutMs: options.timeoutMs ?? CALL_TIMEOUT_MS })
    const lock = createApiLock({ repos, leaseS: options.leaseS ?? 60 })
    const configdocs = createConfigdocs({
      store: storeClient,
      validators: createValidatorClient({ targets: [{ name: 'Promenade', url: urls.validator }], timeoutMs: options.validatorTimeoutMs ?? CALL_TIMEOUT_MS }),
      lock,
      journal: repos.stagingJournal,
      deploymentVersion: options.deploymentVersion,
      maxExpandedBytes: options.maxExpandedBytes
    })
    const notes = createNotes({ repos, fetchUrl: createNoteFetcher({ timeoutMs: CALL_TIMEOUT_MS, maxBytes: 1000, serviceAuth: staticServiceToken('svc-token') }) })
    const actions = createActions({
      repos,
      engine: engineClient,
      store: storeClient,
      notes,
      designRef: configdocs.designRef,
      deploymentVersionCommit: options.deploymentVersion?.commit,
      reads: watch?.reads,
      ...options.actionStarts
    })
    const app = await buildApp({
      authenticator: testAuthenticator(),
      policy: createPolicy(POLICY_DEFAULTS, options.policy),
      configdocs,
      actions,
      notes,
      workflows: createWorkflows({ engine: engineClient, reads: watch?.reads }),
      siteStatuses: createSiteStatuses({
        provisioner: createProvisionerClient({ baseUrl: urls.provisioner, timeoutMs: options.timeoutMs ?? CALL_TIMEOUT_MS }),
        legacyKeys: false
      }),
      logger: false,
      bodyLimitBytes: 256 * 1024
    })
    return { app, actions, watch, configdocs }
  }

  const repos = options.repos ?? openSqlite(':memory:')
  const { app, actions, watch, configdocs } = await orchestrator(repos)
  onTestFinished(async () => {
    await app.close()
    if (options.repos === undefined) await repos.close()
    await engine.close()
    await site.close()
    await store.close()
  })
  return { app, repos, store, site, engine, validator, validatorMode, actions, configdocs, engineClient, orchestrator, watch }
}
