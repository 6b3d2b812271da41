// Test doubles on 127.0.0.1 (port 0): a design server (plain http and a Deckhand-like path) and a small
// Kubernetes node API that records patches and can fail on demand.
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import Fastify from 'fastify'
import { onTestFinished } from 'vitest'
import { createPolicy, parseYamlDocuments, staticServiceToken } from '@slipway/common'
import { testAuthenticator } from '@slipway/common/testing'
import { buildApp } from '../../src/app.ts'
import { createDesignFetcher, type DesignFetcher } from '../../src/clients/design.ts'
import type { DesignLimits } from '../../src/domain/design-yaml.ts'
import { createFileSources, type FileSources } from '../../src/clients/file-sources.ts'
import type { PayloadEncryptor } from '../../src/clients/gpg.ts'
import { prepareLocalDesign } from '../../src/domain/documents.ts'
import { stringify as stringifyYaml } from 'yaml'
import { createKubernetesClient, KubernetesConfigError, type KubernetesClient } from '../../src/clients/kubernetes.ts'
import { POLICY_DEFAULTS } from '../../src/policy.ts'
import { createDesignHosts } from '../../src/domain/design-hosts.ts'

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

/** The API-server node that yields the join IP, and a worker with labels, as in spec §11. */
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
 * The bootstrap app with test tokens; Kubernetes at `kubeUrl` (undefined: no configuration); designs fetched only
 * from `designHosts` (URLs or host:port; default: the unreachable store).
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
  const designHosts = createDesignHosts(hostList(options.designHosts ?? [UNREACHABLE_STORE]), UNREACHABLE_STORE)
  const fileHosts = options.fileHosts === undefined ? designHosts : createDesignHosts(hostList(options.fileHosts), UNREACHABLE_STORE)
  const app = await buildApp({
    authenticator: testAuthenticator(),
    policy: createPolicy(POLICY_DEFAULTS),
    encryptPayload: options.encryptPayload,
    logger: false,
    fetchDesign: options.fetchDesign ?? createDesignFetcher({
      timeoutMs: options.designTimeoutMs ?? CALL_TIMEOUT_MS,
      maxBytes: 4 * 1024 * 1024,
      limits: options.designLimits ?? DEFAULT_DESIGN_LIMITS,
      serviceAuth: staticServiceToken(options.serviceToken ?? SERVICE_TOKEN),
      designHosts
    }),
    fetchFiles: options.fetchFiles ?? createFileSources({
      timeoutMs: CALL_TIMEOUT_MS,
      attempts: 3,
      retryDelayMs: 10,
      maxBytes: 1024 * 1024,
      cacheTtlMs: 60_000,
      cacheMaxBytes: 16 * 1024 * 1024,
      hosts: fileHosts
    }),
    kubernetes: options.kubernetes ?? createKubernetesClient({
      timeoutMs: options.kubeTimeoutMs ?? CALL_TIMEOUT_MS,
      connect: () => {
        if (options.kubeUrl === undefined) throw new KubernetesConfigError('No Kubernetes configuration: set KUBE_API_URL, KUBECONFIG, or run in a cluster')
        return { server: options.kubeUrl, token: () => 'kube-token' }
      }
    })
  })
  onTestFinished(async () => { await app.close() })
  return app
}

/**
 * A design server for `design` (a design host, beside the unreachable store), the cluster of spec §11 and the app
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
