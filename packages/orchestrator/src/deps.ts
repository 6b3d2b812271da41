// The orchestrator's one composition root: its database, locks, service token, clients and use cases, built from
// configuration. The server, the tests and the benches all build their app from it; what a caller wants otherwise
// (a fake client, a shared database, a test authenticator) it passes as an override, and the rest is built as usual.
import {
  authenticatorFromConfig, createMetrics, policyFromConfig, serviceTokenFromConfig,
  type Authenticator, type Metrics, type Policy, type ServiceTokenSource
} from '@slipway/common'
import type { Config } from './config.ts'
import { openDatabase } from './db/open.ts'
import type { Repositories } from './db/repositories.ts'
import { createStoreClient, type StoreClient } from './clients/store.ts'
import { createValidatorClient, parseValidators, type ValidatorClient } from './clients/validators.ts'
import { createEngineClient, type EngineClient } from './clients/engine.ts'
import { createProvisionerClient, type ProvisionerClient } from './clients/provisioner.ts'
import { createNoteFetcher, type NoteFetcher } from './clients/note-source.ts'
import { createDatabaseLease, type DatabaseLease } from './domain/database-lease.ts'
import { createStaging, createStagingRecovery } from './domain/configdocs/staging.ts'
import { createStage } from './domain/configdocs/stage.ts'
import { createCommit, designRefOf } from './domain/configdocs/commit.ts'
import { createConfigdocsReads } from './domain/configdocs/reads.ts'
import { createActionCreator, SITE_ACTION_LOCK } from './domain/actions/create.ts'
import { createActionStarter } from './domain/actions/start.ts'
import { createPreRunChecks } from './domain/actions/pre-run-checks.ts'
import { createActionQueries } from './domain/actions/queries.ts'
import { createActionList } from './domain/actions/list.ts'
import { createActionControl } from './domain/actions/control.ts'
import { createSiteActionTags } from './domain/actions/site-action-tags.ts'
import { createActionReconciler } from './domain/actions/reconcile.ts'
import { ACTIONS } from './domain/catalog.ts'
import { directReads, type EngineReads } from './domain/engine/engine-reads.ts'
import { createNotes, type Notes } from './domain/notes.ts'
import { createWorkflows } from './domain/workflows.ts'
import { createSiteStatuses } from './domain/site-statuses.ts'
import { createEngineWatch, type EngineWatch } from './domain/engine/engine-watch.ts'
import { POLICY_DEFAULTS } from './policy.ts'
import { STAGING_RECOVERY_INTERVAL_MS } from './background.ts'

/** What a caller puts in place of what the configuration would build; each one absent is built as usual. */
export interface DepsOverrides {
  /** Where errors no request answers for go: a lock not released or renewed, a failed watch poll, a note not fetched. */
  log?: (error: unknown) => void
  /** The database (its owner closes it); default: the one DATABASE_URL or ORCHESTRATOR_DATA_DIR names. */
  repos?: Repositories
  /** The process's own token on outbound calls, also what a Keystone authenticator validates callers with. */
  serviceToken?: ServiceTokenSource
  authenticator?: Authenticator
  policy?: Policy
  store?: StoreClient
  validators?: ValidatorClient
  engine?: EngineClient
  provisioner?: ProvisionerClient
  /** Where note details are read from (a note's URL). */
  noteSource?: NoteFetcher
  /** How long a start the engine has not confirmed is waited for before it is failed (default: two engine timeouts). */
  startGraceMs?: number
}

export async function createDeps (config: Config, overrides: DepsOverrides = {}) {
  const { log } = overrides
  // the process's one service token: every client and the authenticator (Keystone) share its login
  const serviceAuth = overrides.serviceToken ?? serviceTokenFromConfig(config)
  const metrics = config.METRICS_ENABLED ? createMetrics('orchestrator') : undefined
  const repos = overrides.repos ?? await openDatabase(config)
  const locks = {
    // the configdocs lock: a second staging or commit meanwhile is a 409 at once
    configdocs: createDatabaseLease({ repos, leaseS: config.COMMIT_LOCK_LEASE_S, log, metrics }),
    // the site-action lock, against other orchestrators: waited for up to its lease, then 409
    siteAction: createDatabaseLease({
      repos,
      leaseS: config.ACTION_LOCK_LEASE_S,
      lockType: SITE_ACTION_LOCK,
      waitMs: config.ACTION_LOCK_LEASE_S * 1000,
      log,
      metrics
    })
  }
  const clients = createClients(config, overrides, serviceAuth, metrics)
  const { store, engine, provisioner } = clients
  const configdocs = createConfigdocsUseCases(config, repos, locks.configdocs, clients)
  const notes = createNotes({ repos, fetchUrl: clients.noteSource, log })
  const watch = config.ENGINE_WATCH_INTERVAL_MS === 0 ? undefined : watchWithMetrics(engine, config, metrics, log, repos.runSummaries)
  const actions = createActionUseCases(config, overrides, { repos, engine, store, notes, reads: watch?.reads, startLock: locks.siteAction })
  metrics?.gauge('slipway_action_starts_pending', 'Actions whose start the engine had not confirmed at the last reconciling pass',
    () => actions.reconcileStatus()?.pending)
  metrics?.gauge('slipway_orphan_runs',
    'Runs of the action workflows in the engine without an action in this database, at the last reconciling pass',
    () => actions.reconcileStatus()?.orphans)
  return {
    repos,
    authenticator: overrides.authenticator ?? authenticatorFromConfig(config, { serviceToken: serviceAuth }),
    policy: overrides.policy ?? policyFromConfig(config, POLICY_DEFAULTS),
    configdocs,
    actions,
    notes,
    workflows: createWorkflows({ engine, reads: watch?.reads, repos }),
    watch,
    metrics,
    siteStatuses: createSiteStatuses({ provisioner, legacyKeys: config.SITE_STATUS_LEGACY_KEYS }),
    bodyLimitBytes: config.BODY_LIMIT_BYTES,
    jsonMaxDepth: config.JSON_MAX_DEPTH,
    logLevel: config.LOG_LEVEL,
    consoleSettings: { engineUiUrl: config.ENGINE_UI_URL }
  }
}

/** The configdocs use cases, sharing one staging: stage, commit, the reads, and the recovery of a staging cut short. */
function createConfigdocsUseCases (
  config: Config,
  repos: Repositories,
  lock: DatabaseLease,
  clients: { store: StoreClient, validators: ValidatorClient }
) {
  const { store, validators } = clients
  const journal = repos.stagingJournal
  const staging = createStaging({ store, journal, recoveryIntervalS: STAGING_RECOVERY_INTERVAL_MS / 1000 })
  return {
    stage: createStage({
      store, staging, lock, versionSeverity: config.DEPLOYMENT_VERSION_CREATE, maxExpandedBytes: config.EXPANDED_BODY_LIMIT_BYTES
    }),
    commit: createCommit({ store, validators, lock, staging, versionSeverity: config.DEPLOYMENT_VERSION_COMMIT }),
    reads: createConfigdocsReads({ store }),
    recoverStaging: createStagingRecovery({ journal, lock, staging })
  }
}

/**
 * The action use cases over one starter: create, control, the reads (one action, the list), the site-action tags
 * and the reconciler; each route calls one of them, the background loops the last two.
 */
export function createActionUseCases (
  config: Config,
  overrides: DepsOverrides,
  wired: {
    repos: Repositories
    engine: EngineClient
    store: StoreClient
    notes: Notes
    /** Where runs, steps and pause flags are read (the engine watch); default: the engine itself. */
    reads: EngineReads | undefined
    startLock: DatabaseLease
  }
) {
  const { repos, engine, store, notes, startLock } = wired
  const reads = wired.reads ?? directReads(engine)
  const starter = createActionStarter({
    repos,
    engine,
    reads,
    designRef: designRefOf(store),
    // a trigger still on its way after two engine timeouts will not arrive
    graceMs: overrides.startGraceMs ?? 2 * config.ENGINE_TIMEOUT_MS,
    afterTrigger: config.TEST_HALT_AFTER_TRIGGER ? haltAfterTrigger : undefined
  })
  const checks = createPreRunChecks({ repos, engine, store, starter, deploymentVersionCommit: config.DEPLOYMENT_VERSION_COMMIT })
  const queries = createActionQueries({ repos, engine, reads, notes })
  const reconciler = createActionReconciler({ repos, reads, starter, dagIds: [...new Set(Object.values(ACTIONS).map((a) => a.dagId))] })
  return {
    create: createActionCreator({
      repos, store, notes, starter, checks, queries, startLock, retryWindowMs: config.ACTION_RETRY_WINDOW_S * 1000
    }),
    control: createActionControl({ repos, engine, reads }),
    queries,
    list: createActionList({ repos, reads, notes }),
    settleTags: createSiteActionTags({ repos, reads, store }),
    /** One reconciling pass (at start-up, then periodically): see domain/actions/reconcile.ts. */
    reconcile: reconciler.reconcile,
    reconcileStatus: reconciler.status
  }
}

/** The clients of the components the orchestrator calls, each sending the one service token. */
function createClients (config: Config, overrides: DepsOverrides, serviceAuth: ServiceTokenSource, metrics: Metrics | undefined) {
  return {
    store: overrides.store ?? createStoreClient({
      baseUrl: config.STORE_URL,
      timeoutMs: config.STORE_TIMEOUT_MS,
      maxRevisionListBytes: config.STORE_MAX_REVISION_LIST_BYTES,
      maxRevisions: config.STORE_MAX_REVISIONS,
      serviceAuth,
      metrics
    }),
    validators: overrides.validators ?? createValidatorClient({
      targets: parseValidators(config.VALIDATORS),
      timeoutMs: config.VALIDATOR_TIMEOUT_MS,
      serviceAuth,
      metrics
    }),
    engine: overrides.engine ?? createEngineClient({
      baseUrl: config.ENGINE_URL,
      username: config.ENGINE_USERNAME,
      password: config.ENGINE_PASSWORD,
      timeoutMs: config.ENGINE_TIMEOUT_MS,
      metrics
    }),
    provisioner: overrides.provisioner ?? createProvisionerClient({
      baseUrl: config.PROVISIONER_URL,
      timeoutMs: config.PROVISIONER_TIMEOUT_MS,
      serviceAuth,
      metrics
    }),
    noteSource: overrides.noteSource ??
      createNoteFetcher({ timeoutMs: config.NOTES_TIMEOUT_MS, maxBytes: config.NOTES_MAX_BYTES, serviceAuth })
  }
}

/** The engine watch serving action and workflow reads (the server starts and stops its loop), with its lag and errors counted. */
function watchWithMetrics (
  engine: EngineClient,
  config: Config,
  metrics: Metrics | undefined,
  log: ((error: unknown) => void) | undefined,
  summaries: Repositories['runSummaries']
): EngineWatch {
  const pollErrors = metrics?.counter('slipway_engine_watch_poll_errors_total', 'Polls of the engine watch that failed')
  const watch = createEngineWatch({
    engine,
    intervalMs: config.ENGINE_WATCH_INTERVAL_MS,
    staleMs: config.ENGINE_WATCH_STALE_MS,
    store: summaries,
    log: (error) => { pollErrors?.inc(); log?.(error) }
  })
  metrics?.gauge('slipway_engine_watch_lag_seconds', 'Seconds since the engine watch last polled the engine successfully', () => {
    const lag = watch.status().lagMs
    return lag === undefined ? undefined : lag / 1000
  })
  return watch
}

export type Deps = Awaited<ReturnType<typeof createDeps>>

/** TEST_HALT_AFTER_TRIGGER: the request stops for good where a kill leaves a run whose start is not saved yet. */
async function haltAfterTrigger (actionId: string): Promise<void> {
  process.stderr.write(`orchestrator: TEST_HALT_AFTER_TRIGGER: the engine accepted the trigger of action ${actionId}; halted before its start is saved\n`)
  await new Promise<never>(() => {})
}
