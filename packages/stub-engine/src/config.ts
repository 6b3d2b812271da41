// stub-engine's environment variables, read once through one schema: listener, auth, simulated time, and the peers
// its site steps work with (the step library's variables).
import { Type, type Static } from 'typebox'
import { LogLevelSchema, readConfig } from '@slipway/common'
import { PeersConfigSchema } from '@slipway/steps'

export const ConfigSchema = Type.Object({
  HOST: Type.String({ default: '127.0.0.1', description: 'Address to listen on' }),
  PORT: Type.Integer({ default: 9200, minimum: 0, maximum: 65535, description: 'Port to listen on (0: any free port)' }),
  LOG_LEVEL: LogLevelSchema(),
  ENGINE_USERS: Type.String({
    default: 'admin:admin',
    description: 'Users of POST /auth/token: comma-separated `user:password[:role]`, role ADMIN (default), OP, USER or VIEWER (read-only)'
  }),
  ENGINE_ALL_ADMINS: Type.Boolean({
    default: false,
    description: 'Answer the credential-less GET /auth/token (Airflow `simple_auth_manager_all_admins`); false: 403'
  }),
  ENGINE_JWT_SECRET: Type.String({ default: '', description: 'HS256 secret signing access tokens (empty: a random one per start)' }),
  ENGINE_JWT_TTL_S: Type.Integer({ default: 86_400, minimum: 1, description: 'Lifetime of an access token in seconds (`exp`)' }),
  ENGINE_JWT_CLI_TTL_S: Type.Integer({
    default: 172_800,
    minimum: 1,
    description: 'Lifetime of a token from POST /auth/token/cli in seconds'
  }),
  ENGINE_DAGS_PAUSED_AT_CREATION: Type.Boolean({
    default: true,
    description: 'Site DAGs start paused, as Airflow\'s `dags_are_paused_at_creation`'
  }),
  ENGINE_TASK_MS: Type.Integer({ default: 50, minimum: 0, description: 'Simulated duration of every task in milliseconds' }),
  ENGINE_RETRY_DELAY_MS: Type.Integer({
    default: 100,
    minimum: 0,
    description: 'Simulated `retry_delay` between tries in milliseconds (Airflow\'s site DAGs: 30 s)'
  }),
  ENGINE_TICK_MS: Type.Integer({
    default: 10,
    minimum: 1,
    description: 'Scheduler loop interval in milliseconds (one state step per tick)'
  }),
  ENGINE_MAX_PAGE_LIMIT: Type.Integer({
    default: 100,
    minimum: 1,
    description: 'Airflow `[api] maximum_page_limit`: larger `limit` values are clamped silently'
  }),
  ENGINE_MAX_ACTIVE_RUNS: Type.Integer({
    default: 16,
    minimum: 1,
    description: 'Each DAG\'s `max_active_runs`; further runs wait in `queued`'
  }),
  ENGINE_FAIL_TASKS: Type.String({
    default: '',
    description: 'Failure injection for every run: comma-separated `[dag_id/]task_id[=N]`, N = fail the first N tries then succeed (no N: always fail)'
  }),
  ENGINE_HANG_TASKS: Type.String({
    default: '',
    description: 'Comma-separated `[dag_id/]task_id`: the task runs until stopped or cleared'
  }),
  ENGINE_IMPORT_ERROR_DAGS: Type.String({
    default: '',
    description: 'Comma-separated DAG ids reported with `has_import_errors` (trigger → 400)'
  }),
  ENGINE_DATA_DIR: Type.String({
    default: '',
    description: 'Directory keeping state across restarts: `engine.json` and a file per run under `runs/` (empty: memory only)'
  }),
  // the peers of the site steps: the same variables as the step runner's (@slipway/steps)
  ...PeersConfigSchema.properties
})
export type Config = Static<typeof ConfigSchema>

export function loadConfig (env: Record<string, string | undefined> = process.env): Config {
  return readConfig(ConfigSchema, env)
}
