// The machines the site knows: their provisioning and power states, addresses, Kubernetes labels and cordon, and
// whether Kubernetes still holds their Node. All changes go through here, so each one bumps the resource version
// (one counter for every Kubernetes object of the site, as etcd's revision) and is persisted.
import { createHash, randomUUID } from 'node:crypto'
import { BadRequestError } from '@slipway/common'
import { InvalidNodeError, PatchTypeError, NameMismatchError, NodeConflictError, NodeNotFoundError } from '../errors.ts'
import {
  POWER_STATES, STATUS_NAMES, type NodeStateUpdate, type PowerState, type SeedNode, type SiteNode, type SiteState, type StatusName
} from '../schemas/nodes.ts'
import { applyLabelsPatch, labelProblems, type PatchKind } from './labels.ts'

export interface InventoryOptions {
  /** State to start from (persisted earlier); absent: no nodes. */
  initial?: SiteState | undefined
  /** Called with the whole state after every change. */
  persist?: ((state: SiteState) => void) | undefined
  now?: () => Date
}

// a MAC in the locally administered QEMU range, stable per hostname, for nodes whose design gives none
function macFor (hostname: string): string {
  const hash = createHash('sha256').update(hostname).digest()
  return ['52', '54', '00', ...[0, 1, 2].map((i) => (hash[i] ?? 0).toString(16).padStart(2, '0'))].join(':')
}

// Kubernetes adds these to every node it registers; the bootstrap service must never remove them (their keys
// contain kubernetes.io)
function systemLabels (hostname: string): Record<string, string> {
  return {
    'kubernetes.io/hostname': hostname,
    'kubernetes.io/os': 'linux',
    'kubernetes.io/arch': 'amd64',
    'beta.kubernetes.io/os': 'linux',
    'beta.kubernetes.io/arch': 'amd64'
  }
}

// a merge or strategic merge patch sets metadata.<field> to a string, or deletes it with null (Kubernetes then reads '')
function patchedMetadata (body: unknown, field: 'name' | 'resourceVersion'): string | undefined {
  const metadata = (body as { metadata?: Record<string, unknown> }).metadata
  if (metadata === undefined || !(field in metadata)) return undefined
  const value = metadata[field]
  if (value === null) return ''
  if (typeof value !== 'string') {
    throw new PatchTypeError(body,
      `metadata.${field} must be a string, got ${Array.isArray(value) ? 'array' : typeof value}`)
  }
  return value
}

/**
 * The node's `spec.unschedulable` after a merge or strategic merge patch: `true` cordons, `false` or `null`
 * uncordons, `spec: null` drops the whole spec. Throws PatchTypeError for a spec or a value of the wrong type.
 */
function patchedUnschedulable (current: boolean, body: unknown): boolean {
  if (typeof body !== 'object' || body === null || !('spec' in body)) return current
  const spec = (body as { spec: unknown }).spec
  if (spec === null) return false
  if (typeof spec !== 'object' || Array.isArray(spec)) throw new PatchTypeError(body, 'spec must be an object')
  if (!('unschedulable' in spec)) return current
  const value = (spec as { unschedulable: unknown }).unschedulable
  if (value === null) return false
  if (typeof value !== 'boolean') {
    throw new PatchTypeError(body, `spec.unschedulable must be a boolean, got ${Array.isArray(value) ? 'array' : typeof value}`)
  }
  return value
}

const STATUS_SET = new Set<string>(STATUS_NAMES)
const POWER_SET = new Set<string>(POWER_STATES)

export function createInventory (options: InventoryOptions = {}) {
  const now = options.now ?? (() => new Date())
  const nodes = new Map<string, SiteNode>()
  let resourceVersion = options.initial?.resource_version ?? 0
  for (const node of options.initial?.nodes ?? []) nodes.set(node.hostname, node)
  const deployedListeners: Array<(node: SiteNode) => void> = []
  const removedListeners: Array<(node: SiteNode) => void> = []

  function snapshot (): SiteState {
    return { version: 1, resource_version: resourceVersion, nodes: [...nodes.values()] }
  }

  function save (): void {
    options.persist?.(snapshot())
  }

  function stamp (node: SiteNode): SiteNode {
    resourceVersion += 1
    const stamped = { ...node, resource_version: resourceVersion }
    nodes.set(node.hostname, stamped)
    return stamped
  }

  function list (): SiteNode[] {
    return [...nodes.values()].sort((a, b) => a.hostname.localeCompare(b.hostname))
  }

  function find (hostname: string): SiteNode | undefined {
    return nodes.get(hostname)
  }

  function get (hostname: string): SiteNode {
    const node = nodes.get(hostname)
    if (node === undefined) throw new NodeNotFoundError(hostname)
    return node
  }

  /** The node as Kubernetes holds it: NodeNotFoundError for one Drydock knows but Kubernetes no longer does. */
  function getKube (hostname: string): SiteNode {
    const node = get(hostname)
    if (node.kube_removed === true) throw new NodeNotFoundError(hostname)
    return node
  }

  /** The next resource version, for an object of the site's Kubernetes API other than a node. */
  function nextResourceVersion (): number {
    resourceVersion += 1
    return resourceVersion
  }

  const timestamp = (): string => now().toISOString().replace(/\.\d{3}Z$/, 'Z')

  /**
   * Adds the seeds whose hostname is not known yet; known nodes keep their state (the machine is the same,
   * the design only describes it). New nodes are `Ready` and powered `off` unless the seed says otherwise.
   */
  function addMissing (seeds: SeedNode[]): SiteNode[] {
    const added: SiteNode[] = []
    for (const seed of seeds) {
      if (nodes.has(seed.hostname)) continue
      const bootIp = seed.boot_ip ?? ''
      added.push(stamp({
        hostname: seed.hostname,
        status_name: seed.status_name ?? 'Ready',
        power_state: seed.power_state ?? 'off',
        memory: seed.memory ?? 131072,
        cpu_count: seed.cpu_count ?? 48,
        boot_mac: seed.boot_mac ?? macFor(seed.hostname),
        power_address: seed.power_address ?? '',
        boot_ip: bootIp,
        internal_ip: seed.internal_ip ?? bootIp,
        labels: { ...systemLabels(seed.hostname), ...seed.labels },
        uid: randomUUID(),
        resource_version: 0,
        created_at: timestamp()
      }))
    }
    if (added.length > 0) save()
    return added
  }

  /** Moves a node to another provisioning status and/or power state (the engine's simulated steps). */
  function setState (hostname: string, update: NodeStateUpdate): SiteNode {
    const node = get(hostname)
    if (update.status_name === undefined && update.power_state === undefined) {
      throw new BadRequestError('Invalid node state', 'Give status_name, power_state or both')
    }
    if (update.status_name !== undefined && !STATUS_SET.has(update.status_name)) {
      throw new BadRequestError('Invalid node state',
        `status_name ${JSON.stringify(update.status_name)} is not one of: ${STATUS_NAMES.join(', ')}`)
    }
    if (update.power_state !== undefined && !POWER_SET.has(update.power_state)) {
      throw new BadRequestError('Invalid node state',
        `power_state ${JSON.stringify(update.power_state)} is not one of: ${POWER_STATES.join(', ')}`)
    }
    // a machine deployed (again) runs a kubelet that registers its Node anew when Kubernetes no longer holds it
    const deployed = update.status_name === 'Deployed' && (node.status_name !== 'Deployed' || node.kube_removed === true)
    const registered = deployed && node.kube_removed === true
      ? { uid: randomUUID(), created_at: timestamp(), unschedulable: undefined, kube_removed: undefined }
      : {}
    const changed = stamp({
      ...node,
      ...registered,
      status_name: (update.status_name ?? node.status_name) as StatusName,
      power_state: (update.power_state ?? node.power_state) as PowerState
    })
    save()
    if (deployed) for (const listener of deployedListeners) listener(changed)
    return changed
  }

  /** Deletes the node's Kubernetes Node (DELETE /api/v1/nodes/{name}); Drydock keeps the machine. */
  function removeFromKube (hostname: string): SiteNode {
    const node = getKube(hostname)
    const removed = stamp({ ...node, kube_removed: true, unschedulable: undefined })
    save()
    for (const listener of removedListeners) listener(removed)
    return node
  }

  /** Calls `listener` each time a node reaches `Deployed` (again, or Kubernetes gets its Node back). */
  function onDeployed (listener: (node: SiteNode) => void): void { deployedListeners.push(listener) }
  /** Calls `listener` each time Kubernetes deletes a node's Node. */
  function onRemoved (listener: (node: SiteNode) => void): void { removedListeners.push(listener) }

  /**
   * Applies a Kubernetes merge or strategic merge patch body to the node's labels and `spec.unschedulable` (cordon);
   * nothing changes on error.
   * Kubernetes' order: the patch must decode (400), name the node it is sent to (400), carry the current
   * resourceVersion if it carries one (409, even when it would change nothing), and yield valid labels (422).
   */
  function patchNode (hostname: string, body: unknown, kind: PatchKind): SiteNode {
    const node = getKube(hostname)
    const labels = applyLabelsPatch(node.labels, body, kind)
    const unschedulable = patchedUnschedulable(node.unschedulable === true, body)
    const name = patchedMetadata(body, 'name')
    if (name !== undefined && name !== hostname) throw new NameMismatchError(name, hostname)
    // an empty resourceVersion is no precondition: Kubernetes then updates unconditionally
    const version = patchedMetadata(body, 'resourceVersion')
    if (version !== undefined && version !== '' && version !== String(node.resource_version)) throw new NodeConflictError(hostname)
    const problems = labelProblems(labels)
    if (problems.length > 0) throw new InvalidNodeError(hostname, problems)
    const same = Object.keys(labels).length === Object.keys(node.labels).length &&
      Object.entries(labels).every(([k, v]) => node.labels[k] === v)
    // Kubernetes leaves the resource version alone for a patch that changes nothing
    if (same && unschedulable === (node.unschedulable === true)) return node
    const changed = stamp({ ...node, labels, unschedulable: unschedulable ? true : undefined })
    save()
    return changed
  }

  return {
    list,
    find,
    get,
    getKube,
    addMissing,
    setState,
    patchNode,
    removeFromKube,
    onDeployed,
    onRemoved,
    nextResourceVersion,
    /** Persists the state now (a change to another Kubernetes object of the site). */
    save,
    snapshot,
    resourceVersion: () => resourceVersion
  }
}

export type Inventory = ReturnType<typeof createInventory>
