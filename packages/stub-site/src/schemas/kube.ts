// Wire shapes of the Kubernetes objects stub-site keeps besides nodes: ConfigMaps (persisted as they are answered)
// and Pods, and the bodies of an eviction and a delete.
import { Type, type Static } from 'typebox'

const StringMapSchema = Type.Record(Type.String(), Type.String())

/** An object's metadata as the stand-in answers it. */
export const ObjectMetaSchema = Type.Object({
  name: Type.String(),
  namespace: Type.String(),
  uid: Type.String(),
  resourceVersion: Type.String(),
  creationTimestamp: Type.String(),
  labels: Type.Optional(StringMapSchema),
  annotations: Type.Optional(StringMapSchema)
})
export type ObjectMeta = Static<typeof ObjectMetaSchema>

/** A core/v1 ConfigMap: what the stand-in keeps, answers and persists. */
export const ConfigMapSchema = Type.Object({
  kind: Type.Literal('ConfigMap'),
  apiVersion: Type.Literal('v1'),
  metadata: ObjectMetaSchema,
  data: Type.Optional(StringMapSchema),
  binaryData: Type.Optional(StringMapSchema),
  immutable: Type.Optional(Type.Boolean())
})
export type ConfigMap = Static<typeof ConfigMapSchema>

export interface OwnerReference {
  apiVersion: string
  kind: string
  name: string
  uid: string
  controller: boolean
  blockOwnerDeletion: boolean
}

/** A core/v1 Pod as far as the stand-in fills it (the fields a real server defaults included). */
export interface Pod {
  kind: 'Pod'
  apiVersion: 'v1'
  metadata: ObjectMeta & {
    generateName: string
    generation: number
    ownerReferences: OwnerReference[]
    deletionTimestamp?: string
    deletionGracePeriodSeconds?: number
  }
  spec: Record<string, unknown> & { nodeName: string, terminationGracePeriodSeconds: number }
  status: Record<string, unknown>
}

/** meta/v1 DeleteOptions, as far as the stand-in reads them. */
export const DeleteOptionsSchema = Type.Object({
  kind: Type.Optional(Type.String()),
  apiVersion: Type.Optional(Type.String()),
  gracePeriodSeconds: Type.Optional(Type.Union([Type.Integer(), Type.Null()])),
  preconditions: Type.Optional(Type.Union([Type.Null(), Type.Object({
    uid: Type.Optional(Type.Union([Type.String(), Type.Null()])),
    resourceVersion: Type.Optional(Type.Union([Type.String(), Type.Null()]))
  })])),
  propagationPolicy: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  dryRun: Type.Optional(Type.Array(Type.String()))
})
export type DeleteOptions = Static<typeof DeleteOptionsSchema>

/** A policy/v1 Eviction. */
export const EvictionSchema = Type.Object({
  kind: Type.Optional(Type.String()),
  apiVersion: Type.Optional(Type.String()),
  metadata: Type.Optional(Type.Object({
    name: Type.Optional(Type.String()),
    namespace: Type.Optional(Type.String())
  })),
  deleteOptions: Type.Optional(Type.Union([DeleteOptionsSchema, Type.Null()]))
})
export type Eviction = Static<typeof EvictionSchema>
