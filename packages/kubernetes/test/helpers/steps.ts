// What the step library's Kubernetes calls need in the real API server: the `ucp` namespace and the `default` service
// accounts pods are admitted with (no controller-manager makes them here), pods bound to a node with the status a
// kubelet would report, a PodDisruptionBudget that allows no disruption (its status written as the disruption
// controller would), a least-privilege service account for the steps with a token from the TokenRequest API, and a
// stand-in for the node's kubelet that finishes the graceful deletes an eviction starts.
import type { Kubernetes } from '../../src/kubernetes.ts'

/** The label of the pods the budget guards, and the budget's name (both in `ucp`). */
export const GUARDED = { label: 'slipway-guarded', value: 'yes', budget: 'slipway-no-disruption' }

/** The steps' rights: exactly the calls @slipway/steps' Kubernetes client makes. */
export const STEPS_ROLE_RULES = [
  { apiGroups: [''], resources: ['nodes'], verbs: ['get', 'patch', 'delete'] },
  { apiGroups: [''], resources: ['pods'], verbs: ['list'] },
  { apiGroups: [''], resources: ['pods/eviction'], verbs: ['create'] },
  { apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'create', 'patch'] }
]

type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE'

/** An admin call that must succeed (200 or 201); its JSON. */
export async function must (kube: Kubernetes, method: Method, path: string, body?: unknown, contentType?: string): Promise<unknown> {
  const answer = await kube.api.call(method, path, { token: kube.identities.admin.token, body, contentType })
  if (answer.status !== 200 && answer.status !== 201) throw new Error(`${method} ${path} answered ${answer.status}: ${answer.text}`)
  return answer.json
}

/** The `ucp` namespace, `default` service accounts in it and in kube-system, and the budget over GUARDED pods. */
export async function prepareCluster (kube: Kubernetes): Promise<void> {
  await must(kube, 'POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'ucp' } })
  for (const namespace of ['kube-system', 'ucp']) {
    await must(kube, 'POST', `/api/v1/namespaces/${namespace}/serviceaccounts`,
      { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default' } })
  }
  const budgets = '/apis/policy/v1/namespaces/ucp/poddisruptionbudgets'
  const spec = { minAvailable: 1, selector: { matchLabels: { [GUARDED.label]: GUARDED.value } } }
  const budget = await must(kube, 'POST', budgets, {
    apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name: GUARDED.budget }, spec
  }) as { metadata: Record<string, unknown> }
  // no disruption controller runs: the budget would stay "being processed"; its status as that controller writes it
  await must(kube, 'PUT', `${budgets}/${GUARDED.budget}/status`, {
    apiVersion: 'policy/v1',
    kind: 'PodDisruptionBudget',
    metadata: budget.metadata,
    spec,
    status: { observedGeneration: 1, disruptionsAllowed: 0, currentHealthy: 1, desiredHealthy: 1, expectedPods: 1 }
  })
}

export interface PodSpec {
  namespace: string
  name: string
  node: string
  /** Guarded by the budget that allows no disruption. */
  guarded?: boolean
  /** Owned by a DaemonSet (a drain leaves it). */
  daemonSet?: boolean
}

/** A pod bound to its node, Running and Ready as its kubelet would report it. */
export async function createPod (kube: Kubernetes, pod: PodSpec): Promise<void> {
  const path = `/api/v1/namespaces/${pod.namespace}/pods`
  const spec = { nodeName: pod.node, containers: [{ name: 'main', image: 'registry.invalid/slipway/idle:1' }] }
  const created = await must(kube, 'POST', path, {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: pod.name,
      labels: pod.guarded === true ? { [GUARDED.label]: GUARDED.value } : {},
      ...(pod.daemonSet === true
        ? { ownerReferences: [{ apiVersion: 'apps/v1', kind: 'DaemonSet', name: 'calico-node', uid: '00000000-0000-4000-8000-00000000da01', controller: true }] }
        : {})
    },
    spec
  }) as { metadata: Record<string, unknown>, spec: Record<string, unknown> }
  const now = new Date().toISOString()
  await must(kube, 'PUT', `${path}/${pod.name}/status`, {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: created.metadata,
    spec: created.spec,
    status: {
      phase: 'Running',
      startTime: now,
      conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: now }],
      containerStatuses: [{ name: 'main', ready: true, restartCount: 0, image: 'registry.invalid/slipway/idle:1', imageID: '', state: { running: { startedAt: now } } }]
    }
  })
}

export async function podExists (kube: Kubernetes, namespace: string, name: string): Promise<boolean> {
  const answer = await kube.api.call('GET', `/api/v1/namespaces/${namespace}/pods/${name}`, { token: kube.identities.admin.token })
  if (answer.status === 404) return false
  if (answer.status === 200) return true
  throw new Error(`GET pod ${namespace}/${name} answered ${answer.status}: ${answer.text}`)
}

/**
 * A service account `ucp/<name>` bound by a ClusterRole of STEPS_ROLE_RULES, and a token for it from the TokenRequest
 * API; answers once the authorizer lets it read nodes (a missing node: 404, no longer 403).
 */
export async function stepsServiceAccount (kube: Kubernetes, name: string): Promise<string> {
  await must(kube, 'POST', '/api/v1/namespaces/ucp/serviceaccounts', { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name } })
  const rbac = '/apis/rbac.authorization.k8s.io/v1'
  await must(kube, 'POST', `${rbac}/clusterroles`, {
    apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name }, rules: STEPS_ROLE_RULES
  })
  await must(kube, 'POST', `${rbac}/clusterrolebindings`, {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRoleBinding',
    metadata: { name },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name },
    subjects: [{ kind: 'ServiceAccount', name, namespace: 'ucp' }]
  })
  const request = await must(kube, 'POST', `/api/v1/namespaces/ucp/serviceaccounts/${name}/token`, {
    apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { expirationSeconds: 3600 }
  }) as { status: { token: string } }
  const token = request.status.token
  const deadline = Date.now() + 30_000
  let last = 0
  while (Date.now() < deadline) {
    last = (await kube.api.call('GET', '/api/v1/nodes/slipway-no-such-node', { token })).status
    if (last === 404) return token
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  throw new Error(`the steps' service account was not granted in time (a node read answered ${last})`)
}

interface TerminatingPod {
  metadata: { name: string, namespace: string, uid: string, deletionTimestamp?: string, deletionGracePeriodSeconds?: number }
}

export interface Kubelet {
  /** The graceful deletes it finished: the pod and the grace period the API server set on it. */
  finished: Array<{ pod: string, grace: number | undefined, nodeUnschedulable: boolean | undefined }>
  stop: () => Promise<void>
}

/**
 * No kubelet runs here, so a pod evicted with a grace period stays terminating (deletionTimestamp set) for ever. This
 * stand-in does the kubelet's last part for one node: every 100 ms, each terminating pod on it is deleted with grace 0
 * and its uid as precondition, as the kubelet does once the containers have stopped (here at once). It records the
 * grace period the eviction gave the pod and whether the node was cordoned at that moment.
 */
export function kubeletFor (kube: Kubernetes, node: string): Kubelet {
  const token = kube.identities.admin.token
  const finished: Kubelet['finished'] = []
  let running = true
  let failure: Error | undefined
  const loop = (async () => {
    while (running) {
      try {
        const listed = await kube.api.call('GET', `/api/v1/pods?fieldSelector=${encodeURIComponent(`spec.nodeName=${node}`)}`, { token })
        const pods = (listed.json as { items: TerminatingPod[] }).items
        for (const pod of pods.filter((p) => p.metadata.deletionTimestamp !== undefined)) {
          const { name, namespace, uid, deletionGracePeriodSeconds } = pod.metadata
          const read = await kube.api.call('GET', `/api/v1/nodes/${node}`, { token })
          const unschedulable = read.status === 200 ? (read.json as { spec?: { unschedulable?: boolean } }).spec?.unschedulable : undefined
          const gone = await kube.api.call('DELETE', `/api/v1/namespaces/${namespace}/pods/${name}`, {
            token, body: { apiVersion: 'v1', kind: 'DeleteOptions', gracePeriodSeconds: 0, preconditions: { uid } }
          })
          if (gone.status !== 200 && gone.status !== 404) throw new Error(`the kubelet's delete of ${namespace}/${name} answered ${gone.status}: ${gone.text}`)
          finished.push({ pod: `${namespace}/${name}`, grace: deletionGracePeriodSeconds, nodeUnschedulable: unschedulable })
        }
      } catch (error) {
        failure = error as Error
        running = false
      }
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  })()
  return {
    finished,
    async stop () {
      running = false
      await loop
      if (failure !== undefined) throw failure
    }
  }
}
