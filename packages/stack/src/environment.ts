// What `npm start` hands each process: ports, data folders, and the URLs and tokens that wire the five together.
// These variables are the stack's own; everything else in the caller's environment reaches every process.
import { join } from 'node:path'

// young-generation halves capped at 4 MB: about 8 MB less resident memory per idle process than Node's
// default (bench/stack.ts). Under steady traffic V8 kept heap pages it had freed (the orchestrator +27% in 17 minutes
// with what it holds flat); when it favours size over speed it gives most of them back, and it lets the old
// generation grow by at most 30% of its live size between full collections. An earlier fixed factor of 1.5
// (--heap-growing-percent=50, against V8's default of up to 4) loosened that: without it every process's memory in
// the soak is smoother and the orchestrator's 20 MiB lower, for about the same total (figures in docs/benchmarks.md)
export const NODE_FLAGS = ['--max-semi-space-size=4', '--optimize-for-size']

// glibc's malloc, once it has freed a block of 128 KiB or more, raises the size it maps on its own to that block's
// (up to 32 MiB): later blocks as large come from its main heap, where, freed among small ones still in use, they
// stay resident. After a burst of work (900 actions created and run in a minute) the orchestrator's V8 heap was back
// to its size at 100 actions while most of its RSS growth was freed memory kept in that heap (malloc_trim gave it
// back); with a fixed threshold every large block has a mapping of its own, returned when freed, and that growth is
// gone (docs/benchmarks.md, bench/history.ts). Given to every process (the image sets it too, Dockerfile); a
// caller's own GLIBC_TUNABLES is used instead
export const MALLOC_TUNABLES = 'glibc.malloc.mmap_threshold=131072'

export type ProcessName = 'store' | 'engine' | 'site' | 'bootstrap' | 'orchestrator'

/** The five processes of the stack, in start order of the output. */
export const PROCESS_NAMES: ProcessName[] = ['store', 'site', 'engine', 'bootstrap', 'orchestrator']

export const DEFAULT_PORTS: Record<ProcessName, number> = { orchestrator: 9000, bootstrap: 9001, store: 9100, engine: 9200, site: 9300 }

/** The variable of `npm start` that sets each process's port. */
export const PORT_VARIABLES: Record<ProcessName, string> = {
  orchestrator: 'ORCHESTRATOR_PORT',
  bootstrap: 'BOOTSTRAP_PORT',
  store: 'STORE_PORT',
  engine: 'ENGINE_PORT',
  site: 'SITE_PORT'
}

export interface WiringOptions {
  host: string
  ports: Record<ProcessName, number>
  dataDir: string
  serviceToken: string
  engineUser: string
  enginePassword: string
  tokensFile: string
}

/**
 * Where the workflow steps find their peers, for stub-engine and for the step runner of a real Airflow alike: the
 * store as Deckhand, the site stand-in as Drydock, Armada and the cluster's Kubernetes API, the bootstrap service as
 * Promenade, the orchestrator as Shipyard; every call with the service token.
 */
export function peersEnvironment (urls: Record<ProcessName, string>, serviceToken: string): Record<string, string> {
  return {
    DECKHAND_URL: `${urls.store}/api/v1.0`,
    DRYDOCK_URL: `${urls.site}/api/v1.0`,
    ARMADA_URL: `${urls.site}/armada/api/v1.0`,
    PROMENADE_URL: `${urls.bootstrap}/api/v1.0`,
    SHIPYARD_URL: `${urls.orchestrator}/api/v1.0`,
    KUBE_API_URL: urls.site,
    KUBE_TOKEN: serviceToken,
    SERVICE_TOKEN: serviceToken
  }
}

/** The environment of each process: ports, data folders, and the URLs and tokens that wire them together. */
export function stackEnvironment (options: WiringOptions): Record<ProcessName, Record<string, string>> {
  const { host, ports, dataDir, serviceToken } = options
  const base = (name: ProcessName): string => `http://${host}:${ports[name]}`
  const urls = Object.fromEntries(PROCESS_NAMES.map((name) => [name, base(name)])) as Record<ProcessName, string>
  const storeUrl = `${base('store')}/api/v1.0`
  // the stack's processes call each other over plain HTTP: a certificate in the caller's environment is not used
  const auth = {
    AUTH_PROVIDER: 'static', AUTH_TOKENS_FILE: options.tokensFile, SERVICE_TOKEN: serviceToken, TLS_CERT_FILE: '', TLS_KEY_FILE: ''
  }
  return {
    store: { HOST: host, PORT: String(ports.store), STORE_DATA_DIR: join(dataDir, 'store'), STORE_AUTH_TOKENS: serviceToken },
    // the site plays Drydock (reading designs from the store, relabelling nodes through the bootstrap service),
    // Armada and the cluster's Kubernetes API
    site: {
      HOST: host,
      PORT: String(ports.site),
      SITE_DATA_DIR: join(dataDir, 'site'),
      STORE_URL: storeUrl,
      BOOTSTRAP_URL: `${base('bootstrap')}/api/v1.0`,
      SERVICE_TOKEN: serviceToken,
      SITE_AUTH_TOKENS: serviceToken
    },
    engine: {
      HOST: host,
      PORT: String(ports.engine),
      ENGINE_DATA_DIR: join(dataDir, 'engine'),
      ENGINE_USERS: `${options.engineUser}:${options.enginePassword}`,
      ...peersEnvironment(urls, serviceToken)
    },
    bootstrap: {
      HOST: host, PORT: String(ports.bootstrap), ...auth, STORE_URL: storeUrl, KUBE_API_URL: base('site'), KUBE_TOKEN: serviceToken
    },
    orchestrator: {
      HOST: host,
      PORT: String(ports.orchestrator),
      ...auth,
      ORCHESTRATOR_DATA_DIR: join(dataDir, 'orchestrator'),
      STORE_URL: storeUrl,
      VALIDATORS: `Promenade=${base('bootstrap')}/api/v1.0/validatedesign`,
      ENGINE_URL: base('engine'),
      ENGINE_USERNAME: options.engineUser,
      ENGINE_PASSWORD: options.enginePassword,
      PROVISIONER_URL: `${base('site')}/api/v1.0`
    }
  }
}

/** Every variable the stack sets itself for some process: a value of the caller's for one of these is not used. */
export function stackVariables (): string[] {
  const ports = { orchestrator: 1, bootstrap: 1, store: 1, engine: 1, site: 1 }
  const env = stackEnvironment({ host: 'h', ports, dataDir: 'd', serviceToken: 't', engineUser: 'u', enginePassword: 'p', tokensFile: 'f' })
  return [...new Set(Object.values(env).flatMap((variables) => Object.keys(variables)))].sort()
}
