// What the tests of the Kubernetes API share: the example site's nodes, label patches, the labels every node carries
// from its kubelet, pods and evictions, and the Status body of a failed request.
import { EXAMPLE_NODES_FILE, buildTestApp } from './site.ts'

export const MERGE = 'application/merge-patch+json'
export const STRATEGIC = 'application/strategic-merge-patch+json'

export async function appWithNodes () {
  return await buildTestApp({ SITE_NODES_FILE: EXAMPLE_NODES_FILE })
}

export function labelPatch (labels: unknown, metadata: Record<string, unknown> = {}) {
  return JSON.stringify({ metadata: { ...metadata, labels } })
}

export function names (list: { items: Array<{ metadata: { name: string } }> }): string[] {
  return list.items.map((n) => n.metadata.name)
}

export const SYSTEM_LABELS = {
  'kubernetes.io/hostname': 'rack1-n01',
  'kubernetes.io/os': 'linux',
  'kubernetes.io/arch': 'amd64',
  'beta.kubernetes.io/os': 'linux',
  'beta.kubernetes.io/arch': 'amd64'
}

export interface PodItem { metadata: { name: string, namespace: string, labels: Record<string, string>, deletionTimestamp?: string } }

/** The pods a list answer holds, by `namespace/name`. */
export function podKeys (list: { items: PodItem[] }): string[] {
  return list.items.map((p) => `${p.metadata.namespace}/${p.metadata.name}`)
}

/** The pod of `app` among a list answer's pods. */
export function podOf (list: { items: PodItem[] }, app: string): PodItem {
  const pod = list.items.find((p) => p.metadata.labels.app === app)
  if (pod === undefined) throw new Error(`no ${app} pod in ${JSON.stringify(podKeys(list))}`)
  return pod
}

export function eviction (name: string, namespace: string, gracePeriodSeconds?: number) {
  return {
    apiVersion: 'policy/v1',
    kind: 'Eviction',
    metadata: { name, namespace },
    ...(gracePeriodSeconds === undefined ? {} : { deleteOptions: { gracePeriodSeconds } })
  }
}

/** Polls `check` until it answers true, every 50 ms, failing after `deadlineMs` (generous: a loaded machine is slow). */
export async function until (check: () => Promise<boolean>, deadlineMs = 20_000): Promise<void> {
  const end = Date.now() + deadlineMs
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`not reached within ${deadlineMs} ms`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

/** The whole Status body the API server answers a failed request with; `details` only when given. */
export function failureStatus (code: number, reason: string, message: unknown, details?: Record<string, unknown>) {
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, ...(details === undefined ? {} : { details }), code }
}
