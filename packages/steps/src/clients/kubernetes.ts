// The cluster's Kubernetes API, for the calls the steps make: read, cordon, relabel and delete a node, list the pods
// on a node and evict them (policy/v1 Eviction), and write a ConfigMap. Errors keep Kubernetes' own Status message.
import { existsSync, readFileSync } from 'node:fs'
import { createHttpClient, DownstreamError, type HttpClient, type HttpResponse } from '@slipway/common'
import { Agent, type Dispatcher } from 'undici'
import type { PeersConfig } from '../config.ts'

const SERVICE_ACCOUNT = '/var/run/secrets/kubernetes.io/serviceaccount'
const STRATEGIC = { 'content-type': 'application/strategic-merge-patch+json' }
const MERGE = { 'content-type': 'application/merge-patch+json' }

export interface KubeObject {
  metadata: {
    name: string
    namespace?: string
    labels?: Record<string, string>
    annotations?: Record<string, string>
    ownerReferences?: Array<{ kind?: string, name?: string }>
    resourceVersion?: string
    deletionTimestamp?: string
  }
  spec?: Record<string, unknown>
  data?: Record<string, string>
  [field: string]: unknown
}

export type EvictionOutcome = { outcome: 'evicted' | 'gone' } | { outcome: 'refused', reason: string }

/** The message of a Kubernetes Status answer, else the start of the text. */
function statusMessage (response: HttpResponse): string {
  try {
    const status = JSON.parse(response.text) as { message?: unknown }
    if (typeof status.message === 'string' && status.message !== '') return status.message
  } catch { /* not JSON */ }
  return response.text.slice(0, 300)
}

function failed (what: string, response: HttpResponse): DownstreamError {
  return new DownstreamError('kubernetes', `Kubernetes answered ${what} with ${response.statusCode}: ${statusMessage(response)}`,
    { upstreamStatus: response.statusCode })
}

/** The API server to call and the token to call it with: the settings, else the pod's service account, else none. */
export function kubernetesHttp (config: PeersConfig, dispatcher?: Dispatcher): HttpClient | null {
  let baseUrl = config.KUBE_API_URL
  let token = config.KUBE_TOKEN
  let agent = dispatcher
  const host = process.env.KUBERNETES_SERVICE_HOST
  if (baseUrl === '' && host !== undefined && existsSync(`${SERVICE_ACCOUNT}/token`)) {
    baseUrl = `https://${host.includes(':') ? `[${host}]` : host}:${process.env.KUBERNETES_SERVICE_PORT ?? '443'}`
    token = token === '' ? readFileSync(`${SERVICE_ACCOUNT}/token`, 'utf8').trim() : token
    agent ??= new Agent({ connect: { ca: readFileSync(`${SERVICE_ACCOUNT}/ca.crt`) } })
  }
  if (baseUrl === '' || baseUrl === 'none') return null
  const bearer = token
  return createHttpClient({
    component: 'kubernetes',
    baseUrl,
    timeoutMs: config.STEP_HTTP_TIMEOUT_MS,
    dispatcher: agent,
    ...(bearer === '' ? {} : { defaultHeaders: { authorization: `Bearer ${bearer}` } })
  })
}

export function kubernetesClient (http: HttpClient) {
  const node = (name: string): string => `/api/v1/nodes/${encodeURIComponent(name)}`
  const configMap = (namespace: string, name?: string): string =>
    `/api/v1/namespaces/${encodeURIComponent(namespace)}/configmaps${name === undefined ? '' : `/${encodeURIComponent(name)}`}`

  return {
    /** The node, or null when the cluster has none of that name. */
    async getNode (name: string): Promise<KubeObject | null> {
      const response = await http.request('GET', node(name))
      if (response.statusCode === 404) return null
      if (response.statusCode !== 200) throw failed(`GET ${node(name)}`, response)
      return http.parseJson<KubeObject>(response, `GET ${node(name)}`)
    },

    async patchNode (name: string, patch: unknown): Promise<KubeObject> {
      const response = await http.request('PATCH', node(name), { headers: STRATEGIC, body: JSON.stringify(patch) })
      if (response.statusCode !== 200) throw failed(`PATCH ${node(name)}`, response)
      return http.parseJson<KubeObject>(response, `PATCH ${node(name)}`)
    },

    /** Deletes the node object; false when there was none. */
    async deleteNode (name: string): Promise<boolean> {
      const response = await http.request('DELETE', node(name))
      if (response.statusCode === 404) return false
      if (response.statusCode !== 200 && response.statusCode !== 202) throw failed(`DELETE ${node(name)}`, response)
      return true
    },

    async podsOnNode (name: string): Promise<KubeObject[]> {
      const path = '/api/v1/pods'
      const response = await http.request('GET', path, { query: { fieldSelector: `spec.nodeName=${name}` } })
      if (response.statusCode !== 200) throw failed(`GET ${path}`, response)
      return http.parseJson<{ items?: KubeObject[] }>(response, `GET ${path}`).items ?? []
    },

    /** Asks to evict a pod: evicted, already gone, or refused (a disruption budget forbids it now) with the reason. */
    async evict (namespace: string, name: string, gracePeriodS: number): Promise<EvictionOutcome> {
      const path = `/api/v1/namespaces/${encodeURIComponent(namespace)}/pods/${encodeURIComponent(name)}/eviction`
      const response = await http.request('POST', path, {
        json: {
          apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name, namespace }, deleteOptions: { gracePeriodSeconds: gracePeriodS }
        }
      })
      if (response.statusCode === 201 || response.statusCode === 200) return { outcome: 'evicted' }
      if (response.statusCode === 404) return { outcome: 'gone' }
      if (response.statusCode === 429) return { outcome: 'refused', reason: statusMessage(response) }
      throw failed(`POST ${path}`, response)
    },

    /** Writes the ConfigMap's data: a merge patch of the map, made when it does not exist yet. */
    async writeConfigMap (namespace: string, name: string, data: Record<string, string>): Promise<'updated' | 'created'> {
      const patched = await http.request('PATCH', configMap(namespace, name), { headers: MERGE, body: JSON.stringify({ data }) })
      if (patched.statusCode === 200) return 'updated'
      if (patched.statusCode !== 404) throw failed(`PATCH ${configMap(namespace, name)}`, patched)
      const created = await http.request('POST', configMap(namespace), {
        json: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace }, data }
      })
      if (created.statusCode === 201) return 'created'
      throw failed(`POST ${configMap(namespace)}`, created)
    },

    async getConfigMap (namespace: string, name: string): Promise<KubeObject | null> {
      const response = await http.request('GET', configMap(namespace, name))
      if (response.statusCode === 404) return null
      if (response.statusCode !== 200) throw failed(`GET ${configMap(namespace, name)}`, response)
      return http.parseJson<KubeObject>(response, `GET ${configMap(namespace, name)}`)
    }
  }
}
export type KubernetesClient = ReturnType<typeof kubernetesClient>
