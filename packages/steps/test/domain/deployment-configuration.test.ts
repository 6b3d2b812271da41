import { describe, expect, it } from 'vitest'
import { CONFIGURATION_DEFAULTS, handedConfiguration, readConfiguration } from '../../src/domain/deployment-configuration.ts'

describe('readConfiguration', () => {
  it('takes upstream\'s default for every key when the document says nothing, noting each', () => {
    const notes: string[] = []
    expect(readConfiguration({}, (line) => notes.push(line))).toEqual(CONFIGURATION_DEFAULTS)
    expect(notes).toHaveLength(Object.keys(CONFIGURATION_DEFAULTS).length)
    expect(notes).toContain('Deployment configuration physical_provisioner.deploy_timeout: 3600 (default)')
    expect(notes).toContain('Deployment configuration armada.manifest: full-site (default)')
    expect(notes).toContain('Deployment configuration physical_provisioner.deployment_strategy: null (default)')
  })

  it('has the defaults of upstream Shipyard', () => {
    expect(CONFIGURATION_DEFAULTS).toMatchObject({
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
      'kubernetes.node_status_interval': 30,
      'kubernetes.node_status_timeout': 1800,
      'kubernetes_provisioner.drain_timeout': 3600,
      'kubernetes_provisioner.drain_grace_period': 1800,
      'kubernetes_provisioner.clear_labels_timeout': 1800,
      'armada.get_releases_timeout': 300,
      'armada.manifest': 'full-site',
      'armada.post_apply_timeout': 2700,
      'armada.validate_design_timeout': 600
    })
  })

  it('takes the document\'s values by their dotted names, fractions included', () => {
    const notes: string[] = []
    const c = readConfiguration({
      physical_provisioner: { deployment_strategy: 'my-strategy', deploy_interval: 0.5, verify_timeout: 0 },
      armada: { manifest: 'site-manifest' },
      deployment_status: { configmap: 'status-map', namespace: 'site' }
    }, (line) => notes.push(line))
    expect(c).toEqual({
      ...CONFIGURATION_DEFAULTS,
      'physical_provisioner.deployment_strategy': 'my-strategy',
      'physical_provisioner.deploy_interval': 0.5,
      'armada.manifest': 'site-manifest',
      'deployment_status.configmap': 'status-map',
      'deployment_status.namespace': 'site'
    })
    expect(notes).toContain('Deployment configuration physical_provisioner.deploy_interval: 0.5')
    expect(notes).toContain('Deployment configuration physical_provisioner.verify_timeout: 60 (default)')
  })

  it.each([
    [{ physical_provisioner: { deploy_timeout: '3600' } }, 'physical_provisioner.deploy_timeout must be a positive number, got "3600"'],
    [{ physical_provisioner: { deploy_timeout: -5 } }, 'physical_provisioner.deploy_timeout must be a positive number, got -5'],
    [{ armada: { manifest: 7 } }, 'armada.manifest must be a string, got 7'],
    [{ physical_provisioner: { deployment_strategy: ['a'] } }, 'physical_provisioner.deployment_strategy must be a string, got ["a"]']
  ])('refuses a value of the wrong type, naming its key (%j)', (data, message) => {
    expect(() => readConfiguration(data, () => {})).toThrow(`Deployment configuration ${message}`)
  })
})

describe('handedConfiguration', () => {
  it('takes a configuration with every key', () => {
    expect(handedConfiguration({ ...CONFIGURATION_DEFAULTS })).toEqual(CONFIGURATION_DEFAULTS)
  })

  it('refuses nothing, a non-object, or one missing a key', () => {
    const { 'armada.manifest': _, ...missing } = CONFIGURATION_DEFAULTS
    expect(handedConfiguration(undefined)).toBeUndefined()
    expect(handedConfiguration('x')).toBeUndefined()
    expect(handedConfiguration(missing)).toBeUndefined()
  })
})
