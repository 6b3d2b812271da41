// stub-site's environment variables, read once through one schema.
import { LogLevelSchema, readConfig } from '@slipway/common'
import { Type, type Static } from 'typebox'

export const ConfigSchema = Type.Object({
  HOST: Type.String({ default: '127.0.0.1', description: 'Address to listen on' }),
  PORT: Type.Integer({ default: 9300, minimum: 0, maximum: 65535, description: 'Port to listen on (0: any free port)' }),
  LOG_LEVEL: LogLevelSchema(),
  SITE_NODES_FILE: Type.String({
    default: '',
    description: 'YAML file of nodes (`nodes: [{hostname, status_name?, power_state?, labels?, ...}]`); empty: none'
  }),
  STORE_URL: Type.String({
    default: '',
    description: 'Deckhand API base URL (e.g. http://127.0.0.1:9100/api/v1.0); set: the site\'s machines come from the committed design\'s drydock/BaremetalNode/v1 documents (and the Armada stand-in reads designs there); empty or `none`: no store'
  }),
  STORE_TIMEOUT_MS: Type.Integer({ default: 2000, minimum: 1, description: 'Timeout of each read of the committed design' }),
  BOOTSTRAP_URL: Type.String({
    default: '',
    description: 'Bootstrap service (Promenade) API base URL (e.g. http://127.0.0.1:9001/api/v1.0), where Drydock\'s relabel_nodes sets node labels; empty or `none`: relabel subtasks fail saying so'
  }),
  BOOTSTRAP_TIMEOUT_MS: Type.Integer({
    default: 10_000,
    minimum: 1,
    description: 'Timeout of each call to the bootstrap service (the node labels Drydock\'s relabel_nodes sets)'
  }),
  SERVICE_TOKEN: Type.String({ default: '', description: 'X-Auth-Token sent to the store and the bootstrap service; empty: none' }),
  SITE_DATA_DIR: Type.String({
    default: '',
    description: 'Directory where the node state is persisted (site-state.json); empty: memory only'
  }),
  SITE_AUTH_TOKENS: Type.String({
    default: '',
    description: 'Comma-separated tokens accepted as X-Auth-Token or Authorization: Bearer; empty: no token required'
  }),
  SITE_FAULT: Type.Union([Type.Literal('none'), Type.Literal('error'), Type.Literal('hang')], {
    default: 'none',
    description: 'Fault played on the Drydock and Kubernetes routes at start: none, error (answer SITE_FAULT_STATUS) or hang (never answer)'
  }),
  SITE_FAULT_STATUS: Type.Integer({ default: 500, minimum: 500, maximum: 599, description: 'Status answered in the error fault mode' }),
  SITE_POD_TERMINATION_MS: Type.Integer({
    default: 1000,
    minimum: 0,
    description: 'The longest an evicted or deleted pod stays terminating before the stand-in (as its kubelet) removes it; a shorter grace period is kept'
  }),
  SITE_EVICTION_REFUSED: Type.String({
    default: '',
    description: 'Label selector of the pods whose eviction answers 429 TooManyRequests, as a PodDisruptionBudget would (e.g. app=keystone-api); empty: none'
  }),
  SITE_TASK_MS: Type.Integer({
    default: 100,
    minimum: 0,
    description: 'Pause before each phase of a Drydock task (queued → running, each node state, complete), so callers poll'
  }),
  SITE_DESIGN_TIMEOUT_MS: Type.Integer({
    default: 10_000,
    minimum: 1,
    description: 'Timeout of each read of a design a Drydock task, node filter or validatedesign names'
  }),
  SITE_FAIL_NODES: Type.String({
    default: '',
    description: 'Comma-separated nodes whose Drydock node-level subtasks fail: `node` (every action) or `action:node` (e.g. `deploy_nodes:n3`)'
  }),
  SITE_STUCK_TASKS: Type.String({
    default: '',
    description: 'Comma-separated Drydock task actions (e.g. `deploy_nodes`) whose tasks stay running, never complete, while listed'
  }),
  ARMADA_FAIL_APPLY: Type.String({
    default: '',
    description: 'Armada stand-in: releases whose install or upgrade fails (comma-separated; a Helm release name, a chart\'s `release` or its document name), `1`, `true` or `*` for every release; empty: none'
  }),
  ARMADA_FAIL_TESTS: Type.String({
    default: '',
    description: 'Armada stand-in: releases whose Helm tests fail (same forms as ARMADA_FAIL_APPLY); empty: none'
  }),
  ARMADA_TIMEOUT_MS: Type.Integer({
    default: 10_000,
    minimum: 1,
    description: 'Armada stand-in: timeout of each read of a design an apply, a validatedesign or a test names'
  })
})

export type Config = Static<typeof ConfigSchema>

export const loadConfig = (env: Record<string, string | undefined> = process.env): Config => readConfig(ConfigSchema, env)

/** A target's base URL, or null when it is not configured (empty or `none`). */
export const targetUrl = (value: string): string | null => value === '' || value === 'none' ? null : value
