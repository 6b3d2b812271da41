// The Kubernetes requests Slipway makes, as one scenario run against a target (stub-site's imitation or the real API
// server): the bootstrap service's node read and label patch (strategic merge, null deletes) with each way they can
// fail, the join scripts' list of API-server nodes by label selector, and the list reads stub-site serves (a page and
// its continuation). Each call's answer is recorded under its name, in order.
import type { Answer } from '../../src/compare.ts'

export type Role = 'bootstrap' | 'admin' | 'unknown'
export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'

export interface Target {
  name: 'stub-site' | 'kube-apiserver'
  call: (method: Method, path: string, role: Role, body?: string, contentType?: string) => Promise<Answer>
}

export interface Recorded { call: string, answer: Answer }

export const STRATEGIC = 'application/strategic-merge-patch+json'
export const MERGE = 'application/merge-patch+json'
const labels = (value: unknown, extra: Record<string, unknown> = {}): string => JSON.stringify({ metadata: { ...extra, labels: value } })

/** The nodes both targets hold when the scenario starts (the real server's are made from stub-site's answers). */
export const SCENARIO_NODES = [
  { hostname: 'n1', internal_ip: '192.0.2.11', labels: { 'kubernetes-apiserver': 'enabled', a: '1' } },
  { hostname: 'n2', internal_ip: '192.0.2.12', labels: { b: '2' } },
  { hostname: 'n3', internal_ip: '192.0.2.13', labels: { 'kubernetes-apiserver': 'enabled' } }
]

export async function runScenario (target: Target): Promise<Recorded[]> {
  const out: Recorded[] = []
  const call = recorder(target, out)
  // the bootstrap service: GET the node, then PATCH the difference
  await call('get node', 'GET', '/api/v1/nodes/n1', 'bootstrap')
  await call('get unknown node', 'GET', '/api/v1/nodes/no-such-node', 'bootstrap')
  await call('patch labels (strategic, null deletes)', 'PATCH', '/api/v1/nodes/n1', 'bootstrap', labels({ added: 'x', a: null }), STRATEGIC)
  await call('patch that changes nothing', 'PATCH', '/api/v1/nodes/n1', 'bootstrap', labels({ added: 'x', gone: null }), STRATEGIC)
  await call('patch unknown node', 'PATCH', '/api/v1/nodes/no-such-node', 'bootstrap', labels({ a: '1' }), STRATEGIC)
  await call('patch invalid label key', 'PATCH', '/api/v1/nodes/n1', 'bootstrap', labels({ 'bad key': 'x' }), STRATEGIC)
  await call('patch invalid label value', 'PATCH', '/api/v1/nodes/n1', 'bootstrap', labels({ a: '-x-' }), STRATEGIC)
  await call('patch invalid key prefix', 'PATCH', '/api/v1/nodes/n1', 'bootstrap', labels({ 'Bad.Prefix/a': 'x' }), STRATEGIC)
  await call('patch labels (merge patch)', 'PATCH', '/api/v1/nodes/n2', 'bootstrap', labels({ m: '1', b: null }), MERGE)
  await call('patch with a stale resourceVersion', 'PATCH', '/api/v1/nodes/n2', 'bootstrap', labels({ m: '2' }, { resourceVersion: '1' }), MERGE)
  await call('patch as application/json', 'PATCH', '/api/v1/nodes/n2', 'bootstrap', labels({ m: '3' }), 'application/json')
  await call('patch that is not JSON', 'PATCH', '/api/v1/nodes/n2', 'bootstrap', '{"metadata":', STRATEGIC)
  await call('patch with labels not a map', 'PATCH', '/api/v1/nodes/n2', 'bootstrap', labels('x'), STRATEGIC)
  await call('get node with an unknown token', 'GET', '/api/v1/nodes/n1', 'unknown')
  // the workflows' view of the site (the stack's and the real-Airflow suites' reads): every node
  await call('list all nodes', 'GET', '/api/v1/nodes', 'admin')
  // the join scripts: the InternalIP of every node labelled kubernetes-apiserver=enabled
  await call('list API-server nodes', 'GET', '/api/v1/nodes?labelSelector=kubernetes-apiserver%3Denabled', 'admin')
  await call('list by a set selector', 'GET', '/api/v1/nodes?labelSelector=a%20in%20(1,2),!b', 'admin')
  await call('list by name', 'GET', '/api/v1/nodes?fieldSelector=metadata.name%3Dn2', 'admin')
  await call('list with a bad selector', 'GET', '/api/v1/nodes?labelSelector=a%3D%3D%3Db', 'admin')
  const page = await call('list a page of one', 'GET', '/api/v1/nodes?limit=1', 'admin')
  await call('list the next page', 'GET', `/api/v1/nodes?limit=1&continue=${encodeURIComponent(continueOf(page))}`, 'admin')
  await call('get node after the writes', 'GET', '/api/v1/nodes/n1', 'bootstrap')
  return out
}

/** resourceVersion of a Node, Pod or ConfigMap answer, if it is one. */
export function resourceVersionOf (answer: Answer): string | undefined {
  const kind = (answer.json as { kind?: string } | undefined)?.kind
  return kind === 'Node' || kind === 'Pod' || kind === 'ConfigMap'
    ? (answer.json as { metadata: { resourceVersion?: string } }).metadata.resourceVersion
    : undefined
}

/** The continue token of a list answer: '' on its last page, or for an answer that is no list. */
export function continueOf (answer: Answer): string {
  return (answer.json as { metadata?: { continue?: string } } | undefined)?.metadata?.continue ?? ''
}

/** The recorder of one target's answers, for a scenario. */
export function recorder (target: Target, out: Recorded[]) {
  return async (name: string, method: Method, path: string, role: Role, body?: string, contentType?: string): Promise<Answer> => {
    const answer = await target.call(method, path, role, body, contentType)
    out.push({ call: name, answer })
    return answer
  }
}
