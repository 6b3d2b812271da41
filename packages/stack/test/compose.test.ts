// No Docker engine runs here, so the compose file is checked against the code: every service runs a package
// that exists, sets only variables that package's config schema knows, listens where it is published, and
// points at the other services' real ports and API roots. The stack runner's wiring is held to the same rules.
import { existsSync, readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { parse as parseYaml } from 'yaml'
import { readConfig } from '@slipway/common'
import { describe, expect, it } from 'vitest'
import type { TObject } from 'typebox'
import { ConfigSchema as OrchestratorConfig } from '@slipway/orchestrator'
import { ConfigSchema as BootstrapConfig } from '@slipway/bootstrap'
import { ConfigSchema as StoreConfig } from '@slipway/stub-store'
import { ConfigSchema as EngineConfig } from '@slipway/stub-engine'
import { ConfigSchema as SiteConfig } from '@slipway/stub-site'
import { stackEnvironment, DEFAULT_PORTS, type ProcessName } from '../src/stack.ts'
import { MALLOC_TUNABLES, NODE_FLAGS } from '../src/environment.ts'

const ROOT = resolve(import.meta.dirname, '../../..')
/** The Node flags the image sets in NODE_OPTIONS for every command. */
const IMAGE_NODE_OPTIONS = (/NODE_OPTIONS=(\S+)/.exec(readFileSync(resolve(ROOT, 'Dockerfile'), 'utf8'))?.[1] ?? '').split(/\s+/).filter(Boolean)
interface ComposeService {
  build?: string
  image?: string
  restart?: string
  command?: string[]
  environment?: Record<string, string>
  ports?: string[]
  healthcheck?: { test: string[] }
  depends_on?: Record<string, { condition: string }>
}
const readCompose = (file: string): { services: Record<string, ComposeService> } => parseYaml(readFileSync(resolve(ROOT, file), 'utf8'), { merge: true })
const compose = readCompose('docker-compose.yml')
const postgres = readCompose('docker-compose.postgres.yml')

const SCHEMAS: Record<ProcessName, TObject> = {
  orchestrator: OrchestratorConfig,
  bootstrap: BootstrapConfig,
  store: StoreConfig,
  engine: EngineConfig,
  site: SiteConfig
}
const PACKAGES: Record<ProcessName, string> = { orchestrator: 'orchestrator', bootstrap: 'bootstrap', store: 'stub-store', engine: 'stub-engine', site: 'stub-site' }
const NAMES = Object.keys(SCHEMAS) as ProcessName[]

/** Host and port of every http URL in a value. */
function urlsIn (value: string): Array<{ host: string, port: number, path: string }> {
  return [...value.matchAll(/https?:\/\/([^:/\s]+):(\d+)([^\s,]*)/g)].map((m) => ({ host: m[1] ?? '', port: Number(m[2]), path: m[3] ?? '' }))
}

const API_ROOT: Record<ProcessName, string> = { orchestrator: '/api/v1.0', bootstrap: '/api/v1.0', store: '/api/v1.0', engine: '', site: '' }

describe('docker-compose.yml', () => {
  it.each(NAMES)('runs %s from its package, with variables its config schema knows', (name) => {
    const service = compose.services[name]
    expect(service, name).toBeDefined()
    const entry = service?.command?.at(-1) ?? ''
    expect(entry).toBe(`packages/${PACKAGES[name]}/src/server.ts`)
    // npm start's Node flags, as the image runs them: those NODE_OPTIONS allows in the image's, the others on each command
    const flags = service?.command?.slice(1, -1) ?? []
    expect(service?.command?.[0]).toBe('node')
    expect([...IMAGE_NODE_OPTIONS, ...flags].sort()).toEqual([...NODE_FLAGS].sort())
    expect(existsSync(resolve(ROOT, entry))).toBe(true)
    const known = Object.keys(SCHEMAS[name].properties)
    for (const variable of Object.keys(service?.environment ?? {})) expect(known, `${name}: ${variable}`).toContain(variable)
  })

  it('runs every process with npm start\'s malloc settings, from the image', () => {
    const tunables = /^ENV GLIBC_TUNABLES=(\S+)$/m.exec(readFileSync(resolve(ROOT, 'Dockerfile'), 'utf8'))?.[1]
    expect(tunables).toBe(MALLOC_TUNABLES)
    for (const name of NAMES) expect(compose.services[name]?.environment ?? {}, name).not.toHaveProperty('GLIBC_TUNABLES')
  })

  it.each(NAMES)('publishes %s on the port it listens on, and health-checks that port', (name) => {
    const service = compose.services[name]
    const port = Number(service?.environment?.PORT)
    expect(port).toBe(DEFAULT_PORTS[name])
    expect(service?.ports).toEqual([`${port}:${port}`])
    expect(service?.healthcheck?.test.join(' ')).toContain(`127.0.0.1:${port}/`)
  })

  it.each(NAMES)('builds the image %s runs, and restarts it', (name) => {
    expect(compose.services[name]).toMatchObject({ build: '.', image: 'slipway:latest', restart: 'unless-stopped' })
  })

  it('points every URL at a service of the stack, on its port and API root', () => {
    for (const name of NAMES) {
      for (const [variable, value] of Object.entries(compose.services[name]?.environment ?? {})) {
        for (const url of urlsIn(String(value))) {
          const target = NAMES.find((n) => n === url.host)
          if (target === undefined) continue
          expect(url.port, `${name}.${variable}`).toBe(DEFAULT_PORTS[target])
          expect(url.path.startsWith(API_ROOT[target]), `${name}.${variable} path ${url.path}`).toBe(true)
        }
      }
    }
  })
})

describe('docker-compose.postgres.yml', () => {
  it('gives the orchestrator its PostgreSQL, with the password the database is made with', () => {
    const url = postgres.services.orchestrator?.environment?.DATABASE_URL ?? ''
    const password = postgres.services.postgres?.environment?.POSTGRES_PASSWORD ?? ''
    expect(password).toMatch(/^\$\{SLIPWAY_DB_PASSWORD:-\w+\}$/)
    expect(url).toBe(`postgres://slipway:${password}@postgres:5432/slipway`)
    expect(postgres.services.postgres?.environment).toMatchObject({ POSTGRES_USER: 'slipway', POSTGRES_DB: 'slipway' })
    expect(postgres.services.orchestrator?.depends_on?.postgres).toEqual({ condition: 'service_healthy' })
    // the URL with the default password filled in is one the orchestrator accepts
    const filled = url.replace(/\$\{SLIPWAY_DB_PASSWORD:-(\w+)\}/, '$1')
    expect(() => readConfig(OrchestratorConfig, { DATABASE_URL: filled })).not.toThrow()
  })
})

describe('the npm start wiring', () => {
  it('sets only variables each package knows, and its URLs reach the right ports', () => {
    const ports = { orchestrator: 1, bootstrap: 2, store: 3, engine: 4, site: 5 }
    const env = stackEnvironment({ host: '127.0.0.1', ports, dataDir: '/d', serviceToken: 's', engineUser: 'u', enginePassword: 'p', tokensFile: '/t' })
    for (const name of NAMES) {
      const known = Object.keys(SCHEMAS[name].properties)
      for (const [variable, value] of Object.entries(env[name])) {
        expect(known, `${name}: ${variable}`).toContain(variable)
        for (const url of urlsIn(value)) {
          const target = NAMES.find((n) => ports[n] === url.port)
          expect(target, `${name}.${variable}`).toBeDefined()
          expect(url.path.startsWith(API_ROOT[target as ProcessName])).toBe(true)
        }
      }
    }
  })
})

describe('the site step work', () => {
  it('points the engine\'s steps at each peer over its own protocol, with the service token, in npm start and compose alike', () => {
    const env = stackEnvironment({ host: '127.0.0.1', ports: DEFAULT_PORTS, dataDir: '/d', serviceToken: 's', engineUser: 'u', enginePassword: 'p', tokensFile: '/t' })
    expect(env.site).toMatchObject({
      STORE_URL: 'http://127.0.0.1:9100/api/v1.0', BOOTSTRAP_URL: 'http://127.0.0.1:9001/api/v1.0', SERVICE_TOKEN: 's', SITE_AUTH_TOKENS: 's'
    })
    const peers = {
      DECKHAND_URL: 'http://127.0.0.1:9100/api/v1.0',
      DRYDOCK_URL: 'http://127.0.0.1:9300/api/v1.0',
      ARMADA_URL: 'http://127.0.0.1:9300/armada/api/v1.0',
      PROMENADE_URL: 'http://127.0.0.1:9001/api/v1.0',
      SHIPYARD_URL: 'http://127.0.0.1:9000/api/v1.0',
      KUBE_API_URL: 'http://127.0.0.1:9300',
      KUBE_TOKEN: 's',
      SERVICE_TOKEN: 's'
    }
    expect(env.engine).toMatchObject(peers)
    const composed = compose.services.engine?.environment ?? {}
    for (const variable of Object.keys(peers)) expect(composed, variable).toHaveProperty(variable)
    expect(env.engine).not.toHaveProperty('SITE_URL')
    expect(compose.services.site?.environment).toMatchObject({ STORE_URL: 'http://store:9100/api/v1.0', BOOTSTRAP_URL: 'http://bootstrap:9001/api/v1.0' })
    expect(compose.services.site?.environment?.SERVICE_TOKEN).toBe(compose.services.site?.environment?.SITE_AUTH_TOKENS)
  })
})

describe('docs/configuration.md', () => {
  it('lists every configuration variable of every package', () => {
    const reference = readFileSync(resolve(ROOT, 'docs/configuration.md'), 'utf8')
    for (const name of NAMES) {
      for (const variable of Object.keys(SCHEMAS[name].properties)) expect(reference, `${name}: ${variable}`).toContain(`\`${variable}\``)
    }
  })
})
