// What the real API server needs to hold what stub-site holds before the workload scenario: the `ucp` namespace,
// the `default` service account the ServiceAccount admission plugin looks up (no controller-manager makes it here),
// a PodDisruptionBudget for the pods stub-site is told to refuse evicting, and stub-site's pods themselves, created
// bound to their nodes and given the status stub-site (as their kubelet) reports.
import type { KubeApi } from '../../src/api.ts'

/**
 * The pods whose eviction both sides refuse: stub-site by its setting, the real server by a budget of the name
 * stub-site gives in its 429 (whose status the test writes as the disruption controller would: no disruption allowed).
 */
export const REFUSED_EVICTIONS = { label: 'app', value: 'calico-node', budget: 'slipway-refused-evictions' }

interface ShownPod {
  metadata: { name: string, namespace: string, generateName?: string, labels?: Record<string, string>, ownerReferences?: unknown[] }
  spec: Record<string, unknown>
  status: Record<string, unknown>
}

export async function mirrorPods (stub: { api: KubeApi, token: string }, real: { api: KubeApi, token: string }): Promise<number> {
  const must = async (what: string, method: 'POST' | 'PUT', path: string, body: unknown): Promise<unknown> => {
    const answer = await real.api.call(method, path, { token: real.token, body })
    if (answer.status !== 200 && answer.status !== 201) throw new Error(`${what} answered ${answer.status}: ${answer.text}`)
    return answer.json
  }
  await must('creating namespace ucp', 'POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'ucp' } })
  for (const namespace of ['kube-system', 'ucp']) {
    await must(`creating ${namespace}/default`, 'POST', `/api/v1/namespaces/${namespace}/serviceaccounts`,
      { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default' } })
  }
  const budgets = '/apis/policy/v1/namespaces/kube-system/poddisruptionbudgets'
  const budget = await must('creating the disruption budget', 'POST', budgets, {
    apiVersion: 'policy/v1',
    kind: 'PodDisruptionBudget',
    metadata: { name: REFUSED_EVICTIONS.budget },
    spec: { minAvailable: 1, selector: { matchLabels: { [REFUSED_EVICTIONS.label]: REFUSED_EVICTIONS.value } } }
  }) as { metadata: Record<string, unknown> }
  // without a disruption controller a budget stays "being processed"; its status as the controller would write it
  await must('writing the budget\'s status', 'PUT', `${budgets}/${REFUSED_EVICTIONS.budget}/status`, {
    apiVersion: 'policy/v1',
    kind: 'PodDisruptionBudget',
    metadata: budget.metadata,
    spec: { minAvailable: 1, selector: { matchLabels: { [REFUSED_EVICTIONS.label]: REFUSED_EVICTIONS.value } } },
    status: { observedGeneration: 1, disruptionsAllowed: 0, currentHealthy: 1, desiredHealthy: 1, expectedPods: 1 }
  })
  const listed = await stub.api.call('GET', '/api/v1/pods', { token: stub.token })
  const pods = (listed.json as { items: ShownPod[] }).items
  for (const pod of pods) {
    const { name, namespace, generateName, labels, ownerReferences } = pod.metadata
    const path = `/api/v1/namespaces/${namespace}/pods`
    const created = await must(`creating pod ${namespace}/${name}`, 'POST', path, {
      apiVersion: 'v1', kind: 'Pod', metadata: { name, generateName, labels, ownerReferences }, spec: pod.spec
    }) as { metadata: Record<string, unknown> }
    await must(`reporting the status of ${namespace}/${name}`, 'PUT', `${path}/${name}/status`,
      { apiVersion: 'v1', kind: 'Pod', metadata: created.metadata, spec: pod.spec, status: pod.status })
  }
  return pods.length
}
