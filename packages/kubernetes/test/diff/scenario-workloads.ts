// The Kubernetes requests of Slipway's node workflow steps, as one scenario run against a target after scenario.ts:
// cordon and uncordon (strategic merge and merge patch), the pods on a node (field and label selectors, a page),
// evictions (graceful, immediate, of a terminating pod, of an unknown pod, refused by a disruption budget), pod
// deletes, a node's delete, and the deployment-status ConfigMap's create, read, replace, patch, delete with each way
// they can fail. Each call's answer is recorded under its name, in order.
import type { Answer } from '../../src/compare.ts'
import { MERGE, STRATEGIC, continueOf, recorder, type Recorded, type Target } from './scenario.ts'

interface PodItem { metadata: { name: string, namespace: string, labels?: Record<string, string> } }

const spec = (unschedulable: unknown): string => JSON.stringify({ spec: { unschedulable } })
const eviction = (name: string, namespace: string, gracePeriodSeconds?: number): string => JSON.stringify({
  apiVersion: 'policy/v1',
  kind: 'Eviction',
  metadata: { name, namespace },
  ...(gracePeriodSeconds === undefined ? {} : { deleteOptions: { gracePeriodSeconds } })
})

/** The name of the pod of `app` in a pod list answer (both targets hold the same pods, by name). */
function podOf (list: Answer, app: string): string {
  const items = (list.json as { items?: PodItem[] } | undefined)?.items ?? []
  const pod = items.find((item) => item.metadata.labels?.app === app)
  if (pod === undefined) throw new Error(`no ${app} pod in the list: ${list.text.slice(0, 200)}`)
  return pod.metadata.name
}

export async function runWorkloadScenario (target: Target): Promise<Recorded[]> {
  const out: Recorded[] = []
  const call = recorder(target, out)

  // cordon: the workflow steps' patch of spec.unschedulable
  await call('cordon (strategic)', 'PATCH', '/api/v1/nodes/n2', 'admin', spec(true), STRATEGIC)
  await call('cordon a cordoned node', 'PATCH', '/api/v1/nodes/n2', 'admin', spec(true), STRATEGIC)
  await call('list cordoned nodes', 'GET', '/api/v1/nodes?fieldSelector=spec.unschedulable%3Dtrue', 'admin')
  await call('uncordon (merge, false)', 'PATCH', '/api/v1/nodes/n2', 'admin', spec(false), MERGE)
  await call('cordon (merge)', 'PATCH', '/api/v1/nodes/n2', 'admin', spec(true), MERGE)
  await call('uncordon (strategic, null)', 'PATCH', '/api/v1/nodes/n2', 'admin', spec(null), STRATEGIC)
  await call('cordon with a value not a boolean', 'PATCH', '/api/v1/nodes/n2', 'admin', spec('yes'), STRATEGIC)
  await call('cordon the node to drain', 'PATCH', '/api/v1/nodes/n3', 'admin', spec(true), STRATEGIC)

  // the pods on the node to drain
  const onNode = await call('list pods on a node', 'GET', '/api/v1/pods?fieldSelector=spec.nodeName%3Dn3', 'admin')
  await call('list pods on a node in one namespace', 'GET', '/api/v1/namespaces/ucp/pods?fieldSelector=spec.nodeName%3Dn3', 'admin')
  await call('list pods by label', 'GET', '/api/v1/namespaces/ucp/pods?labelSelector=app%3Ddeckhand-api', 'admin')
  await call('list pods in a namespace that does not exist', 'GET', '/api/v1/namespaces/nope/pods', 'admin')
  await call('list pods with an unknown field', 'GET', '/api/v1/pods?fieldSelector=spec.nope%3Dx', 'admin')
  const page = await call('list a page of pods', 'GET', '/api/v1/pods?limit=4', 'admin')
  await call('list the next page of pods', 'GET', `/api/v1/pods?limit=4&continue=${encodeURIComponent(continueOf(page))}`, 'admin')
  const deckhand = podOf(onNode, 'deckhand-api')
  const keystone = podOf(onNode, 'keystone-api')
  const calico = podOf(onNode, 'calico-node')
  await call('get pod', 'GET', `/api/v1/namespaces/ucp/pods/${deckhand}`, 'admin')
  await call('get unknown pod', 'GET', '/api/v1/namespaces/ucp/pods/no-such-pod', 'admin')

  // evictions: with a grace period the pod stays terminating (no kubelet on the real side; stub-site's is slowed)
  const evict = (pod: string, namespace: string): string => `/api/v1/namespaces/${namespace}/pods/${pod}/eviction`
  await call('evict a pod (grace 30)', 'POST', evict(deckhand, 'ucp'), 'admin', eviction(deckhand, 'ucp', 30))
  await call('get the terminating pod', 'GET', `/api/v1/namespaces/ucp/pods/${deckhand}`, 'admin')
  await call('evict the terminating pod again', 'POST', evict(deckhand, 'ucp'), 'admin', eviction(deckhand, 'ucp', 30))
  await call('evict a pod (grace 0)', 'POST', evict(keystone, 'ucp'), 'admin', eviction(keystone, 'ucp', 0))
  await call('get the evicted pod', 'GET', `/api/v1/namespaces/ucp/pods/${keystone}`, 'admin')
  await call('evict an unknown pod', 'POST', evict('no-such-pod', 'ucp'), 'admin', eviction('no-such-pod', 'ucp', 0))
  await call('evict with a name not the URL\'s', 'POST', evict(deckhand, 'ucp'), 'admin', eviction('other', 'ucp', 0))
  await call('evict a pod its disruption budget protects', 'POST', evict(calico, 'kube-system'), 'admin', eviction(calico, 'kube-system', 0))
  await call('list pods on the drained node', 'GET', '/api/v1/pods?fieldSelector=spec.nodeName%3Dn3', 'admin')

  // deletes of pods
  const onN2 = await call('list pods on another node', 'GET', '/api/v1/namespaces/ucp/pods?fieldSelector=spec.nodeName%3Dn2', 'admin')
  await call('delete a pod (grace 0)', 'DELETE', `/api/v1/namespaces/ucp/pods/${podOf(onN2, 'deckhand-api')}?gracePeriodSeconds=0`, 'admin')
  await call('delete a pod (its own grace period)', 'DELETE', `/api/v1/namespaces/ucp/pods/${podOf(onN2, 'keystone-api')}`, 'admin')
  await call('delete an unknown pod', 'DELETE', '/api/v1/namespaces/ucp/pods/no-such-pod', 'admin')

  // decommission: the node's delete
  await call('delete node', 'DELETE', '/api/v1/nodes/n3', 'admin')
  await call('get the deleted node', 'GET', '/api/v1/nodes/n3', 'admin')
  await call('delete unknown node', 'DELETE', '/api/v1/nodes/no-such-node', 'admin')
  await call('list nodes after the delete', 'GET', '/api/v1/nodes', 'admin')
  await call('list the deleted node\'s pods', 'GET', '/api/v1/pods?fieldSelector=spec.nodeName%3Dn3', 'admin')

  // the deployment-status ConfigMap
  const maps = '/api/v1/namespaces/ucp/configmaps'
  const map = (data: Record<string, unknown>, metadata: Record<string, unknown> = {}): string =>
    JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'deployment-status', ...metadata }, data })
  const created = await call('create configmap', 'POST', maps, 'admin',
    map({ release: 'r1', status: 'started' }, { labels: { 'app.kubernetes.io/managed-by': 'slipway' } }))
  await call('create it again', 'POST', maps, 'admin', map({ release: 'r1' }))
  await call('create in a namespace that does not exist', 'POST', '/api/v1/namespaces/nope/configmaps', 'admin', map({ a: '1' }))
  await call('create with an invalid name', 'POST', maps, 'admin', map({ a: '1' }, { name: 'Bad_Name' }))
  await call('create with an invalid key', 'POST', maps, 'admin', map({ 'bad key': '1' }, { name: 'bad-key' }))
  await call('create without a name', 'POST', maps, 'admin', JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: {}, data: {} }))
  await call('get configmap', 'GET', `${maps}/deployment-status`, 'admin')
  await call('get unknown configmap', 'GET', `${maps}/no-such-map`, 'admin')
  await call('get configmap in a namespace that does not exist', 'GET', '/api/v1/namespaces/nope/configmaps/deployment-status', 'admin')
  const version = (created.json as { metadata?: { resourceVersion?: string } } | undefined)?.metadata?.resourceVersion ?? ''
  await call('replace configmap', 'PUT', `${maps}/deployment-status`, 'admin', map({ release: 'r1', status: 'running' }, { resourceVersion: version }))
  await call('replace with a stale resourceVersion', 'PUT', `${maps}/deployment-status`, 'admin', map({ status: 'x' }, { resourceVersion: version }))
  await call('replace without a resourceVersion', 'PUT', `${maps}/deployment-status`, 'admin', map({ release: 'r1', status: 'done' }))
  await call('replace changing nothing', 'PUT', `${maps}/deployment-status`, 'admin', map({ release: 'r1', status: 'done' }))
  await call('replace unknown configmap', 'PUT', `${maps}/no-such-map`, 'admin', map({ a: '1' }, { name: 'no-such-map' }))
  await call('replace with a name not the URL\'s', 'PUT', `${maps}/deployment-status`, 'admin', map({ a: '1' }, { name: 'other' }))
  await call('patch configmap (merge)', 'PATCH', `${maps}/deployment-status`, 'admin', JSON.stringify({ data: { status: 'failed', extra: 'x' } }), MERGE)
  await call('patch configmap (strategic, null deletes)', 'PATCH', `${maps}/deployment-status`, 'admin', JSON.stringify({ data: { extra: null } }), STRATEGIC)
  await call('patch changing nothing', 'PATCH', `${maps}/deployment-status`, 'admin', JSON.stringify({ data: { status: 'failed' } }), MERGE)
  await call('patch with a stale resourceVersion', 'PATCH', `${maps}/deployment-status`, 'admin', JSON.stringify({ metadata: { resourceVersion: version }, data: { a: '1' } }), MERGE)
  await call('patch unknown configmap', 'PATCH', `${maps}/no-such-map`, 'admin', JSON.stringify({ data: { a: '1' } }), MERGE)
  await call('list configmaps', 'GET', maps, 'admin')
  await call('delete configmap', 'DELETE', `${maps}/deployment-status`, 'admin')
  await call('delete it again', 'DELETE', `${maps}/deployment-status`, 'admin')
  return out
}
