// The Kubernetes API, for node labels and the join IPs: KUBE_API_URL (+ token), a kubeconfig file, or the
// in-cluster service account, through undici (no client library: three calls on one resource).
import { existsSync, readFileSync } from 'node:fs'
import { Agent, type Dispatcher } from 'undici'
import { parse as parseYaml } from 'yaml'
import { ApiError, createHttpClient, DownstreamError, NotFoundError } from '@slipway/common'

const SERVICE_ACCOUNT_DIR = '/var/run/secrets/kubernetes.io/serviceaccount'

/** No usable cluster configuration (502, spec/bootstrap.md §8.4). */
export class KubernetesConfigError extends ApiError {
  constructor (reason: string) { super(502, 'Kubernetes Config Error', reason, { errorType: 'KubernetesConfigException' }) }
}

/** The cluster answered with an error or could not be reached (503). */
export class KubernetesApiError extends ApiError {
  constructor (reason: string) { super(503, 'Kubernetes API Error', reason, { errorType: 'KubernetesApiError', retry: true }) }
}

export interface KubernetesConnection { server: string, token?: string | undefined, dispatcher?: Dispatcher | undefined }

export interface KubernetesSettings { apiUrl: string, token: string, kubeconfig: string, timeoutMs: number }

function readFile (path: string): string {
  return readFileSync(path, 'utf8')
}

function fromKubeconfig (path: string): KubernetesConnection {
  let config: Record<string, unknown>
  try {
    config = parseYaml(readFile(path)) as Record<string, unknown>
  } catch (error) {
    throw new KubernetesConfigError(`kubeconfig ${path} cannot be read: ${(error as Error).message}`)
  }
  const contexts = (config.contexts ?? []) as Array<{ name: string, context: { cluster: string, user: string } }>
  const context = contexts.find((c) => c.name === config['current-context']) ?? contexts[0]
  const cluster = ((config.clusters ?? []) as Array<{ name: string, cluster: Record<string, string> }>).find((c) => c.name === context?.context.cluster)?.cluster
  const user = ((config.users ?? []) as Array<{ name: string, user: Record<string, string> }>).find((u) => u.name === context?.context.user)?.user ?? {}
  if (cluster?.server === undefined) throw new KubernetesConfigError(`kubeconfig ${path} names no cluster server`)
  const pemOf = (data?: string, file?: string): string | undefined =>
    data !== undefined ? Buffer.from(data, 'base64').toString('utf8') : file !== undefined ? readFile(file) : undefined
  const ca = pemOf(cluster['certificate-authority-data'], cluster['certificate-authority'])
  const cert = pemOf(user['client-certificate-data'], user['client-certificate'])
  const key = pemOf(user['client-key-data'], user['client-key'])
  const tls = ca !== undefined || cert !== undefined || cluster['insecure-skip-tls-verify'] !== undefined
  return {
    server: cluster.server,
    token: user.token,
    dispatcher: tls ? new Agent({ connect: { ca, cert, key, rejectUnauthorized: String(cluster['insecure-skip-tls-verify']) !== 'true' } }) : undefined
  }
}

/** Where the cluster is: KUBE_API_URL, else KUBECONFIG, else the in-cluster service account; none → 502. */
export function resolveConnection (settings: KubernetesSettings, env: { host?: string, port?: string } = {}): KubernetesConnection {
  if (settings.apiUrl !== '') return { server: settings.apiUrl, token: settings.token === '' ? undefined : settings.token }
  if (settings.kubeconfig !== '') return fromKubeconfig(settings.kubeconfig)
  if (env.host !== undefined && env.host !== '' && existsSync(`${SERVICE_ACCOUNT_DIR}/token`)) {
    return {
      server: `https://${env.host}:${env.port ?? '443'}`,
      token: readFile(`${SERVICE_ACCOUNT_DIR}/token`).trim(),
      dispatcher: new Agent({ connect: { ca: readFile(`${SERVICE_ACCOUNT_DIR}/ca.crt`) } })
    }
  }
  throw new KubernetesConfigError('No Kubernetes configuration: set KUBE_API_URL, KUBECONFIG, or run in a cluster')
}

interface KubeNode { metadata?: { name?: string, labels?: Record<string, string> }, status?: { addresses?: Array<{ type?: string, address?: string }> } }

/** Node reads and label patches; `connect` is resolved per call so a missing configuration is a 502 then, not at start. */
export function createKubernetesClient (options: { connect: () => KubernetesConnection, timeoutMs: number }) {
  function client () {
    const connection = options.connect()
    return createHttpClient({
      component: 'kubernetes',
      baseUrl: connection.server,
      timeoutMs: options.timeoutMs,
      dispatcher: connection.dispatcher
    })
  }
  async function call (method: 'GET' | 'PATCH', path: string, extra: { body?: string, headers?: Record<string, string> } = {}) {
    const http = client()
    let response
    try {
      const headers: Record<string, string> = { accept: 'application/json', ...extra.headers }
      const token = options.connect().token
      if (token !== undefined) headers.authorization = `Bearer ${token}`
      response = await http.request(method, path, { headers, body: extra.body })
    } catch (error) {
      if (error instanceof DownstreamError) throw new KubernetesApiError(error.reason)
      throw error
    }
    return response
  }
  return {
    async getNode (name: string): Promise<KubeNode> {
      const response = await call('GET', `/api/v1/nodes/${encodeURIComponent(name)}`)
      if (response.statusCode === 404) throw new NotFoundError('Node not found', `Node ${name} was not found in the cluster`, { errorType: 'NodeNotFoundException' })
      if (response.statusCode !== 200) throw new KubernetesApiError(`GET node ${name} answered ${response.statusCode}`)
      return JSON.parse(response.text) as KubeNode
    },
    async patchLabels (name: string, patch: Record<string, string | null>): Promise<void> {
      const response = await call('PATCH', `/api/v1/nodes/${encodeURIComponent(name)}`, {
        body: JSON.stringify({ metadata: { labels: patch } }),
        headers: { 'content-type': 'application/strategic-merge-patch+json' }
      })
      if (response.statusCode === 404) throw new NotFoundError('Node not found', `Node ${name} was not found in the cluster`, { errorType: 'NodeNotFoundException' })
      if (response.statusCode !== 200) throw new KubernetesApiError(`PATCH node ${name} answered ${response.statusCode}: ${response.text.slice(0, 300)}`)
    },
    /** InternalIP addresses of the nodes labelled kubernetes-apiserver=enabled (spec §6.2 step 2). */
    async apiServerIps (): Promise<string[]> {
      const response = await call('GET', '/api/v1/nodes?labelSelector=kubernetes-apiserver%3Denabled')
      if (response.statusCode !== 200) throw new KubernetesApiError(`listing API-server nodes answered ${response.statusCode}`)
      const list = JSON.parse(response.text) as { items?: KubeNode[] }
      const ips = (list.items ?? []).flatMap((node) => (node.status?.addresses ?? []).filter((a) => a.type === 'InternalIP' && typeof a.address === 'string').map((a) => a.address as string))
      if (ips.length === 0) throw new KubernetesApiError('no nodes labelled kubernetes-apiserver=enabled')
      return ips
    }
  }
}

export type KubernetesClient = ReturnType<typeof createKubernetesClient>
