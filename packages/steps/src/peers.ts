// Where each peer answers and with which token: a plain URL setting wins; otherwise, with Keystone configured, the
// endpoint of the peer's service type in the catalog of the service's own token (the types upstream Shipyard looks
// up). The token and catalog are taken once and again when the token nears its end or a peer refuses it.
import {
  createHttpClient, DownstreamError, passwordAuthBody, staticServiceToken, type HttpClient, type ServiceTokenSource
} from '@slipway/common'
import type { Dispatcher } from 'undici'
import type { PeersConfig } from './config.ts'

export type PeerName = 'deckhand' | 'drydock' | 'armada' | 'promenade' | 'shipyard'

/** The Keystone service type of each peer, as upstream Shipyard's configuration names them. */
export const SERVICE_TYPES: Readonly<Record<PeerName, string>> = {
  deckhand: 'deckhand',
  drydock: 'physicalprovisioner',
  armada: 'armada',
  promenade: 'kubernetesprovisioner',
  shipyard: 'shipyard'
}

const SETTINGS: Readonly<Record<PeerName, keyof PeersConfig>> = {
  deckhand: 'DECKHAND_URL',
  drydock: 'DRYDOCK_URL',
  armada: 'ARMADA_URL',
  promenade: 'PROMENADE_URL',
  shipyard: 'SHIPYARD_URL'
}

interface CatalogEndpoint { interface?: string, region?: string, region_id?: string, url?: string }
interface CatalogEntry { type?: string, endpoints?: CatalogEndpoint[] }

/** The token of the service user with its catalog, renewed when a quarter of its life is left or when refused. */
function keystoneSession (config: PeersConfig, dispatcher?: Dispatcher) {
  const http = createHttpClient({
    component: 'identity', baseUrl: config.KEYSTONE_AUTH_URL, timeoutMs: config.STEP_HTTP_TIMEOUT_MS, dispatcher
  })
  let current: { token: string, catalog: CatalogEntry[], renewAt: number } | undefined
  let pending: Promise<NonNullable<typeof current>> | undefined

  async function obtain (): Promise<NonNullable<typeof current>> {
    const askedAt = Date.now()
    const response = await http.request('POST', '/auth/tokens', {
      anonymous: true,
      json: passwordAuthBody({
        username: config.KEYSTONE_USERNAME,
        password: config.KEYSTONE_PASSWORD,
        projectName: config.KEYSTONE_PROJECT_NAME,
        userDomainName: config.KEYSTONE_USER_DOMAIN_NAME,
        projectDomainName: config.KEYSTONE_PROJECT_DOMAIN_NAME
      })
    })
    const subject = response.headers['x-subject-token']
    if (response.statusCode !== 201 || typeof subject !== 'string') {
      throw new DownstreamError('identity', `Keystone refused the service credentials (${response.statusCode})`, {
        upstreamStatus: response.statusCode
      })
    }
    const body = http.parseJson<{ token?: { expires_at?: string, catalog?: CatalogEntry[] } }>(response, 'POST /auth/tokens')
    const expiresAt = Date.parse(body.token?.expires_at ?? '')
    const lifetimeMs = Number.isNaN(expiresAt) ? 3_600_000 : Math.max(expiresAt - askedAt, 0)
    current = { token: subject, catalog: body.token?.catalog ?? [], renewAt: askedAt + lifetimeMs * 0.75 }
    return current
  }

  async function session (): Promise<NonNullable<typeof current>> {
    if (current !== undefined && current.renewAt > Date.now()) return current
    pending ??= obtain().finally(() => { pending = undefined })
    return await pending
  }

  const tokens: ServiceTokenSource = {
    token: async () => (await session()).token,
    invalidate: () => { current = undefined }
  }

  /** The endpoint of a service type for the configured interface (and region), or null when the catalog has none. */
  async function endpoint (serviceType: string): Promise<string | null> {
    const entry = (await session()).catalog.find((e) => e.type === serviceType)
    const found = (entry?.endpoints ?? []).find((e) => e.interface === config.KEYSTONE_INTERFACE &&
      (config.KEYSTONE_REGION === '' || e.region_id === config.KEYSTONE_REGION || e.region === config.KEYSTONE_REGION))
    return found?.url ?? null
  }

  return { tokens, endpoint }
}

export interface Peers {
  /** The HTTP client of a peer, or null when it is not configured (nor in the catalog). */
  client: (peer: PeerName) => Promise<HttpClient | null>
  /** A peer's base URL (its setting, else its catalog endpoint), or null when it has none. */
  url: (peer: PeerName) => Promise<string | null>
  /** Where a peer was found, for the log: a URL, or why there is none. */
  describe: (peer: PeerName) => Promise<string>
}

export function createPeers (config: PeersConfig, options: { dispatcher?: Dispatcher } = {}): Peers {
  const keystone = config.KEYSTONE_AUTH_URL === '' ? undefined : keystoneSession(config, options.dispatcher)
  const serviceAuth = keystone?.tokens ?? staticServiceToken(config.SERVICE_TOKEN)
  const clients = new Map<string, HttpClient>()

  async function urlOf (peer: PeerName): Promise<string | null> {
    const setting = config[SETTINGS[peer]] as string
    if (setting === 'none') return null
    if (setting !== '') return setting
    return keystone === undefined ? null : await keystone.endpoint(SERVICE_TYPES[peer])
  }

  return {
    url: urlOf,
    async client (peer) {
      const baseUrl = await urlOf(peer)
      if (baseUrl === null) return null
      const key = `${peer} ${baseUrl}`
      let client = clients.get(key)
      if (client === undefined) {
        client = createHttpClient({
          component: peer, baseUrl, timeoutMs: config.STEP_HTTP_TIMEOUT_MS, serviceAuth, dispatcher: options.dispatcher
        })
        clients.set(key, client)
      }
      return client
    },
    async describe (peer) {
      const baseUrl = await urlOf(peer)
      if (baseUrl !== null) return baseUrl
      return keystone === undefined
        ? `not configured (${SETTINGS[peer]} empty, no KEYSTONE_AUTH_URL)`
        : `not in the Keystone catalog (service type ${SERVICE_TYPES[peer]}, interface ${config.KEYSTONE_INTERFACE})`
    }
  }
}
