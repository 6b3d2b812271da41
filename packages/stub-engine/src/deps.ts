// createDeps: the one place where the engine, its step library, persistence and auth settings are wired.
import { randomBytes } from 'node:crypto'
import { anyPeerConfigured, createStepLibrary } from '@slipway/steps'
import type { Config } from './config.ts'
import type { AppDeps } from './app.ts'
import { createStateFile } from './db/state-file.ts'
import { createEngine, type Engine } from './domain/engine.ts'
import type { EngineOptions } from './domain/engine-options.ts'
import { parseRules } from './domain/injection.ts'
import type { SideEffects } from './domain/operators.ts'
import { parseUsers } from './domain/users.ts'

export interface Deps extends AppDeps { engine: Engine }

export function createDeps (config: Config, overrides: { effects?: SideEffects, log?: EngineOptions['log'] } = {}): Deps {
  // with no peer configured at all, the site tasks say they skipped their work (the engine alone, as in its tests)
  const effects: SideEffects = overrides.effects ?? { steps: anyPeerConfigured(config) ? createStepLibrary(config) : null }
  const jwtSecret = config.ENGINE_JWT_SECRET === '' ? randomBytes(32).toString('base64url') : config.ENGINE_JWT_SECRET
  const list = (spec: string): Set<string> => new Set(spec.split(',').map((s) => s.trim()).filter((s) => s !== ''))
  const engineOptions: EngineOptions = {
    taskMs: config.ENGINE_TASK_MS,
    retryDelayMs: config.ENGINE_RETRY_DELAY_MS,
    tickMs: config.ENGINE_TICK_MS,
    maxPageLimit: config.ENGINE_MAX_PAGE_LIMIT,
    maxActiveRuns: config.ENGINE_MAX_ACTIVE_RUNS,
    pausedAtCreation: config.ENGINE_DAGS_PAUSED_AT_CREATION,
    rules: {
      fail: parseRules(config.ENGINE_FAIL_TASKS, 'ENGINE_FAIL_TASKS'),
      hang: parseRules(config.ENGINE_HANG_TASKS, 'ENGINE_HANG_TASKS')
    },
    importErrorDags: list(config.ENGINE_IMPORT_ERROR_DAGS),
    effects,
    secret: jwtSecret
  }
  if (config.ENGINE_DATA_DIR !== '') engineOptions.persistence = createStateFile(config.ENGINE_DATA_DIR)
  if (overrides.log !== undefined) engineOptions.log = overrides.log
  return {
    engine: createEngine(engineOptions),
    auth: {
      users: parseUsers(config.ENGINE_USERS),
      jwtSecret,
      jwtTtlS: config.ENGINE_JWT_TTL_S,
      jwtCliTtlS: config.ENGINE_JWT_CLI_TTL_S,
      allAdmins: config.ENGINE_ALL_ADMINS
    },
    logLevel: config.LOG_LEVEL
  }
}
