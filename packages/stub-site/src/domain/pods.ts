// The site's pods, played as the API server and the kubelet together: every node that reaches Deployed runs the
// fixed pods of pod-templates.ts; pods are read, listed, evicted (refused as a PodDisruptionBudget would for the
// pods the refusal selector matches) and deleted; a graceful delete leaves the pod terminating until the
// "kubelet" removes it after its grace period, capped by `terminationMs`. Not persisted: a restarted stand-in
// gives every deployed node its pods anew.
import { BadRequestError } from '@slipway/common'
import { EvictionRefusedError, NamespaceMismatchError, ObjectConflictError, ObjectNotFoundError } from '../errors.ts'
import type { DeleteOptions, Eviction, Pod } from '../schemas/kube.ts'
import type { SiteNode } from '../schemas/nodes.ts'
import type { Inventory } from './inventory.ts'
import { createObjectList, type ObjectListOptions, type ObjectPage } from './object-list.ts'
import { newPod, POD_TEMPLATES } from './pod-templates.ts'
import { parseSelector, type LabelTest } from './selector.ts'

export interface PodsOptions {
  inventory: Inventory
  /** The longest a terminating pod stays before the kubelet removes it, whatever its grace period. */
  terminationMs: number
  /** Label selector of the pods whose eviction a disruption budget refuses; '' none. */
  refused?: string
  now?: () => Date
}

// the field selectors Kubernetes takes for pods (pkg/apis/core/v1 conversion), each read from the pod
const str = (value: unknown): string => typeof value === 'string' ? value : ''
const POD_FIELDS: Record<string, (pod: Pod) => string> = {
  'metadata.name': (pod) => pod.metadata.name,
  'metadata.namespace': (pod) => pod.metadata.namespace,
  'spec.nodeName': (pod) => pod.spec.nodeName,
  'spec.restartPolicy': (pod) => str(pod.spec.restartPolicy),
  'spec.schedulerName': (pod) => str(pod.spec.schedulerName),
  'spec.serviceAccountName': (pod) => str(pod.spec.serviceAccountName),
  'spec.hostNetwork': (pod) => String(pod.spec.hostNetwork === true),
  'status.phase': (pod) => str(pod.status.phase),
  'status.podIP': (pod) => str(pod.status.podIP),
  'status.podIPs': (pod) => str(pod.status.podIP),
  'status.nominatedNodeName': (pod) => str(pod.status.nominatedNodeName)
}

// the name a budget refusing an eviction goes by in the 429's cause
export const REFUSING_BUDGET = 'slipway-refused-evictions'

export function createPods (options: PodsOptions) {
  const { inventory, terminationMs } = options
  const now = options.now ?? (() => new Date())
  const pods = new Map<string, Pod>()
  const timers = new Map<string, NodeJS.Timeout>()
  // the node registrations (uids) whose pods were made, so that each registration gets them once
  const seeded = new Set<string>()
  let refused = options.refused ?? ''
  let refusedTest: LabelTest | undefined = refused === '' ? undefined : parseSelector(refused)
  let podAddresses = 0
  const key = (namespace: string, name: string): string => `${namespace}/${name}`
  const timestamp = (at: Date = now()): string => at.toISOString().replace(/\.\d{3}Z$/, 'Z')
  const list = createObjectList<Pod>({
    read: () => { sync(); return { items: [...pods.values()], resourceVersion: inventory.resourceVersion() } },
    fields: POD_FIELDS
  })

  function nextPodIp (): string {
    podAddresses += 1
    return `10.97.${Math.floor(podAddresses / 250) % 250}.${(podAddresses % 250) + 2}`
  }

  /** Gives `node` each of its templates' pods it does not run (or only runs terminating). */
  function ensureFor (node: SiteNode): void {
    seeded.add(node.uid)
    for (const template of POD_TEMPLATES) {
      const running = [...pods.values()].some((pod) => pod.spec.nodeName === node.hostname &&
        pod.metadata.namespace === template.namespace && pod.metadata.labels?.app === template.app &&
        pod.metadata.deletionTimestamp === undefined)
      if (running) continue
      const pod = newPod(template, node, timestamp(), inventory.nextResourceVersion(), nextPodIp())
      pods.set(key(pod.metadata.namespace, pod.metadata.name), pod)
    }
  }

  /** Each registration of a deployed node (and each deploy again) gets its pods once, at the first read after it. */
  function sync (): void {
    for (const node of inventory.list()) {
      if (node.status_name === 'Deployed' && node.kube_removed !== true && !seeded.has(node.uid)) ensureFor(node)
    }
  }

  function remove (pod: Pod): void {
    const id = key(pod.metadata.namespace, pod.metadata.name)
    clearTimeout(timers.get(id))
    timers.delete(id)
    pods.delete(id)
  }

  // Kubernetes' pod garbage collector deletes the pods of a node that is gone
  inventory.onRemoved((node) => {
    for (const pod of [...pods.values()]) if (pod.spec.nodeName === node.hostname) remove(pod)
  })
  // made at the next read of pods, so that a deploy alone moves no resource version but the node's
  inventory.onDeployed((node) => { seeded.delete(node.uid) })

  function get (namespace: string, name: string): Pod {
    sync()
    const pod = pods.get(key(namespace, name))
    if (pod === undefined) throw new ObjectNotFoundError('pods', name)
    return pod
  }

  function page (query: ObjectListOptions, namespace?: string): ObjectPage<Pod> {
    return list.page(query, namespace)
  }

  /**
   * Deletes a pod as the API server does: with a grace period of 0 at once, else marked terminating
   * (deletionTimestamp, deletionGracePeriodSeconds) for the kubelet to remove. Answers the pod as it is after.
   */
  function deletePod (namespace: string, name: string, deleteOptions: DeleteOptions | null | undefined): Pod {
    const pod = get(namespace, name)
    const preconditions = deleteOptions?.preconditions
    if (typeof preconditions?.uid === 'string' && preconditions.uid !== pod.metadata.uid) {
      throw new ObjectConflictError('pods', name)
    }
    if (typeof preconditions?.resourceVersion === 'string' && preconditions.resourceVersion !== pod.metadata.resourceVersion) {
      throw new ObjectConflictError('pods', name)
    }
    const asked = deleteOptions?.gracePeriodSeconds
    let grace = typeof asked === 'number' ? asked : pod.spec.terminationGracePeriodSeconds
    if (grace < 0) grace = 1
    const current = pod.metadata.deletionGracePeriodSeconds
    // a second delete only shortens the grace period
    if (current !== undefined && grace >= current) return pod
    const at = now()
    // marked for deletion first, even when removed at once (the answer shows the mark)
    const terminating: Pod = {
      ...pod,
      metadata: {
        ...pod.metadata,
        resourceVersion: String(inventory.nextResourceVersion()),
        generation: pod.metadata.generation + (current === undefined ? 1 : 0),
        deletionTimestamp: timestamp(new Date(at.getTime() + grace * 1000)),
        deletionGracePeriodSeconds: grace
      }
    }
    if (grace === 0) {
      remove(pod)
      return terminating
    }
    const id = key(namespace, name)
    pods.set(id, terminating)
    clearTimeout(timers.get(id))
    const timer = setTimeout(() => {
      if (pods.get(id)?.metadata.uid === pod.metadata.uid) remove(terminating)
    }, Math.min(grace * 1000, terminationMs))
    timer.unref()
    timers.set(id, timer)
    return terminating
  }

  /** An eviction: the body must name the pod of the URL; refused (429) for a pod the refusal selector matches. */
  function evict (namespace: string, name: string, eviction: Eviction): void {
    const bodyName = eviction.metadata?.name ?? ''
    if (bodyName !== name) {
      throw new BadRequestError('Name mismatch', 'name in URL does not match name in Eviction object', { errorType: 'BadRequest' })
    }
    const bodyNamespace = eviction.metadata?.namespace
    if (bodyNamespace !== undefined && bodyNamespace !== '' && bodyNamespace !== namespace) throw new NamespaceMismatchError()
    const pod = get(namespace, name)
    // a pod already terminating is not guarded by its budget any more
    if (pod.metadata.deletionTimestamp === undefined && refusedTest?.(pod.metadata.labels ?? {}) === true) {
      throw new EvictionRefusedError(REFUSING_BUDGET)
    }
    markDisruptionTarget(pod)
    deletePod(namespace, name, eviction.deleteOptions)
  }

  // an evicted pod is first given the DisruptionTarget condition, saying why it goes (once)
  function markDisruptionTarget (pod: Pod): void {
    const conditions = (pod.status.conditions ?? []) as Array<{ type: string }>
    if (conditions.some((c) => c.type === 'DisruptionTarget')) return
    const condition = {
      type: 'DisruptionTarget',
      status: 'True',
      lastProbeTime: null,
      lastTransitionTime: timestamp(),
      reason: 'EvictionByEvictionAPI',
      message: 'Eviction API: evicting'
    }
    pods.set(key(pod.metadata.namespace, pod.metadata.name), {
      ...pod,
      metadata: { ...pod.metadata, resourceVersion: String(inventory.nextResourceVersion()) },
      status: { ...pod.status, conditions: [...conditions, condition] }
    })
  }

  /** Sets the label selector of the pods whose eviction is refused ('' none); a bad selector is a 400. */
  function setRefused (selector: string): string {
    refusedTest = selector === '' ? undefined : parseSelector(selector)
    refused = selector
    return refused
  }

  function close (): void {
    for (const timer of timers.values()) clearTimeout(timer)
    timers.clear()
  }

  return { get, page, delete: deletePod, evict, refused: () => refused, setRefused, close }
}

export type Pods = ReturnType<typeof createPods>
