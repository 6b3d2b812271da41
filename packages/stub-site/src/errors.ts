// The stand-in's own error conditions; each carries what a Kubernetes Status body needs besides the status.
import { ApiError, BadRequestError, NotFoundError } from '@slipway/common'

/** What a Kubernetes Status adds to an error: `details` naming the object and its causes. */
export interface KubeDetails {
  name?: string
  kind?: string
  causes?: Array<{ reason: string, message: string, field: string }>
}

/** The node is not in the inventory: Drydock and Kubernetes both answer 404. */
export class NodeNotFoundError extends NotFoundError {
  readonly kube: KubeDetails
  constructor (hostname: string) {
    // Kubernetes' wording, so a client matching on it works against the stand-in
    super('Node not found', `nodes "${hostname}" not found`, { errorType: 'NodeNotFound' })
    this.kube = { name: hostname, kind: 'nodes' }
  }
}

/** A patch that decodes but yields an invalid Node (Kubernetes: 422, reason Invalid). */
export class InvalidNodeError extends ApiError {
  readonly kube: KubeDetails
  constructor (hostname: string, causes: Array<{ field: string, message: string }>) {
    const text = causes.map((c) => `${c.field}: ${c.message}`).join(', ')
    super(422, 'Invalid node', `Node "${hostname}" is invalid: ${text}`, { errorType: 'Invalid' })
    this.kube = { name: hostname, kind: 'Node', causes: causes.map((c) => ({ reason: 'FieldValueInvalid', message: c.message, field: c.field })) }
  }
}

/** A patch body that is not the shape a Node patch can have (Kubernetes: 400, reason BadRequest). */
export class BadPatchError extends BadRequestError {
  constructor (reason: string) { super('Bad patch', reason, { errorType: 'BadRequest' }) }
}
