// The namespaces the stand-in's Kubernetes API knows: a fresh cluster's four and `ucp`, where the site's services
// run. Fixed: namespaces cannot be created or deleted here.
import { ObjectNotFoundError } from '../errors.ts'

export const NAMESPACES = ['default', 'kube-node-lease', 'kube-public', 'kube-system', 'ucp'] as const

const KNOWN = new Set<string>(NAMESPACES)

/** Throws `namespaces "<ns>" not found` (404) for a namespace the stand-in does not know, as a create does. */
export function requireNamespace (namespace: string): void {
  if (!KNOWN.has(namespace)) throw new ObjectNotFoundError('namespaces', namespace)
}
