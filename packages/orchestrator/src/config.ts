// The orchestrator's configuration: environment variables validated by one schema, read once by server.ts.
import { Type, type Static } from 'typebox'
import { AuthConfigProperties, JsonBodyConfigProperties, LogLevelSchema, readConfig, TlsConfigProperties } from '@slipway/common'

const Severity = (description: string) =>
  Type.Union([Type.Literal('Skip'), Type.Literal('Info'), Type.Literal('Warning'), Type.Literal('Error')], { default: 'Skip', description })

export const ConfigSchema = Type.Object({
  HOST: Type.String({ default: '127.0.0.1', description: 'Address to listen on' }),
  PORT: Type.Integer({ default: 9000, minimum: 0, maximum: 65535, description: 'Port to listen on (0: any free port)' }),
  LOG_LEVEL: LogLevelSchema(),
  ...TlsConfigProperties,
  ...JsonBodyConfigProperties,
  BODY_LIMIT_BYTES: Type.Integer({ default: 16_777_216, minimum: 1, description: 'Largest request body accepted (configdocs YAML)' }),
  // the store copies every alias when it reads a body and writes the copies: a body must not grow much in it
  EXPANDED_BODY_LIMIT_BYTES: Type.Integer({
    default: 33_554_432,
    minimum: 1,
    description: 'Largest size of a staged body\'s documents with every YAML alias replaced by a copy of what it names (413 above, before anything is written)'
  }),
  ORCHESTRATOR_DATA_DIR: Type.String({
    default: 'data/orchestrator',
    description: 'Folder of the embedded SQLite database (`:memory:` keeps it in memory)'
  }),
  DATABASE_URL: Type.String({
    default: '',
    pattern: '^(postgres(ql)?://.+)?$',
    examples: ['postgres://user:password@host:5432/database'],
    description: 'postgres://user:password@host:5432/database to use PostgreSQL instead of the embedded SQLite; checked at start-up'
  }),
  STORE_URL: Type.String({ default: 'http://127.0.0.1:9100/api/v1.0', description: 'Deckhand API base URL' }),
  STORE_TIMEOUT_MS: Type.Integer({ default: 30_000, minimum: 1, description: 'Timeout of each store call' }),
  // the revision list is read on nearly every request: a store that answers a huge one must not stall the service
  STORE_MAX_REVISION_LIST_BYTES: Type.Integer({
    default: 8_388_608,
    minimum: 1,
    description: 'Largest revision list (GET /revisions) read from the store, in bytes; a larger answer is refused with 502 while it is read'
  }),
  STORE_MAX_REVISIONS: Type.Integer({
    default: 20_000,
    minimum: 1,
    description: 'Most revisions a store\'s revision list may hold; a longer list is refused with 502 before its entries are parsed'
  }),
  VALIDATORS: Type.String({
    default: 'Promenade=http://127.0.0.1:9001/api/v1.0/validatedesign',
    description: 'Validating components called at commit: comma-separated Name=URL of their /validatedesign'
  }),
  VALIDATOR_TIMEOUT_MS: Type.Integer({ default: 60_000, minimum: 1, description: 'Timeout of each validator call' }),
  // a holder renews its lease while it works, so the lease bounds how long a holder that died keeps the others out,
  // not how long a staging or commit may take. Shipyard's own lock expires after 60 s
  COMMIT_LOCK_LEASE_S: Type.Integer({
    default: 300,
    minimum: 1,
    description: 'Lease of the configdocs lock, renewed every third of it while its holder works; a lease not renewed in time is taken over'
  }),
  ACTION_LOCK_LEASE_S: Type.Integer({
    default: 60,
    minimum: 1,
    description: 'Lease of the site-action lock held while a site action is checked and started, renewed every third of it meanwhile; a lease not renewed in time is taken over'
  }),
  ACTION_RECONCILE_INTERVAL_MS: Type.Integer({
    default: 30_000,
    minimum: 100,
    description: 'How often (and once at start-up) actions whose start the engine has not confirmed are settled, and runs without an action looked for and reported'
  }),
  ACTION_RETRY_WINDOW_S: Type.Integer({
    default: 3600,
    minimum: 0,
    description: 'How long POST /actions sent again with the same X-Context-Marker, user, action and parameters answers the action the first request saved (triggering it again if its start is pending) instead of starting another run; 0: never'
  }),
  ENGINE_URL: Type.String({ default: 'http://127.0.0.1:9200', description: 'Airflow 3 API server (REST API v2 and /auth/token)' }),
  ENGINE_USERNAME: Type.String({ default: '', description: 'Airflow user for POST /auth/token; empty: credential-less GET /auth/token' }),
  ENGINE_PASSWORD: Type.String({ default: '', description: 'Password of ENGINE_USERNAME' }),
  ENGINE_TIMEOUT_MS: Type.Integer({ default: 30_000, minimum: 1, description: 'Timeout of each engine call' }),
  ENGINE_UI_URL: Type.String({
    default: '',
    pattern: '^(https?://[^\\s]+)?$',
    description: 'Address of the engine\'s own UI (Airflow 3\'s, e.g. http://airflow.example:8080): the console links each action to its run there; empty: no link (the stand-in engine has no UI)'
  }),
  PROVISIONER_URL: Type.String({
    default: 'http://127.0.0.1:9300/api/v1.0',
    description: 'Drydock API base URL (node inventory for site statuses)'
  }),
  PROVISIONER_TIMEOUT_MS: Type.Integer({ default: 20_000, minimum: 1, description: 'Timeout of each provisioner call' }),
  NOTES_TIMEOUT_MS: Type.Integer({ default: 10_000, minimum: 1, description: 'Timeout of a note URL fetch' }),
  NOTES_MAX_BYTES: Type.Integer({ default: 1_048_576, minimum: 1, description: 'Largest note detail returned' }),
  TAG_POLL_INTERVAL_MS: Type.Integer({
    default: 5000,
    minimum: 50,
    description: 'How often finished site actions are looked for to tag their revision'
  }),
  ENGINE_WATCH_INTERVAL_MS: Type.Integer({
    default: 1000,
    minimum: 0,
    description: 'How often the engine watch reads what changed in the engine (0: no watch, every read calls the engine)'
  }),
  ENGINE_WATCH_STALE_MS: Type.Integer({
    default: 5000,
    minimum: 1,
    description: 'Oldest engine watch state an action read is served from; older, the read calls the engine'
  }),
  METRICS_ENABLED: Type.Boolean({ default: true, description: 'Serve Prometheus metrics at GET /metrics (no token)' }),
  DEPLOYMENT_VERSION_CREATE: Severity(
    'A collection staged without the pegleg/DeploymentData/v1 deployment-version document: Skip, Info or Warning (noted in the 201 body) or Error (400)'
  ),
  DEPLOYMENT_VERSION_COMMIT: Severity(
    'The deployment-version document missing at commit and in site actions\' pre-run validation: Skip, or reported at Info, Warning or Error'
  ),
  SITE_STATUS_LEGACY_KEYS: Type.Boolean({
    default: false,
    description: 'Answer site statuses with Shipyard\'s underscore keys instead of the seed\'s'
  }),
  TEST_HALT_AFTER_TRIGGER: Type.Boolean({
    default: false,
    description: 'Tests only: once the engine has accepted an action\'s trigger, say so on stderr and halt that request before the start is saved, so that a test\'s SIGKILL lands there'
  }),
  ...AuthConfigProperties
})

export type Config = Static<typeof ConfigSchema>

export const loadConfig = (env: Record<string, string | undefined> = process.env): Config => readConfig(ConfigSchema, env)
