import { describe, expect, it } from 'vitest'
import { CONFIGURATION_DEFAULTS } from '../../src/domain/deployment-configuration.ts'
import { invalid } from '../helpers/fake-peers.ts'
import { configurationDocument, fastConfiguration, REVISION, run, startSite, stepCall, strategyDocument } from '../helpers/site.ts'

describe('preflight', () => {
  it('checks the health of every peer and hands on that Drydock is not skipped', async () => {
    const site = await startSite()
    const { result, io } = await run('preflight', stepCall(), site.deps)
    expect(result).toEqual({ output: { drydock_continue_on_fail: false } })
    for (const peer of [site.armada, site.deckhand, site.drydock, site.promenade, site.shipyard]) {
      expect(peer.callsTo('GET', '/health')).toHaveLength(1)
      expect(peer.calls[0]!.headers['x-auth-token']).toBe('service-token')
      expect(peer.calls[0]!.headers['x-context-marker']).toBe('marker-1')
    }
    expect(io.text()).toContain('info deckhand is alive and healthy (200)')
  })

  it('fails naming the peer that is down', async () => {
    const site = await startSite()
    site.promenade.health = 503
    const { error } = await run('preflight', stepCall(), site.deps)
    expect(error?.message).toBe('Health check failed for promenade on dag_id=deploy_site: The promenade answered GET /health with 503')
  })

  it('goes on without Drydock when it is down and deploy_site has continue-on-fail', async () => {
    const site = await startSite()
    site.drydock.health = 500
    const { result, io } = await run('preflight', stepCall({ parameters: { 'continue-on-fail': 'true' } }), site.deps)
    expect(result).toEqual({ output: { drydock_continue_on_fail: true } })
    expect(io.text()).toContain('warning drydock did not pass its health check')
    expect(site.shipyard.callsTo('GET', '/health')).toHaveLength(1)

    const verify = await run('verify_site', stepCall({
      xcom: { deployment_configuration: fastConfiguration(), 'preflight.ucp_preflight_check': result!.output }
    }), site.deps)
    expect(verify.error).toBeUndefined()
    expect(site.drydock.callsTo('POST', '/tasks')).toHaveLength(0)
  })

  it('does not go on without Drydock for a workflow continue-on-fail does not apply to', async () => {
    const site = await startSite()
    site.drydock.health = 500
    const { error } = await run('preflight', stepCall({ dagId: 'redeploy_server', parameters: { 'continue-on-fail': 'true' } }), site.deps)
    expect(error?.message).toMatch(/^Health check failed for drydock on dag_id=redeploy_server/)
  })
})

describe('deployment_configuration', () => {
  it('hands on the document\'s settings with upstream\'s defaults for the others', async () => {
    const site = await startSite()
    site.deckhand.documents.push(configurationDocument({ physical_provisioner: { deploy_interval: 5 }, armada: { manifest: 'site' } }),
      { schema: 'other/Document/v1', metadata: { name: 'deployment-configuration' }, data: {} })
    const { result, io } = await run('deployment_configuration', stepCall({ xcom: {} }), site.deps)
    expect(result?.output).toEqual({ ...CONFIGURATION_DEFAULTS, 'physical_provisioner.deploy_interval': 5, 'armada.manifest': 'site' })
    expect(site.deckhand.callsTo('GET', `/revisions/${REVISION}/rendered-documents`)[0]!.query)
      .toEqual({ schema: 'shipyard/DeploymentConfiguration/v1', 'metadata.name': 'deployment-configuration' })
    expect(io.text()).toContain('Deployment configuration physical_provisioner.deploy_interval: 5')
    expect(io.text()).toContain('Deployment configuration physical_provisioner.deploy_timeout: 3600 (default)')
  })

  it('fails when the revision has no deployment configuration', async () => {
    const site = await startSite()
    const { error } = await run('deployment_configuration', stepCall({ xcom: {} }), site.deps)
    expect(error?.message).toBe(`A valid deployment-configuration is required: revision ${REVISION} has 0 shipyard/DeploymentConfiguration/v1 document(s) named deployment-configuration`)
  })
})

describe('deckhand_validate', () => {
  it('passes when no validation failed', async () => {
    const site = await startSite()
    const { error, io } = await run('deckhand_validate', stepCall(), site.deps)
    expect(error).toBeUndefined()
    expect(io.text()).toContain(`Revision ${REVISION}: 1 Deckhand validation(s), none failed`)
  })

  it('fails with the failed validations\' errors in the log', async () => {
    const site = await startSite()
    site.deckhand.validations.push({ name: 'promenade-site-validation', status: 'failure', errors: ['Node n1 has no address'] })
    const { error, io } = await run('deckhand_validate', stepCall(), site.deps)
    expect(error?.message).toBe(`Site design validation failed in Deckhand for revision ${REVISION}: promenade-site-validation`)
    expect(io.lines).toContainEqual({ event: 'promenade-site-validation: Node n1 has no address', level: 'error' })
    expect(site.deckhand.callsTo('GET', `/revisions/${REVISION}/validations/detail`)).toHaveLength(1)
  })
})

describe.each([
  ['drydock_validate', 'Drydock', 'drydock'],
  ['promenade_validate', 'Promenade', 'promenade'],
  ['armada_validate', 'Armada', 'armada']
] as const)('%s', (kind, name, peer) => {
  it('passes a valid design, asking with the design reference', async () => {
    const site = await startSite()
    const { error, io } = await run(kind, stepCall(), site.deps)
    expect(error).toBeUndefined()
    const [call] = site[peer].callsTo('POST', '/validatedesign')
    expect(call!.body).toEqual({ rel: 'design', href: `deckhand+${site.deckhand.url}/revisions/${REVISION}/rendered-documents`, type: 'application/x-yaml' })
    expect(io.text()).toContain(`${name} validated the site design: Success`)
  })

  it('fails an invalid design with its messages in the log', async () => {
    const site = await startSite()
    site[peer].validation = () => invalid('Missing network oob', 'Bad rack')
    const { error, io } = await run(kind, stepCall(), site.deps)
    expect(error?.message).toBe(`${name} found the site design invalid (Failure, 2 error(s))`)
    expect(io.lines).toContainEqual({ event: `${name}: Missing network oob`, level: 'error' })
    expect(io.lines).toContainEqual({ event: `${name}: Bad rack`, level: 'error' })
  })
})

describe('drydock_validate and the deployment strategy', () => {
  const named = stepCall({ xcom: { deployment_configuration: fastConfiguration({ 'physical_provisioner.deployment_strategy': 'my-strategy' }) } })
  const group = (name: string, dependsOn: string[] = []) => ({
    name, critical: true, depends_on: dependsOn, selectors: [{ node_names: [name] }]
  })

  it('checks a named strategy, then asks Drydock', async () => {
    const site = await startSite()
    site.deckhand.documents.push(strategyDocument('my-strategy', [group('a'), group('b', ['a'])]))
    const { error, io } = await run('drydock_validate', named, site.deps)
    expect(error).toBeUndefined()
    expect(io.text()).toContain('Deployment strategy my-strategy is valid: groups a, b')
    expect(site.drydock.callsTo('POST', '/validatedesign')).toHaveLength(1)
  })

  it.each([
    ['a dependency cycle', [group('a', ['b']), group('b', ['a'])], /^The deployment strategy my-strategy is invalid: The deployment groups (a, b|b, a) depend on each other in a cycle$/],
    ['an unknown group in depends_on', [group('a', ['ghost'])], 'The deployment strategy my-strategy is invalid: Deployment group a depends on unknown group(s): ghost'],
    ['a missing required field', [{ name: 'a', depends_on: [], selectors: [] }], 'The deployment strategy my-strategy is invalid: Deployment group 1: \'critical\' is required']
  ])('fails with %s before Drydock is asked', async (_what, groups, message) => {
    const site = await startSite()
    site.deckhand.documents.push(strategyDocument('my-strategy', groups))
    const { error } = await run('drydock_validate', named, site.deps)
    expect(error?.message).toMatch(message)
    expect(site.drydock.calls).toHaveLength(0)
    expect(site.kubernetes.calls).toHaveLength(0)
  })

  it('fails when the named strategy is not in the revision', async () => {
    const site = await startSite()
    const { error } = await run('drydock_validate', named, site.deps)
    expect(error?.message).toBe(`The deployment strategy my-strategy (shipyard/DeploymentStrategy/v1) is not in revision ${REVISION}`)
    expect(site.drydock.calls).toHaveLength(0)
  })
})
