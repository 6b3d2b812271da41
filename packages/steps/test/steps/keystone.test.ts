import { describe, expect, it } from 'vitest'
import { loadPeersConfig } from '../../src/config.ts'
import { fakeDeckhand, fakeKeystone } from '../helpers/fake-peers.ts'
import { depsOf, run, startSite, stepCall } from '../helpers/site.ts'

const KEYSTONE = {
  KEYSTONE_USERNAME: 'shipyard', KEYSTONE_PASSWORD: 'secret', KEYSTONE_PROJECT_NAME: 'service'
}

describe('peers from the Keystone catalog', () => {
  it('finds each peer by its service type at the internal interface and calls it with the token', async () => {
    const site = await startSite()
    const keystone = await fakeKeystone({
      deckhand: { internal: site.deckhand.url, public: 'http://127.0.0.1:1/public' },
      physicalprovisioner: { public: 'http://127.0.0.1:1/public', internal: site.drydock.url },
      armada: { internal: site.armada.url },
      kubernetesprovisioner: { internal: site.promenade.url },
      shipyard: { internal: site.shipyard.url }
    })
    const deps = depsOf(loadPeersConfig({ KEYSTONE_AUTH_URL: keystone.url, ...KEYSTONE }))
    const { result, error } = await run('preflight', stepCall(), deps)
    expect(error).toBeUndefined()
    expect(result?.output).toEqual({ drydock_continue_on_fail: false })
    for (const peer of [site.deckhand, site.drydock, site.armada, site.promenade, site.shipyard]) {
      const [health] = peer.callsTo('GET', '/health')
      expect(health!.headers['x-auth-token']).toBe('token-from-keystone')
    }
    expect(keystone.callsTo('POST', '/auth/tokens')).toHaveLength(1)
    expect(keystone.calls[0]!.body).toMatchObject({
      auth: {
        identity: { methods: ['password'], password: { user: { name: 'shipyard', password: 'secret', domain: { name: 'Default' } } } },
        scope: { project: { name: 'service', domain: { name: 'Default' } } }
      }
    })
  })

  it('lets a plain URL setting win over the catalog, and skips a peer the catalog lacks', async () => {
    const site = await startSite()
    const other = await fakeDeckhand()
    const keystone = await fakeKeystone({ deckhand: { internal: other.url }, shipyard: { internal: site.shipyard.url } })
    const deps = depsOf(loadPeersConfig({ KEYSTONE_AUTH_URL: keystone.url, ...KEYSTONE, DECKHAND_URL: site.deckhand.url }))
    const { error, io } = await run('preflight', stepCall(), deps)
    expect(error).toBeUndefined()
    expect(site.deckhand.callsTo('GET', '/health')[0]!.headers['x-auth-token']).toBe('token-from-keystone')
    expect(other.calls).toHaveLength(0)
    expect(io.lines).toContainEqual({
      event: 'No armada: not in the Keystone catalog (service type armada, interface internal); skipped its health check', level: 'warning'
    })
  })
})
