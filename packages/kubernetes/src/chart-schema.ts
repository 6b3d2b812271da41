// The chart's setting maps (charts/slipway: `config` and `secrets`, shared and per service) checked by the services'
// own configuration schemas: values.schema.json's `definitions` for them are made here from the orchestrator's and the
// bootstrap service's ConfigSchema and the step library's PeersConfigSchema, so a misspelt setting, a setting of the
// wrong type or a value out of range is refused by helm, naming it. The rest of the file is written by hand;
// `npm run chart-schema -w @slipway/kubernetes` rewrites these definitions, and a test holds the file to them.
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { ConfigSchema as BootstrapConfigSchema } from '@slipway/bootstrap'
import { ConfigSchema as OrchestratorConfigSchema } from '@slipway/orchestrator'
import { PeersConfigSchema } from '@slipway/steps'
import type { TObject } from 'typebox'

export const CHART_DIR = resolve(import.meta.dirname, '..', '..', '..', 'charts', 'slipway')
export const VALUES_SCHEMA_FILE = resolve(CHART_DIR, 'values.schema.json')

/**
 * Settings the chart decides itself: the port its Service targets, the paths of what it mounts (the SQLite folder,
 * the token file, the policy, the certificates), the database URL (orchestrator.postgresql), what Kubernetes sets in a
 * pod, and a switch for tests only. They are in no `config` map.
 */
export const CHART_OWNED = [
  'PORT', 'ORCHESTRATOR_DATA_DIR', 'DATABASE_URL', 'AUTH_TOKENS_FILE', 'POLICY_FILE',
  'TLS_CERT_FILE', 'TLS_KEY_FILE', 'TLS_CA_FILE',
  'KUBECONFIG', 'KUBERNETES_SERVICE_HOST', 'KUBERNETES_SERVICE_PORT', 'TEST_HALT_AFTER_TRIGGER'
]

/** A secret setting, by the last word of its name (SERVICE_TOKEN, ENGINE_PASSWORD, ENCRYPTION_KEY): it goes in a Secret. */
export const isSecretSetting = (name: string): boolean => /(^|_)(PASSWORD|TOKEN|SECRET|KEY)$/.test(name)

type JsonSchema = Record<string, unknown>

/** One setting's schema as helm checks it: its type and bounds, an enumeration for a union of literals. */
function settingSchema (property: JsonSchema): JsonSchema {
  const anyOf = property.anyOf as JsonSchema[] | undefined
  const out: JsonSchema = {}
  if (anyOf !== undefined && anyOf.every((branch) => branch.const !== undefined)) {
    out.enum = anyOf.map((branch) => branch.const)
  } else {
    for (const key of ['type', 'minimum', 'maximum', 'pattern']) if (property[key] !== undefined) out[key] = property[key]
  }
  if (typeof property.description === 'string') out.description = property.description
  return out
}

function settingsOf (schema: TObject, secret: boolean): Map<string, JsonSchema> {
  const out = new Map<string, JsonSchema>()
  for (const [name, property] of Object.entries(schema.properties)) {
    if (CHART_OWNED.includes(name) || isSecretSetting(name) !== secret) continue
    out.set(name, secret ? { type: 'string', description: (property as JsonSchema).description } : settingSchema(property as JsonSchema))
  }
  return out
}

/** Settings both services read; a name whose two schemas differ in more than their words must satisfy both. */
function shared (a: Map<string, JsonSchema>, b: Map<string, JsonSchema>): Map<string, JsonSchema> {
  const rules = ({ description, ...rest }: JsonSchema): string => JSON.stringify(rest)
  const out = new Map<string, JsonSchema>()
  for (const [name, schema] of a) {
    const other = b.get(name)
    if (other === undefined) continue
    out.set(name, rules(schema) === rules(other) ? schema : { allOf: [schema, other] })
  }
  return out
}

function objectOf (settings: Map<string, JsonSchema>, description: string): JsonSchema {
  const properties = Object.fromEntries([...settings].sort(([a], [b]) => a.localeCompare(b)))
  return { type: 'object', description, additionalProperties: false, properties }
}

/** The definitions the setting maps refer to, made from the services' schemas. */
export function settingDefinitions (): Record<string, JsonSchema> {
  const orchestrator = { config: settingsOf(OrchestratorConfigSchema, false), secrets: settingsOf(OrchestratorConfigSchema, true) }
  const bootstrap = { config: settingsOf(BootstrapConfigSchema, false), secrets: settingsOf(BootstrapConfigSchema, true) }
  const steps = { config: settingsOf(PeersConfigSchema, false), secrets: settingsOf(PeersConfigSchema, true) }
  const made = 'made from the services\' configuration schemas by `npm run chart-schema -w @slipway/kubernetes`'
  return {
    sharedConfig: objectOf(shared(orchestrator.config, bootstrap.config), `Settings both services read (${made})`),
    sharedSecrets: objectOf(shared(orchestrator.secrets, bootstrap.secrets), `Secret settings both services read (${made})`),
    orchestratorConfig: objectOf(orchestrator.config, `The orchestrator's settings (${made})`),
    orchestratorSecrets: objectOf(orchestrator.secrets, `The orchestrator's secret settings (${made})`),
    bootstrapConfig: objectOf(bootstrap.config, `The bootstrap service's settings (${made})`),
    bootstrapSecrets: objectOf(bootstrap.secrets, `The bootstrap service's secret settings (${made})`),
    stepsConfig: objectOf(steps.config, `The step library's settings (${made})`),
    stepsSecrets: objectOf(steps.secrets, `The step library's secret settings (${made})`)
  }
}

/** values.schema.json as it should be: the committed file with the setting definitions made anew. */
export function valuesSchemaText (current = readFileSync(VALUES_SCHEMA_FILE, 'utf8')): string {
  const schema = JSON.parse(current) as { definitions?: Record<string, unknown> }
  schema.definitions = { ...schema.definitions, ...settingDefinitions() }
  return JSON.stringify(schema, null, 2) + '\n'
}
