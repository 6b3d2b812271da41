// The chart's values.schema.json holds the services' settings as their configuration schemas state them today (the
// file is rewritten by `npm run chart-schema -w @slipway/kubernetes`), and the split it makes between what goes in a
// ConfigMap, in a Secret, or is the chart's own.
import { readFileSync } from 'node:fs'
import { ConfigSchema as BootstrapConfigSchema } from '@slipway/bootstrap'
import { ConfigSchema as OrchestratorConfigSchema } from '@slipway/orchestrator'
import { PeersConfigSchema } from '@slipway/steps'
import { describe, expect, it } from 'vitest'
import { CHART_OWNED, isSecretSetting, settingDefinitions, valuesSchemaText, VALUES_SCHEMA_FILE } from '../src/chart-schema.ts'

describe('charts/slipway/values.schema.json', () => {
  it('is what `npm run chart-schema` makes from the services\' configuration schemas', () => {
    expect(readFileSync(VALUES_SCHEMA_FILE, 'utf8')).toBe(valuesSchemaText())
  })

  it('takes every setting of each service in its config or secrets map but those the chart decides', () => {
    const defs = settingDefinitions()
    const names = (def: string): string[] => Object.keys((defs[def] as { properties: object }).properties)
    for (const [component, schema] of [['orchestrator', OrchestratorConfigSchema], ['bootstrap', BootstrapConfigSchema], ['steps', PeersConfigSchema]] as const) {
      const taken = [...names(`${component}Config`), ...names(`${component}Secrets`)].sort()
      expect(taken).toEqual(Object.keys(schema.properties).filter((name) => !CHART_OWNED.includes(name)).sort())
      for (const name of names(`${component}Secrets`)) expect(isSecretSetting(name)).toBe(true)
    }
    expect(names('orchestratorSecrets')).toEqual(['ENGINE_PASSWORD', 'KEYSTONE_PASSWORD', 'SERVICE_TOKEN'])
    expect(names('bootstrapSecrets')).toEqual(['ENCRYPTION_KEY', 'KEYSTONE_PASSWORD', 'KUBE_TOKEN', 'SERVICE_TOKEN'])
    expect(names('bootstrapConfig')).toContain('DESIGN_MAX_TOKENS')
  })

  it('states each setting\'s type, bounds and choices as the service checks them', () => {
    const props = (def: string): Record<string, Record<string, unknown>> =>
      (settingDefinitions()[def] as { properties: Record<string, Record<string, unknown>> }).properties
    expect(props('orchestratorConfig').STORE_TIMEOUT_MS).toMatchObject({ type: 'integer', minimum: 1 })
    expect(props('orchestratorConfig').DEPLOYMENT_VERSION_CREATE).toMatchObject({ enum: ['Skip', 'Info', 'Warning', 'Error'] })
    expect(props('orchestratorConfig').METRICS_ENABLED).toMatchObject({ type: 'boolean' })
    expect(props('bootstrapConfig').STORE_URL).toMatchObject({ type: 'string', pattern: '^https?://' })
    // both services read STORE_URL: a shared value must satisfy the bootstrap service's pattern too
    expect(props('sharedConfig').STORE_URL).toMatchObject({ allOf: [{ type: 'string' }, { type: 'string', pattern: '^https?://' }] })
  })
})
