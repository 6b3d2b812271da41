// Reading a helm release's objects back from the real API server: where each kind lives in the API, every object that
// carries the release's label (namespaced kinds across all namespaces, and the cluster-wide ones), and
// SubjectAccessReviews asking what a service account may do.
import type { Kubernetes } from '../../src/kubernetes.ts'
import type { KubeObject } from './chart.ts'

/** The collection path of each kind the chart makes, and whether it is namespaced. */
export const KINDS: Record<string, { path: string, namespaced: boolean }> = {
  ConfigMap: { path: '/api/v1/configmaps', namespaced: true },
  Secret: { path: '/api/v1/secrets', namespaced: true },
  Service: { path: '/api/v1/services', namespaced: true },
  ServiceAccount: { path: '/api/v1/serviceaccounts', namespaced: true },
  PersistentVolumeClaim: { path: '/api/v1/persistentvolumeclaims', namespaced: true },
  Deployment: { path: '/apis/apps/v1/deployments', namespaced: true },
  PodDisruptionBudget: { path: '/apis/policy/v1/poddisruptionbudgets', namespaced: true },
  NetworkPolicy: { path: '/apis/networking.k8s.io/v1/networkpolicies', namespaced: true },
  Role: { path: '/apis/rbac.authorization.k8s.io/v1/roles', namespaced: true },
  RoleBinding: { path: '/apis/rbac.authorization.k8s.io/v1/rolebindings', namespaced: true },
  ClusterRole: { path: '/apis/rbac.authorization.k8s.io/v1/clusterroles', namespaced: false },
  ClusterRoleBinding: { path: '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings', namespaced: false }
}

/** The path of one object: `/apis/apps/v1/namespaces/ucp/deployments/x`. */
export function objectPath (kind: string, name: string, namespace?: string): string {
  const where = KINDS[kind]
  if (where === undefined) throw new Error(`no API path known for ${kind}`)
  if (!where.namespaced) return `${where.path}/${name}`
  const slash = where.path.lastIndexOf('/')
  return `${where.path.slice(0, slash)}/namespaces/${namespace ?? ''}${where.path.slice(slash)}/${name}`
}

/** An object read as the admin: its JSON, or null when the server has none of that name. */
export async function read (kube: Kubernetes, kind: string, name: string, namespace?: string): Promise<KubeObject | null> {
  const answer = await kube.api.call('GET', objectPath(kind, name, namespace), { token: kube.identities.admin.token })
  if (answer.status === 404) return null
  if (answer.status !== 200) throw new Error(`GET ${kind} ${name} answered ${answer.status}: ${answer.text}`)
  return answer.json as KubeObject
}

/** `Kind/namespace/name` of every object of every kind above that matches the label selector, sorted. */
export async function labelled (kube: Kubernetes, selector: string): Promise<string[]> {
  const out: string[] = []
  for (const [kind, { path }] of Object.entries(KINDS)) {
    const answer = await kube.api.call('GET', `${path}?labelSelector=${encodeURIComponent(selector)}`, { token: kube.identities.admin.token })
    if (answer.status !== 200) throw new Error(`GET ${path} answered ${answer.status}: ${answer.text}`)
    for (const item of (answer.json as { items: KubeObject[] }).items) {
      out.push(`${kind}/${item.metadata.namespace === undefined ? '' : `${item.metadata.namespace}/`}${item.metadata.name}`)
    }
  }
  return out.sort()
}

export interface Access {
  verb: string
  resource: string
  subresource?: string
  namespace?: string
  name?: string
  group?: string
}

/** Whether the API server's authorizer lets the service account do it (a SubjectAccessReview, asked as the admin). */
export async function allowed (kube: Kubernetes, account: { namespace: string, name: string }, access: Access): Promise<boolean> {
  const answer = await kube.api.call('POST', '/apis/authorization.k8s.io/v1/subjectaccessreviews', {
    token: kube.identities.admin.token,
    body: {
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SubjectAccessReview',
      spec: {
        user: `system:serviceaccount:${account.namespace}:${account.name}`,
        groups: ['system:serviceaccounts', `system:serviceaccounts:${account.namespace}`, 'system:authenticated'],
        resourceAttributes: { group: '', ...access }
      }
    }
  })
  if (answer.status !== 201) throw new Error(`SubjectAccessReview answered ${answer.status}: ${answer.text}`)
  return (answer.json as { status: { allowed: boolean } }).status.allowed
}

/** Waits (30 s at most) until the authorizer has seen the release's bindings: the access is allowed. */
export async function waitAllowed (kube: Kubernetes, account: { namespace: string, name: string }, access: Access): Promise<void> {
  const deadline = Date.now() + 30_000
  while (Date.now() < deadline) {
    if (await allowed(kube, account, access)) return
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  throw new Error(`${account.name} was not allowed to ${access.verb} ${access.resource} in time`)
}

/** A token for the service account from the TokenRequest API (an hour). */
export async function accountToken (kube: Kubernetes, namespace: string, name: string): Promise<string> {
  const answer = await kube.api.call('POST', `/api/v1/namespaces/${namespace}/serviceaccounts/${name}/token`, {
    token: kube.identities.admin.token,
    body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { expirationSeconds: 3600 } }
  })
  if (answer.status !== 201) throw new Error(`TokenRequest for ${name} answered ${answer.status}: ${answer.text}`)
  return (answer.json as { status: { token: string } }).status.token
}
