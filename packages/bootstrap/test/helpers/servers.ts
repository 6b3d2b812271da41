// Test doubles on 127.0.0.1 (port 0): a design server (plain http and a Deckhand-like path) and a small
// Kubernetes node API that records patches and can fail on demand.
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import Fastify from 'fastify'
import { onTestFinished } from 'vitest'
import { createPolicy, parseYamlDocuments, staticServiceToken } from '@slipway/common'
import { testAuthenticator } from '@slipway/common/testing'
import { stringify as stringifyYaml } from 'yaml'
import { buildApp, createDeps, loadConfig } from '../../src/index.ts'
import type { DesignFetcher } from '../../src/clients/design.ts'
import type { FileSources } from '../../src/clients/file-sources.ts'
import type { PayloadEncryptor } from '../../src/clients/gpg.ts'
import type { KubernetesClient } from '../../src/clients/kubernetes.ts'
import { prepareLocalDesign } from '../../src/domain/documents.ts'
import { POLICY_DEFAULTS } from '../../src/policy.ts'
import type { DesignLimits } from '../../src/types.ts'

/** The service token the test app reads the store with. */
export const SERVICE_TOKEN = 'svc-token'

const SITE_DIR = resolve(import.meta.dirname, '../../../../examples/site')

/** The example site as one multi-document YAML text. */
export function exampleDesign (): string {
  return readFileSync(resolve(SITE_DIR, 'global.yaml'), 'utf8') + '\n---\n' + readFileSync(resolve(SITE_DIR, 'site.yaml'), 'utf8')
}

async function listen (app: ReturnType<typeof Fastify>): Promise<string> {
  await app.listen({ host: '127.0.0.1', port: 0 })
  onTestFinished(async () => { await app.close() })
  const address = app.server.address()
  return `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}`
}

/** Serves `design` at /site.yaml and at /api/v1.0/revisions/1/rendered-documents; records request headers. */
export async function startDesignServer (design: string) {
  const seen: Array<Record<string, unknown>> = []
  const app = Fastify()
  app.get('/site.yaml', async (request, reply) => { seen.push(request.headers); return await reply.type('application/x-yaml').send(design) })
  // the store answers rendered documents: layered, abstract ones left out
  app.get('/api/v1.0/revisions/1/rendered-documents', async (request, reply) => {
    seen.push(request.headers)
    const rendered = prepareLocalDesign(parseYamlDocuments(design)).map((d) => stringifyYaml(d)).join('---\n')
    return await reply.type('application/x-yaml').send(rendered)
  })
  app.get('/broken', async (_request, reply) => await reply.code(500).send('kaput'))
  const url = await listen(app)
  return { url, seen }
}

export interface KubeNodeFixture { name: string, labels: Record<string, string>, internalIp?: string }

/** A Kubernetes node API with `nodes`; `mode` makes it fail every call, or answer PATCH with `patchStatus`. */
export async function startKube (nodes: KubeNodeFixture[], mode: { fail?: boolean, patchStatus?: number } = {}) {
  const patches: Array<{ name: string, body: unknown, contentType: string | undefined }> = []
  const byName = new Map(nodes.map((n) => [n.name, n]))
  const asNode = (n: KubeNodeFixture) => ({
    kind: 'Node',
    apiVersion: 'v1',
    metadata: { name: n.name, labels: n.labels },
    status: { addresses: n.internalIp === undefined ? [] : [{ type: 'InternalIP', address: n.internalIp }] }
  })
  const app = Fastify()
  app.addContentTypeParser(['application/strategic-merge-patch+json', 'application/merge-patch+json'], { parseAs: 'string' }, (_r, body, done) => { done(null, JSON.parse(String(body))) })
  app.addHook('onRequest', async (_request, reply) => { if (mode.fail === true) await reply.code(500).send({ kind: 'Status', status: 'Failure', code: 500 }) })
  app.get('/api/v1/nodes', async (request) => {
    const selector = (request.query as { labelSelector?: string }).labelSelector
    const [key, value] = (selector ?? '').split('=')
    const items = nodes.filter((n) => selector === undefined || n.labels[key ?? ''] === value).map(asNode)
    return { kind: 'NodeList', apiVersion: 'v1', items }
  })
  app.get('/api/v1/nodes/:name', async (request, reply) => {
    const node = byName.get((request.params as { name: string }).name)
    if (node === undefined) return await reply.code(404).send({ kind: 'Status', status: 'Failure', reason: 'NotFound', code: 404 })
    return asNode(node)
  })
  app.patch('/api/v1/nodes/:name', async (request, reply) => {
    const name = (request.params as { name: string }).name
    patches.push({ name, body: request.body, contentType: request.headers['content-type'] })
    if (mode.patchStatus !== undefined) return await reply.code(mode.patchStatus).send({ kind: 'Status', status: 'Failure', code: mode.patchStatus })
    const node = byName.get(name)
    const labels = (request.body as { metadata: { labels: Record<string, string | null> } }).metadata.labels
    if (node !== undefined) {
      for (const [k, v] of Object.entries(labels)) {
        if (v === null) Reflect.deleteProperty(node.labels, k)
        else node.labels[k] = v
      }
    }
    return asNode(node ?? { name, labels: {} })
  })
  const url = await listen(app)
  return { url, patches, nodes: byName }
}

/** The API-server node (n0) that yields the join IP, and a worker (n1) with labels a and b and system labels. */
export function clusterNodes (): KubeNodeFixture[] {
  return [
    { name: 'n0', labels: { 'kubernetes-apiserver': 'enabled', 'kubernetes.io/hostname': 'n0' }, internalIp: '192.168.77.10' },
    { name: 'n1', labels: { a: '1', b: '2', 'kubernetes.io/hostname': 'n1', 'node-role.kubernetes.io/worker': '' } }
  ]
}

/** The service's default bounds on reading a design (DESIGN_MAX_DOCUMENTS, DESIGN_MAX_TOKENS). */
export const DEFAULT_DESIGN_LIMITS: DesignLimits = { maxDocuments: 20_000, maxTokens: 8_000_000 }

/**
 * The timeout of the test app's calls to the design host, the file hosts and Kubernetes, unless a test sets its own
 * to test what a timeout does. The servers are healthy and in this process: a timeout is there to end a hang, and a
 * call that takes 100 ms alone can take seconds on a machine whose cores are busy with other work.
 */
export const CALL_TIMEOUT_MS = 10_000

/** 127.0.0.1:1, where nothing listens: the test app's store unless a test names its own design hosts. */
export const UNREACHABLE_STORE = 'http://127.0.0.1:1'

/** host:port of a URL, as DESIGN_HOSTS lists it. */
export const hostOf = (url: string): string => new URL(url).host

/**
 * The bootstrap app built by createDeps as the server builds it, with test tokens; Kubernetes at `kubeUrl` (undefined:
 * no configuration); designs fetched only from `designHosts` (URLs or host:port; default: the unreachable store).
 */
export async function buildTestApp (options: {
  kubeUrl?: string
  kubeTimeoutMs?: number
  designTimeoutMs?: number
  kubernetes?: KubernetesClient
  fetchDesign?: DesignFetcher
  encryptPayload?: PayloadEncryptor
  designHosts?: string[]
  serviceToken?: string
  /** Bounds on reading a design; default: the service's defaults. */
  designLimits?: DesignLimits
  /** Hosts HostSystem files may come from (URLs or host:port); default: the design hosts, as the service's default. */
  fileHosts?: string[]
  /** The HostSystem file fetcher; default: one on fileHosts taking files of up to 1 MiB. */
  fetchFiles?: FileSources
} = {}) {
  const hostList = (hosts: string[]): string => hosts.map((h) => h.includes('://') ? hostOf(h) : h).join(',')
  const limits = options.designLimits ?? DEFAULT_DESIGN_LIMITS
  const config = loadConfig({
    LOG_LEVEL: 'silent',
    METRICS_ENABLED: 'false',
    STORE_URL: UNREACHABLE_STORE,
    DESIGN_HOSTS: hostList(options.designHosts ?? [UNREACHABLE_STORE]),
    DESIGN_TIMEOUT_MS: String(options.designTimeoutMs ?? CALL_TIMEOUT_MS),
    DESIGN_MAX_BYTES: String(4 * 1024 * 1024),
    DESIGN_MAX_DOCUMENTS: String(limits.maxDocuments),
    DESIGN_MAX_TOKENS: String(limits.maxTokens),
    FILE_HOSTS: options.fileHosts === undefined ? '' : hostList(options.fileHosts),
    FILE_TIMEOUT_MS: String(CALL_TIMEOUT_MS),
    FILE_FETCH_ATTEMPTS: '3',
    FILE_RETRY_DELAY_MS: '10',
    FILE_MAX_BYTES: String(1024 * 1024),
    FILE_CACHE_TTL_MS: '60000',
    FILE_CACHE_MAX_BYTES: String(16 * 1024 * 1024),
    // without a URL no configuration at all: the client answers 502 as the service does
    KUBE_API_URL: options.kubeUrl ?? '',
    KUBE_TOKEN: 'kube-token',
    KUBE_TIMEOUT_MS: String(options.kubeTimeoutMs ?? CALL_TIMEOUT_MS)
  })
  const deps = createDeps(config, {
    authenticator: testAuthenticator(),
    policy: createPolicy(POLICY_DEFAULTS),
    serviceToken: staticServiceToken(options.serviceToken ?? SERVICE_TOKEN),
    encryptPayload: options.encryptPayload,
    fetchDesign: options.fetchDesign,
    fetchFiles: options.fetchFiles,
    kubernetes: options.kubernetes
  })
  const app = await buildApp({ ...deps, logger: false })
  onTestFinished(async () => { await app.close() })
  return app
}

/**
 * A design server for `design` (a design host, beside the unreachable store), the cluster of clusterNodes and the app
 * (HostSystem files from `options.fileHosts`, else the design hosts); href is plain http, deckhandRef the store path.
 */
export async function setupJoin (design = exampleDesign(), options: { fileHosts?: string[] } = {}) {
  const store = await startDesignServer(design)
  const kube = await startKube(clusterNodes())
  const app = await buildTestApp({ kubeUrl: kube.url, designHosts: [store.url, UNREACHABLE_STORE], fileHosts: options.fileHosts })
  return { app, store, kube, href: `${store.url}/site.yaml`, deckhandRef: `deckhand+${store.url}/api/v1.0/revisions/1/rendered-documents` }
}

/** The join-scripts URL for these query parameters (repeated names allowed). */
export function joinUrl (params: Array<[string, string]>): string {
  return '/api/v1.0/join-scripts?' + new URLSearchParams(params).toString()
}
