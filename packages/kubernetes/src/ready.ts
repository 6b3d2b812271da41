// When a started API server is ready for the tests: /readyz answers ok to the admin, the bootstrap identity's role
// and binding are written, and the authorizer has seen them (the bootstrap identity may read a node). Bounded: the
// process exiting or the deadline ends the wait with the reason.
import type { GroupProcess } from '@slipway/common/process-group'
import type { KubeApi } from './api.ts'
import type { Identities } from './pki.ts'

const POLL_MS = 200

async function pause (): Promise<void> { await new Promise((resolve) => setTimeout(resolve, POLL_MS)) }

export async function waitReady (api: KubeApi, token: string, process: GroupProcess, deadline: number): Promise<void> {
  let gone = false
  process.exited.then(() => { gone = true }, () => {})
  let last = 'no answer yet'
  while (Date.now() < deadline) {
    if (gone) throw new Error(`kube-apiserver exited while starting: ${process.tail().slice(-5).join(' | ')}`)
    try {
      const answer = await api.call('GET', '/readyz', { token })
      if (answer.status === 200) return
      last = `readyz ${answer.status}: ${answer.text.split('\n').filter((l) => l.includes('[-]')).join(' ')}`
    } catch (error) {
      last = (error as Error).message
    }
    await pause()
  }
  throw new Error(`kube-apiserver not ready in time (${last}): ${process.tail().slice(-3).join(' | ')}`)
}

/** The bootstrap service's rights on a real cluster: get and patch nodes, nothing else. */
export const BOOTSTRAP_ROLE = 'slipway-bootstrap-node-labels'

export async function grantBootstrap (api: KubeApi, adminToken: string, user: string): Promise<void> {
  const role = {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRole',
    metadata: { name: BOOTSTRAP_ROLE },
    rules: [{ apiGroups: [''], resources: ['nodes'], verbs: ['get', 'patch'] }]
  }
  const binding = {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRoleBinding',
    metadata: { name: BOOTSTRAP_ROLE },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: BOOTSTRAP_ROLE },
    subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: user }]
  }
  const grants = [
    ['/apis/rbac.authorization.k8s.io/v1/clusterroles', role],
    ['/apis/rbac.authorization.k8s.io/v1/clusterrolebindings', binding]
  ] as const
  for (const [path, body] of grants) {
    const answer = await api.call('POST', path, { token: adminToken, body })
    if (answer.status !== 201) throw new Error(`POST ${path} answered ${answer.status}: ${answer.text}`)
  }
}

/** Waits until the authorizer lets the bootstrap identity read nodes (a missing node: 404, no longer 403). */
export async function waitGranted (api: KubeApi, ids: Identities, deadline: number): Promise<void> {
  let last = 0
  while (Date.now() < deadline) {
    last = (await api.call('GET', '/api/v1/nodes/slipway-no-such-node', { token: ids.bootstrap.token })).status
    if (last === 404) return
    await pause()
  }
  throw new Error(`the bootstrap identity's role was not in force in time (a node read answered ${last})`)
}
