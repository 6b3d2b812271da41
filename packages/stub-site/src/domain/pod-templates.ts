// The pods every deployed node runs: one DaemonSet pod in kube-system and two ReplicaSet pods in ucp, shaped as a
// real API server stores them (with the defaults it fills in) and with the status a kubelet reports.
import { createHash, randomInt, randomUUID } from 'node:crypto'
import type { OwnerReference, Pod } from '../schemas/kube.ts'
import type { SiteNode } from '../schemas/nodes.ts'

export interface PodTemplate {
  /** The `app` label, which tells the node's pods of one template apart. */
  app: string
  namespace: string
  owner: { kind: 'DaemonSet' | 'ReplicaSet', name: string }
  labels: Record<string, string>
  image: string
  /** Tolerations the owner's pod template gives (a DaemonSet's run on cordoned nodes). */
  tolerations: Array<Record<string, unknown>>
}

// what the DefaultTolerationSeconds admission plugin adds to a pod that tolerates neither
const DEFAULT_TOLERATIONS = [
  { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
  { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 }
]

// what the DaemonSet controller gives its pods
const DAEMON_TOLERATIONS = [
  { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute' },
  { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute' },
  { key: 'node.kubernetes.io/unschedulable', operator: 'Exists', effect: 'NoSchedule' }
]

// a Deployment's pods in ucp: their ReplicaSet is named `app-hash`, and the pods carry the hash as pod-template-hash
const ucpDeploymentPods = (app: string, hash: string, image: string): PodTemplate => ({
  app,
  namespace: 'ucp',
  owner: { kind: 'ReplicaSet', name: `${app}-${hash}` },
  labels: { app, 'pod-template-hash': hash },
  image,
  tolerations: DEFAULT_TOLERATIONS
})

export const POD_TEMPLATES: PodTemplate[] = [
  {
    app: 'calico-node',
    namespace: 'kube-system',
    owner: { kind: 'DaemonSet', name: 'calico-node' },
    labels: { app: 'calico-node', 'controller-revision-hash': '6b8d9c7f5d', 'pod-template-generation': '1' },
    image: 'quay.io/calico/node:v3.29.1',
    tolerations: DAEMON_TOLERATIONS
  },
  ucpDeploymentPods('deckhand-api', '5f7c9b8d4b', 'quay.io/airshipit/deckhand:latest-ubuntu_jammy'),
  ucpDeploymentPods('keystone-api', '7d64c9f8b6', 'quay.io/airshipit/keystone:2024.1-ubuntu_jammy')
]

// the alphabet Kubernetes draws generated name suffixes from (no vowels, no look-alikes)
const SUFFIX = 'bcdfghjklmnpqrstvwxz2456789'
/** The five characters Kubernetes appends to a generateName. */
export const generatedNameSuffix = (): string => Array.from({ length: 5 }, () => SUFFIX[randomInt(SUFFIX.length)]).join('')

// one uid per owner for the life of the process, as the owner object would have
const ownerUids = new Map<string, string>()
function ownerReference (template: PodTemplate): OwnerReference {
  const key = `${template.namespace}/${template.owner.kind}/${template.owner.name}`
  let uid = ownerUids.get(key)
  if (uid === undefined) {
    uid = randomUUID()
    ownerUids.set(key, uid)
  }
  return { apiVersion: 'apps/v1', kind: template.owner.kind, name: template.owner.name, uid, controller: true, blockOwnerDeletion: true }
}

/** A new pod of `template` on `node`, running; `podIp` from the site's pod network. */
export function newPod (template: PodTemplate, node: SiteNode, at: string, resourceVersion: number, podIp: string): Pod {
  const generateName = `${template.owner.name}-`
  const container = template.app
  const hostIp = node.internal_ip
  const condition = (type: string) => ({ type, status: 'True', lastProbeTime: null, lastTransitionTime: at })
  return {
    kind: 'Pod',
    apiVersion: 'v1',
    metadata: {
      name: `${generateName}${generatedNameSuffix()}`,
      generateName,
      namespace: template.namespace,
      uid: randomUUID(),
      resourceVersion: String(resourceVersion),
      generation: 1,
      creationTimestamp: at,
      labels: { ...template.labels },
      ownerReferences: [ownerReference(template)]
    },
    spec: {
      containers: [{
        name: container,
        image: template.image,
        resources: {},
        terminationMessagePath: '/dev/termination-log',
        terminationMessagePolicy: 'File',
        imagePullPolicy: template.image.endsWith(':latest') ? 'Always' : 'IfNotPresent'
      }],
      restartPolicy: 'Always',
      terminationGracePeriodSeconds: 30,
      dnsPolicy: 'ClusterFirst',
      serviceAccountName: 'default',
      serviceAccount: 'default',
      automountServiceAccountToken: false,
      nodeName: node.hostname,
      securityContext: {},
      schedulerName: 'default-scheduler',
      tolerations: template.tolerations.map((t) => ({ ...t })),
      priority: 0,
      enableServiceLinks: true,
      preemptionPolicy: 'PreemptLowerPriority'
    },
    status: {
      phase: 'Running',
      conditions: ['PodReadyToStartContainers', 'Initialized', 'Ready', 'ContainersReady', 'PodScheduled'].map(condition),
      ...(hostIp === '' ? {} : { hostIP: hostIp, hostIPs: [{ ip: hostIp }] }),
      podIP: podIp,
      podIPs: [{ ip: podIp }],
      startTime: at,
      containerStatuses: [{
        name: container,
        state: { running: { startedAt: at } },
        lastState: {},
        ready: true,
        restartCount: 0,
        image: template.image,
        imageID: '',
        containerID: `containerd://${createHash('sha256').update(randomUUID()).digest('hex')}`,
        started: true
      }],
      qosClass: 'BestEffort'
    }
  }
}
