// stub-store's environment variables, read once through one schema: where it listens, where its SQLite file lives,
// which tokens it accepts, how large a body may be and whether it reproduces Deckhand's quirks.
import { LogLevelSchema, readConfig } from '@slipway/common'
import { Type, type Static } from 'typebox'

export const ConfigSchema = Type.Object({
  HOST: Type.String({ default: '127.0.0.1', description: 'Address to listen on' }),
  PORT: Type.Integer({ default: 9100, minimum: 0, maximum: 65535, description: 'Port to listen on (0: any free port)' }),
  STORE_DATA_DIR: Type.String({
    default: ':memory:',
    description: 'Directory holding store.sqlite and secrets.key; `:memory:` keeps everything in memory (lost on exit)'
  }),
  STORE_AUTH_TOKENS: Type.String({
    default: '',
    description: 'Comma-separated accepted X-Auth-Token values, each optionally `token:role+role` (default role admin); empty: no authentication required'
  }),
  STORE_POLICY_FILE: Type.String({
    default: '',
    description: 'YAML file overriding Deckhand policy rules (deckhand:* → oslo.policy rule); empty: every rule is role:admin'
  }),
  STORE_BODY_LIMIT_BYTES: Type.Integer({
    default: 32 * 1024 * 1024,
    minimum: 1,
    description: 'Largest accepted request body in bytes (413 above)'
  }),
  STORE_SECRETS_KEY: Type.String({
    default: '',
    description: 'Key material for encrypting secrets at rest; empty: a random key kept in STORE_DATA_DIR/secrets.key (per process for :memory:)'
  }),
  STORE_RENDER_CACHE_SIZE: Type.Integer({
    default: 8,
    minimum: 0,
    description: 'Rendered revisions kept in memory (keyed by revision, secrets mode and access); 0 disables the cache'
  }),
  STORE_DECKHAND_QUIRKS: Type.Boolean({
    default: false,
    description: 'true: reproduce the real Deckhand where it departs from its documentation (rollback, ownership and LayeringPolicy checks, layering delete and `.data` paths, `?tag=`; packages/stub-store/README.md); false: the documented rules'
  }),
  LOG_LEVEL: LogLevelSchema()
})

export type Config = Static<typeof ConfigSchema>

/**
 * The two ways the store can run, for suites that must hold on both: the documented rules, and the real Deckhand's
 * quirks. Each `env` is added to the caller's own variables for `loadConfig`.
 */
export const STORE_MODES = [
  { name: 'documented', env: {} },
  { name: 'deckhand-quirks', env: { STORE_DECKHAND_QUIRKS: 'true' } }
] as const satisfies ReadonlyArray<{ name: string, env: Record<string, string> }>

export const loadConfig = (env: Record<string, string | undefined> = process.env): Config => readConfig(ConfigSchema, env)
