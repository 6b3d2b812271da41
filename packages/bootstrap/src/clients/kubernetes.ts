// The Kubernetes API, for node labels and the join IPs: KUBE_API_URL (+ token), a kubeconfig file, or the
// in-cluster service account, through undici (no client library: three calls on one resource).
import { existsSync, readFileSync } from 'node:fs'
import { dirname, isAbsolute, resolve } from 'node:path'
import { Agent, type Dispatcher } from 'undici'
import { parse as parseYaml } from 'yaml'
import { ApiError, BadRequestError, createHttpClient, DownstreamError, NotFoundError, type Metrics } from '@slipway/common'
import { isIpv4 } from '../ipv4.ts'

/** Where Kubernetes mounts a pod's service account. */
export const SERVICE_ACCOUNT_DIR = '/var/run/secrets/kubernetes.io/serviceaccount'

/** No usable cluster configuration: 502, the service's own setup is at fault, not the cluster. */
export class KubernetesConfigError extends ApiError {
  constructor (reason: string) { super(502, 'Kubernetes Config Error', reason, { errorType: 'KubernetesConfigException' }) }
}

/**
 * The cluster answered with an error or could not be reached (503). With `single`, the text is the message
 * too, as Promenade words an error raised with a single argument.
 */
export class KubernetesApiError extends ApiError {
  constructor (reason: string, options: { single?: boolean } = {}) {
    super(503, options.single === true ? reason : 'Kubernetes API Error', reason, { errorType: 'KubernetesApiError' })
  }
}

/** The cluster has no node of that name (404, only from the GET of the node). */
export class NodeNotFoundError extends NotFoundError {
  constructor (name: string) {
    super('Node not found', `Node ${name} was not found in the cluster`, { errorType: 'NodeNotFoundException' })
  }
}

/** The cluster refused a label patch as invalid (its 422): 400 InvalidFormatError with the cluster's reason. */
export class LabelsRefusedError extends BadRequestError {
  constructor (name: string, reason: string) {
    super('Invalid Input Error', `the cluster refused the labels of node ${name}: ${reason}`, { errorType: 'InvalidFormatError' })
  }
}

/** The message of a Kubernetes Status body, else the start of the text. */
function statusMessage (text: string): string {
  try {
    const status = JSON.parse(text) as { message?: unknown }
    if (typeof status.message === 'string' && status.message !== '') return status.message
  } catch { /* not JSON: the text itself */ }
  return text.slice(0, 300)
}

export interface KubernetesConnection {
  server: string
  /** The bearer token for each call; read per call, since in-cluster tokens are rotated on disk. */
  token: () => string | undefined
  dispatcher?: Dispatcher | undefined
}

export interface KubernetesSettings {
  apiUrl: string
  token: string
  kubeconfig: string
  /** In-cluster: the API server from KUBERNETES_SERVICE_HOST/PORT and the service account mounted here. */
  inCluster?: { host: string, port: string, serviceAccountDir?: string }
}

function readText (path: string, what: string): string {
  try {
    return readFileSync(path, 'utf8')
  } catch (error) {
    throw new KubernetesConfigError(`${what} ${path} cannot be read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`)
  }
}

function mapping (value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? value as Record<string, unknown> : {}
}

function named (list: unknown, name: unknown, key: string): Record<string, unknown> | undefined {
  if (!Array.isArray(list)) return undefined
  const entry = list.map(mapping).find((item) => item.name === name)
  return entry === undefined ? undefined : mapping(entry[key])
}

function optionalString (value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined
}

/** The connection a kubeconfig describes (its current context): server, CA, token or client certificate. */
export function fromKubeconfig (path: string): KubernetesConnection {
  let config: Record<string, unknown>
  try {
    config = mapping(parseYaml(readText(path, 'kubeconfig'), { maxAliasCount: 100 }))
  } catch (error) {
    if (error instanceof KubernetesConfigError) throw error
    throw new KubernetesConfigError(`kubeconfig ${path} is not valid YAML: ${(error as Error).message}`)
  }
  const contextName = optionalString(config['current-context']) ??
    (Array.isArray(config.contexts) ? mapping(config.contexts[0]).name : undefined)
  const context = named(config.contexts, contextName, 'context')
  if (context === undefined) throw new KubernetesConfigError(`kubeconfig ${path} has no context ${String(contextName ?? '(none)')}`)
  const cluster = named(config.clusters, context.cluster, 'cluster')
  const server = optionalString(cluster?.server)
  if (cluster === undefined || server === undefined) {
    throw new KubernetesConfigError(`kubeconfig ${path} names no server for cluster ${String(context.cluster)}`)
  }
  const user = named(config.users, context.user, 'user') ?? {}
  if (user.exec !== undefined || user['auth-provider'] !== undefined) {
    throw new KubernetesConfigError(`kubeconfig ${path}: credential plugins (exec, auth-provider) are not supported; use a token or a client certificate`)
  }
  // file paths inside a kubeconfig are relative to the kubeconfig's own folder
  const fileAt = (file: string): string => isAbsolute(file) ? file : resolve(dirname(path), file)
  const pem = (data: unknown, file: unknown, what: string): string | undefined => {
    if (optionalString(data) !== undefined) return Buffer.from(data as string, 'base64').toString('utf8')
    if (optionalString(file) !== undefined) return readText(fileAt(file as string), what)
    return undefined
  }
  const ca = pem(cluster['certificate-authority-data'], cluster['certificate-authority'], 'certificate authority')
  const cert = pem(user['client-certificate-data'], user['client-certificate'], 'client certificate')
  const key = pem(user['client-key-data'], user['client-key'], 'client key')
  if ((cert === undefined) !== (key === undefined)) {
    throw new KubernetesConfigError(`kubeconfig ${path}: a client certificate needs its key, and a key its certificate`)
  }
  const staticToken = optionalString(user.token)
  const tokenFile = optionalString(user.tokenFile)
  const insecure = cluster['insecure-skip-tls-verify'] === true || cluster['insecure-skip-tls-verify'] === 'true'
  const tls = server.startsWith('https:') && (ca !== undefined || cert !== undefined || insecure)
  return {
    server,
    token: () => staticToken ?? (tokenFile === undefined ? undefined : readText(fileAt(tokenFile), 'token file').trim()),
    dispatcher: tls ? new Agent({ connect: { ca, cert, key, rejectUnauthorized: !insecure } }) : undefined
  }
}

/** Where the cluster is: KUBE_API_URL, else KUBECONFIG, else the in-cluster service account; none → 502. */
export function resolveConnection (settings: KubernetesSettings): KubernetesConnection {
  if (settings.apiUrl !== '') {
    const token = settings.token === '' ? undefined : settings.token
    return { server: settings.apiUrl, token: () => token }
  }
  if (settings.kubeconfig !== '') return fromKubeconfig(settings.kubeconfig)
  const inCluster = settings.inCluster
  const dir = inCluster?.serviceAccountDir ?? SERVICE_ACCOUNT_DIR
  if (inCluster !== undefined && inCluster.host !== '' && existsSync(`${dir}/token`)) {
    const host = inCluster.host.includes(':') ? `[${inCluster.host}]` : inCluster.host
    return {
      server: `https://${host}:${inCluster.port === '' ? '443' : inCluster.port}`,
      token: () => readText(`${dir}/token`, 'service account token').trim(),
      dispatcher: new Agent({ connect: { ca: readText(`${dir}/ca.crt`, 'service account CA') } })
    }
  }
  throw new KubernetesConfigError('No Kubernetes configuration: set KUBE_API_URL, KUBECONFIG, or run in a cluster')
}

interface KubeNode {
  metadata?: { name?: string, labels?: Record<string, string> }
  status?: { addresses?: Array<{ type?: string, address?: string }> }
}

/**
 * Node reads and label patches. `connect` runs on first use (a missing configuration is a 502 then, not at
 * start) and its connection is kept; a failed resolution is retried on the next call.
 */
export function createKubernetesClient (options: {
  connect: () => KubernetesConnection
  timeoutMs: number
  metrics?: Pick<Metrics, 'outbound'> | undefined
}) {
  let connection: KubernetesConnection | undefined
  let http: ReturnType<typeof createHttpClient> | undefined
  function client (): { http: ReturnType<typeof createHttpClient>, connection: KubernetesConnection } {
    if (connection === undefined || http === undefined) {
      connection = options.connect()
      http = createHttpClient({
        component: 'kubernetes',
        baseUrl: connection.server,
        timeoutMs: options.timeoutMs,
        dispatcher: connection.dispatcher,
        metrics: options.metrics
      })
    }
    return { http, connection }
  }
  async function call (method: 'GET' | 'PATCH', path: string, extra: { body?: string, headers?: Record<string, string> } = {}) {
    const { http, connection } = client()
    const headers: Record<string, string> = { accept: 'application/json', ...extra.headers }
    const token = connection.token()
    if (token !== undefined) headers.authorization = `Bearer ${token}`
    try {
      return await http.request(method, path, { headers, body: extra.body })
    } catch (error) {
      if (error instanceof DownstreamError) throw new KubernetesApiError(error.reason)
      throw error
    }
  }
  function parse<T> (text: string, what: string): T {
    try {
      return JSON.parse(text) as T
    } catch {
      throw new KubernetesApiError(`${what}: the cluster answered with something that is not JSON`)
    }
  }
  return {
    async getNode (name: string): Promise<KubeNode> {
      const response = await call('GET', `/api/v1/nodes/${encodeURIComponent(name)}`)
      if (response.statusCode === 404) throw new NodeNotFoundError(name)
      if (response.statusCode !== 200) {
        throw new KubernetesApiError(`GET node ${name} answered ${response.statusCode}: ${response.text.slice(0, 300)}`)
      }
      return parse<KubeNode>(response.text, `GET node ${name}`)
    },
    async patchLabels (name: string, patch: Record<string, string | null>): Promise<void> {
      const response = await call('PATCH', `/api/v1/nodes/${encodeURIComponent(name)}`, {
        body: JSON.stringify({ metadata: { labels: patch } }),
        headers: { 'content-type': 'application/strategic-merge-patch+json' }
      })
      // the cluster refused the labels themselves (422 Invalid: its own label rules, or an admission policy of the
      // site's): the caller's input is at fault, so a 400 carrying the cluster's reason, not a 503 inviting a retry
      if (response.statusCode === 422) throw new LabelsRefusedError(name, statusMessage(response.text))
      // any other failed PATCH, a 404 included (the node went away after the GET), is a 503
      if (response.statusCode !== 200) {
        throw new KubernetesApiError(`PATCH node ${name} answered ${response.statusCode}: ${response.text.slice(0, 300)}`)
      }
    },
    /** InternalIP addresses of the nodes labelled kubernetes-apiserver=enabled: the join IPs the node's haproxy uses. */
    async apiServerIps (): Promise<string[]> {
      const response = await call('GET', '/api/v1/nodes?labelSelector=kubernetes-apiserver%3Denabled')
      if (response.statusCode !== 200) {
        throw new KubernetesApiError(`listing API-server nodes answered ${response.statusCode}: ${response.text.slice(0, 300)}`)
      }
      const list = parse<{ items?: KubeNode[] }>(response.text, 'listing API-server nodes')
      const items = Array.isArray(list.items) ? list.items : []
      const ips = items.flatMap((node) => (node.status?.addresses ?? [])
        // an address goes into haproxy.cfg: anything but a dotted IPv4 address is left out
        .filter((a) => a.type === 'InternalIP' && typeof a.address === 'string' && isIpv4(a.address))
        .map((a) => a.address as string))
      if (ips.length === 0) throw new KubernetesApiError('no nodes labelled kubernetes-apiserver=enabled', { single: true })
      return ips
    },
    async close (): Promise<void> {
      const dispatcher = connection?.dispatcher
      connection = undefined
      http = undefined
      if (dispatcher !== undefined) await dispatcher.close()
    }
  }
}

export type KubernetesClient = ReturnType<typeof createKubernetesClient>
