// Wire shapes of stub-site: the Drydock node summary, the control bodies, the nodes file and Kubernetes Node objects.
import { Type, type Static } from 'typebox'
import { ConfigMapSchema } from './kube.ts'

// MAAS machine statuses, passed through by Drydock unchanged
export const STATUS_NAMES = [
  'New', 'Commissioning', 'Failed commissioning', 'Testing', 'Failed testing', 'Ready', 'Allocated',
  'Deploying', 'Deployed', 'Failed deployment', 'Releasing', 'Releasing failed', 'Disk erasing',
  'Failed disk erasing', 'Broken', 'Missing', 'Reserved', 'Retired', 'Rescue mode', 'Entering rescue mode',
  'Failed to enter rescue mode', 'Exiting rescue mode', 'Failed to exit rescue mode'
] as const
export type StatusName = typeof STATUS_NAMES[number]

// lower case, as MAAS reports them
export const POWER_STATES = ['on', 'off', 'unknown', 'error'] as const
export type PowerState = typeof POWER_STATES[number]

export const StatusNameSchema = Type.Enum(STATUS_NAMES)
export const PowerStateSchema = Type.Enum(POWER_STATES)

/** One machine as Drydock's `GET /api/v1.0/nodes` lists it. */
export const DrydockNodeSchema = Type.Object({
  hostname: Type.String(),
  memory: Type.Integer(),
  cpu_count: Type.Integer(),
  status_name: Type.String(),
  boot_mac: Type.String(),
  power_state: Type.String(),
  power_address: Type.String(),
  boot_ip: Type.String()
})
export type DrydockNode = Static<typeof DrydockNodeSchema>

/** Body of `PUT /_stub/nodes/{hostname}/state`; validated by the route so that a bad value is a clear 400. */
export const NodeStateUpdateSchema = Type.Object({
  status_name: Type.Optional(Type.String()),
  power_state: Type.Optional(Type.String())
}, { additionalProperties: false })
export type NodeStateUpdate = Static<typeof NodeStateUpdateSchema>

export const LabelsSchema = Type.Record(Type.String(), Type.String())
export type Labels = Static<typeof LabelsSchema>

/** A node as the nodes file (SITE_NODES_FILE) or the design describes it; everything but the name is optional. */
export const SeedNodeSchema = Type.Object({
  hostname: Type.String({ minLength: 1, maxLength: 253 }),
  status_name: Type.Optional(StatusNameSchema),
  power_state: Type.Optional(PowerStateSchema),
  memory: Type.Optional(Type.Integer({ minimum: 0 })),
  cpu_count: Type.Optional(Type.Integer({ minimum: 0 })),
  boot_mac: Type.Optional(Type.String()),
  power_address: Type.Optional(Type.String()),
  boot_ip: Type.Optional(Type.String()),
  internal_ip: Type.Optional(Type.String()),
  labels: Type.Optional(LabelsSchema)
}, { additionalProperties: false })
export type SeedNode = Static<typeof SeedNodeSchema>

/** The nodes file: `nodes: [...]`, or the list alone. */
export const NodesFileSchema = Type.Union([
  Type.Object({ nodes: Type.Array(SeedNodeSchema) }, { additionalProperties: false }),
  Type.Array(SeedNodeSchema)
])

/** Everything the stand-in remembers about one machine (persisted as is). */
export const SiteNodeSchema = Type.Object({
  hostname: Type.String(),
  status_name: StatusNameSchema,
  power_state: PowerStateSchema,
  memory: Type.Integer(),
  cpu_count: Type.Integer(),
  boot_mac: Type.String(),
  power_address: Type.String(),
  boot_ip: Type.String(),
  internal_ip: Type.String(),
  labels: LabelsSchema,
  uid: Type.String(),
  resource_version: Type.Integer(),
  created_at: Type.String(),
  /** Cordoned: the Node's spec.unschedulable (absent: false). */
  unschedulable: Type.Optional(Type.Boolean()),
  /** Deleted from Kubernetes (DELETE /api/v1/nodes/{name}) and not deployed since; Drydock still knows the machine. */
  kube_removed: Type.Optional(Type.Boolean())
})
export type SiteNode = Static<typeof SiteNodeSchema>

export const SiteStateSchema = Type.Object({
  version: Type.Literal(1),
  resource_version: Type.Integer(),
  nodes: Type.Array(SiteNodeSchema),
  /** Kubernetes ConfigMaps (absent in files written before they were kept). */
  configmaps: Type.Optional(Type.Array(ConfigMapSchema))
})
export type SiteState = Static<typeof SiteStateSchema>

export const FAULT_MODES = ['none', 'error', 'hang'] as const
export type FaultMode = typeof FAULT_MODES[number]

/** Body of `PUT /_stub/fault` and answer of `GET /_stub/fault`. */
export const FaultSchema = Type.Object({
  mode: Type.Enum(FAULT_MODES),
  status: Type.Optional(Type.Integer({ minimum: 500, maximum: 599 }))
}, { additionalProperties: false })
export type Fault = Static<typeof FaultSchema>

/** A Kubernetes core/v1 Node, as far as the stand-in fills it. */
export interface KubeNode {
  kind: 'Node'
  apiVersion: 'v1'
  metadata: {
    name: string
    uid: string
    resourceVersion: string
    creationTimestamp: string
    labels: Labels
  }
  spec: { unschedulable?: true }
  status: {
    addresses: Array<{ type: string, address: string }>
    conditions: Array<{
      type: string
      status: string
      reason: string
      message: string
      lastHeartbeatTime: string
      lastTransitionTime: string
    }>
    daemonEndpoints: { kubeletEndpoint: { Port: number } }
    nodeInfo: Record<string, string>
  }
}

export interface KubeNodeList {
  kind: 'NodeList'
  apiVersion: 'v1'
  metadata: { resourceVersion: string, continue?: string, remainingItemCount?: number }
  items: Array<Omit<KubeNode, 'kind' | 'apiVersion'>>
}

/** Kubernetes' error object (meta/v1 Status). */
export interface KubeStatus {
  kind: 'Status'
  apiVersion: 'v1'
  metadata: Record<string, never>
  status: 'Failure'
  message: string
  reason: string
  details?: KubeStatusDetails
  code: number
}

export interface KubeStatusDetails {
  name?: string
  kind?: string
  uid?: string
  causes?: Array<{ reason: string, message: string, field?: string }>
}

/** Kubernetes' answer to a delete that returns no object, and to an eviction (meta/v1 Status, Success). */
export interface KubeSuccess {
  kind: 'Status'
  apiVersion: 'v1'
  metadata: Record<string, never>
  status: 'Success'
  details?: KubeStatusDetails
  code?: number
}
