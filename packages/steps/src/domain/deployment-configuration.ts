// The site's deployment configuration (shipyard/DeploymentConfiguration/v1, named deployment-configuration) as the
// later steps use it: every setting by its dotted name, with upstream Shipyard's default where the document says
// nothing. Durations are seconds; fractions are taken (a stand-in site waits less than a real one).
import { StepFailure } from '../types.ts'

export const DEPLOYMENT_CONFIGURATION_SCHEMA = 'shipyard/DeploymentConfiguration/v1'
export const DEPLOYMENT_CONFIGURATION_NAME = 'deployment-configuration'

/** Upstream's defaults; `deployment_status.*` are Slipway's (upstream keeps them in its own configuration file). */
export const CONFIGURATION_DEFAULTS = {
  'physical_provisioner.deployment_strategy': null as string | null,
  'physical_provisioner.deploy_interval': 30,
  'physical_provisioner.deploy_timeout': 3600,
  'physical_provisioner.destroy_interval': 30,
  'physical_provisioner.destroy_timeout': 900,
  'physical_provisioner.join_wait': 120,
  'physical_provisioner.prepare_node_interval': 30,
  'physical_provisioner.prepare_node_timeout': 1800,
  'physical_provisioner.prepare_site_interval': 10,
  'physical_provisioner.prepare_site_timeout': 300,
  'physical_provisioner.verify_interval': 10,
  'physical_provisioner.verify_timeout': 60,
  'physical_provisioner.relabel_nodes_interval': 30,
  'physical_provisioner.relabel_nodes_timeout': 900,
  'kubernetes.node_status_interval': 30,
  'kubernetes.node_status_timeout': 1800,
  'kubernetes_provisioner.drain_timeout': 3600,
  'kubernetes_provisioner.drain_grace_period': 1800,
  'kubernetes_provisioner.clear_labels_timeout': 1800,
  'armada.get_releases_timeout': 300,
  'armada.manifest': 'full-site',
  'armada.post_apply_timeout': 2700,
  'armada.validate_design_timeout': 600,
  'deployment_status.configmap': null as string | null,
  'deployment_status.namespace': null as string | null
}
export type DeploymentConfiguration = { -readonly [K in keyof typeof CONFIGURATION_DEFAULTS]: (typeof CONFIGURATION_DEFAULTS)[K] }
export type ConfigurationKey = keyof DeploymentConfiguration

function lookup (data: unknown, dotted: string): unknown {
  let value = data
  for (const part of dotted.split('.')) {
    value = typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[part] : undefined
  }
  return value
}

/**
 * Each setting from the document's data, or its default where the document has none (as upstream, an empty or
 * zero value counts as none). A value of the wrong type fails the step naming it.
 */
export function readConfiguration (data: unknown, note: (line: string) => void): DeploymentConfiguration {
  const out: Record<string, unknown> = {}
  for (const [key, fallback] of Object.entries(CONFIGURATION_DEFAULTS)) {
    const value = lookup(data, key)
    if (value === undefined || value === null || value === '' || value === 0) {
      out[key] = fallback
      note(`Deployment configuration ${key}: ${String(fallback)} (default)`)
      continue
    }
    const wanted = typeof fallback === 'number' ? 'number' : 'string'
    const fits = wanted === 'number' ? typeof value === 'number' && value > 0 && Number.isFinite(value) : typeof value === 'string'
    if (!fits) {
      const kind = wanted === 'number' ? 'a positive number' : 'a string'
      throw new StepFailure(`Deployment configuration ${key} must be ${kind}, got ${JSON.stringify(value)}`)
    }
    out[key] = value
    note(`Deployment configuration ${key}: ${String(value)}`)
  }
  return out as DeploymentConfiguration
}

/** The configuration a step was handed by deployment_configuration, checked; undefined when it holds none. */
export function handedConfiguration (value: unknown): DeploymentConfiguration | undefined {
  if (typeof value !== 'object' || value === null) return undefined
  const handed = value as Record<string, unknown>
  if (!Object.keys(CONFIGURATION_DEFAULTS).every((k) => k in handed)) return undefined
  return handed as DeploymentConfiguration
}
