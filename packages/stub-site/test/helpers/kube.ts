// What the tests of the Kubernetes node API share: the example site's nodes, label patches, and the labels every
// node carries from its kubelet.
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
