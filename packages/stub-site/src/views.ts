// How a node looks on the wire: Drydock's machine summary and a Kubernetes core/v1 Node.
import type { NodePage } from './domain/node-list.ts'
import type { DrydockNode, KubeNode, KubeNodeList, SiteNode } from './schemas/nodes.ts'

export function toDrydockNode (node: SiteNode): DrydockNode {
  return {
    hostname: node.hostname,
    memory: node.memory,
    cpu_count: node.cpu_count,
    status_name: node.status_name,
    boot_mac: node.boot_mac,
    power_state: node.power_state,
    power_address: node.power_address,
    boot_ip: node.boot_ip
  }
}

// the kubelet reports Ready once the machine is deployed and running; before that the node has no kubelet
function readyCondition (node: SiteNode): KubeNode['status']['conditions'][number] {
  const ready = node.status_name === 'Deployed' && node.power_state === 'on'
  return {
    type: 'Ready',
    status: ready ? 'True' : 'Unknown',
    reason: ready ? 'KubeletReady' : 'NodeStatusUnknown',
    message: ready ? 'kubelet is posting ready status' : `machine is ${node.status_name}, power ${node.power_state}`,
    lastHeartbeatTime: node.created_at,
    lastTransitionTime: node.created_at
  }
}

/** What a kubelet reports about its machine: every field is always sent, empty when not known. */
function nodeInfo (node: SiteNode): Record<string, string> {
  return {
    machineID: node.uid.replaceAll('-', ''),
    systemUUID: node.uid,
    bootID: '',
    kernelVersion: '',
    osImage: '',
    containerRuntimeVersion: '',
    kubeletVersion: '',
    kubeProxyVersion: '',
    operatingSystem: 'linux',
    architecture: node.labels['kubernetes.io/arch'] ?? 'amd64'
  }
}

// the kubelet's own port, which it reports once registered
const KUBELET_PORT = 10250

export function toKubeNode (node: SiteNode): KubeNode {
  const addresses = [{ type: 'Hostname', address: node.hostname }]
  if (node.internal_ip !== '') addresses.unshift({ type: 'InternalIP', address: node.internal_ip })
  return {
    kind: 'Node',
    apiVersion: 'v1',
    metadata: {
      name: node.hostname,
      uid: node.uid,
      resourceVersion: String(node.resource_version),
      creationTimestamp: node.created_at,
      // a node without annotations has no annotations field at all
      labels: { ...node.labels }
    },
    // the API server alone adds no unschedulable taint: the node lifecycle controller would
    spec: node.unschedulable === true ? { unschedulable: true } : {},
    status: {
      addresses,
      conditions: [readyCondition(node)],
      daemonEndpoints: { kubeletEndpoint: { Port: KUBELET_PORT } },
      nodeInfo: nodeInfo(node)
    }
  }
}

export function toKubeNodeList (page: NodePage): KubeNodeList {
  const metadata: KubeNodeList['metadata'] = { resourceVersion: String(page.resourceVersion) }
  if (page.continue !== undefined) metadata.continue = page.continue
  if (page.remainingItemCount !== undefined) metadata.remainingItemCount = page.remainingItemCount
  // the items of a list name neither their kind nor their apiVersion: the list's own say it
  const items = page.nodes.map((node) => {
    const { kind: _kind, apiVersion: _apiVersion, ...item } = toKubeNode(node)
    return item
  })
  return { kind: 'NodeList', apiVersion: 'v1', metadata, items }
}
