// The orchestrator's real app, built by createDeps as the server builds it, over in-memory fakes of every component it
// calls (helpers/fakes.ts) and an in-memory database; closed when the test ends. For the route rules that need no
// real component: policy, input checks, error bodies. Tests of what the components do stay on helpers/stack.ts.
import { onTestFinished } from 'vitest'
import { createPolicy } from '@slipway/common'
import { testAuthenticator } from '@slipway/common/testing'
import { buildApp, createDeps, loadConfig, type DepsOverrides } from '../../src/index.ts'
import { openSqlite } from '../../src/db/sqlite.ts'
import { POLICY_DEFAULTS } from '../../src/policy.ts'
import { fakeEngine, fakeNoteSource, fakeProvisioner, fakeStore, fakeValidators } from './fakes.ts'

export interface TestAppOptions extends Omit<DepsOverrides, 'policy'> {
  /** Policy rules over the defaults (`reader` tokens may be granted rules). */
  policy?: Record<string, string>
  /** More of the orchestrator's configuration (environment variables). */
  env?: Record<string, string>
}

export async function buildTestApp (options: TestAppOptions = {}) {
  const { policy, env, ...overrides } = options
  const fakes = {
    store: fakeStore(),
    engine: fakeEngine(),
    validators: fakeValidators(),
    provisioner: fakeProvisioner(),
    notes: fakeNoteSource()
  }
  const repos = overrides.repos ?? openSqlite(':memory:')
  const config = loadConfig({
    LOG_LEVEL: 'silent',
    METRICS_ENABLED: 'false',
    ENGINE_WATCH_INTERVAL_MS: '0',
    BODY_LIMIT_BYTES: String(256 * 1024),
    ...env
  })
  const deps = await createDeps(config, {
    authenticator: testAuthenticator(),
    policy: createPolicy(POLICY_DEFAULTS, policy),
    store: fakes.store.client,
    engine: fakes.engine.client,
    validators: fakes.validators.client,
    provisioner: fakes.provisioner.client,
    noteSource: fakes.notes.fetch,
    ...overrides,
    repos
  })
  const app = await buildApp({ ...deps, logger: false })
  onTestFinished(async () => {
    await app.close()
    if (overrides.repos === undefined) await repos.close()
  })
  return { app, deps, repos, ...fakes }
}

export type TestApp = Awaited<ReturnType<typeof buildTestApp>>
