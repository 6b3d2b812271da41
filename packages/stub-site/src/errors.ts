// The stand-in's own error conditions; each carries what a Kubernetes Status body needs besides the status.
import { ApiError, BadRequestError, ConflictError, NotFoundError } from '@slipway/common'

/** What a Kubernetes Status adds to an error: `details` naming the object and its causes. */
export interface KubeDetails {
  name?: string
  kind?: string
  causes?: Array<{ reason: string, message: string, field?: string }>
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
    // Kubernetes lists two or more causes in brackets
    const each = causes.map((c) => `${c.field}: ${c.message}`)
    const text = each.length === 1 ? each[0] ?? '' : `[${each.join(', ')}]`
    super(422, 'Invalid node', `Node "${hostname}" is invalid: ${text}`, { errorType: 'Invalid' })
    this.kube = {
      name: hostname,
      kind: 'Node',
      causes: causes.map((c) => ({ reason: 'FieldValueInvalid', message: c.message, field: c.field }))
    }
  }
}

/**
 * A patch that decodes but puts a value of the wrong type where a Node has a map or a string (Kubernetes: 422,
 * reason Invalid, one cause on the field `patch`, and no name or kind in the details). The explanation is ours.
 */
export class PatchTypeError extends ApiError {
  readonly kube: KubeDetails
  /** What is wrong, in the stand-in's words. */
  readonly why: string
  constructor (body: unknown, why: string) {
    const cause = `Invalid value: ${JSON.stringify(JSON.stringify(body))}: ${why}`
    super(422, 'Invalid patch', ` "" is invalid: patch: ${cause}`, { errorType: 'Invalid' })
    this.why = why
    this.kube = { causes: [{ reason: 'FieldValueInvalid', message: cause, field: 'patch' }] }
  }
}

/** A patch body that is not the shape a Node patch can have (Kubernetes: 400, reason BadRequest). */
export class BadPatchError extends BadRequestError {
  constructor (reason: string) { super('Bad patch', reason, { errorType: 'BadRequest' }) }
}

/** A patch whose `metadata.name` is not the node's (Kubernetes' checkName: 400, reason BadRequest, no details). */
export class NameMismatchError extends BadRequestError {
  constructor (bodyName: string, urlName: string) {
    super('Name mismatch',
      `the name of the object (${bodyName}) does not match the name on the URL (${urlName})`,
      { errorType: 'BadRequest' })
  }
}

/** A patch whose `metadata.resourceVersion` is not the node's current one (Kubernetes: 409, reason Conflict). */
export class NodeConflictError extends ConflictError {
  readonly kube: KubeDetails
  constructor (hostname: string) {
    super('Node conflict',
      `Operation cannot be fulfilled on nodes "${hostname}": the object has been modified; please apply your changes to the latest version and try again`,
      { errorType: 'Conflict' })
    this.kube = { name: hostname, kind: 'nodes' }
  }
}

/** A label or field selector, limit or continue token the list cannot apply (Kubernetes: 400, reason BadRequest). */
export class BadListOptionsError extends BadRequestError {
  constructor (reason: string) { super(reason, reason, { errorType: 'BadRequest' }) }
}

/** A continue token whose list snapshot is gone (Kubernetes: 410, reason Expired). */
export class ContinueExpiredError extends ApiError {
  constructor () {
    super(410, 'Continue token expired',
      'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter.',
      { errorType: 'Expired' })
  }
}

/** A namespaced object (or a namespace) that does not exist: 404 NotFound, in Kubernetes' words. */
export class ObjectNotFoundError extends NotFoundError {
  readonly kube: KubeDetails
  /** `resource`: the plural, lower-case resource name (pods, configmaps, namespaces). */
  constructor (resource: string, name: string) {
    super('Not found', `${resource} "${name}" not found`, { errorType: 'NotFound' })
    this.kube = { name, kind: resource }
  }
}

/** A create of an object whose name is taken: 409 with reason AlreadyExists (not Conflict). */
export class AlreadyExistsError extends ConflictError {
  readonly kube: KubeDetails
  readonly kubeReason = 'AlreadyExists'
  constructor (resource: string, name: string) {
    super('Already exists', `${resource} "${name}" already exists`, { errorType: 'AlreadyExists' })
    this.kube = { name, kind: resource }
  }
}

/** A write carrying a resourceVersion that is not the object's current one: 409 Conflict. */
export class ObjectConflictError extends ConflictError {
  readonly kube: KubeDetails
  constructor (resource: string, name: string) {
    super('Conflict',
      `Operation cannot be fulfilled on ${resource} "${name}": the object has been modified; please apply your changes to the latest version and try again`,
      { errorType: 'Conflict' })
    this.kube = { name, kind: resource }
  }
}

/** A write whose object is invalid (Kubernetes: 422 Invalid, `<Kind> "<name>" is invalid: …`, one cause a field). */
export class InvalidObjectError extends ApiError {
  readonly kube: KubeDetails
  constructor (kind: string, name: string, causes: Array<{ field: string, message: string, reason?: string }>) {
    const each = causes.map((c) => `${c.field}: ${c.message}`)
    const text = each.length === 1 ? each[0] ?? '' : `[${each.join(', ')}]`
    super(422, 'Invalid object', `${kind} "${name}" is invalid: ${text}`, { errorType: 'Invalid' })
    this.kube = {
      // an object with no name yet is not named in the details
      ...(name === '' ? {} : { name }),
      kind,
      causes: causes.map((c) => ({ reason: c.reason ?? 'FieldValueInvalid', message: c.message, field: c.field }))
    }
  }
}

/** A body whose namespace is not the one in the URL (Kubernetes: 400 BadRequest, no details). */
export class NamespaceMismatchError extends BadRequestError {
  constructor () {
    super('Namespace mismatch', 'the namespace of the provided object does not match the namespace sent on the request',
      { errorType: 'BadRequest' })
  }
}

/** An eviction a PodDisruptionBudget forbids: 429 TooManyRequests, the budget named in a cause. */
export class EvictionRefusedError extends ApiError {
  readonly kube: KubeDetails
  constructor (budget: string) {
    super(429, 'Eviction refused', 'Cannot evict pod as it would violate the pod\'s disruption budget.', { errorType: 'TooManyRequests' })
    // a budget that allows no disruption: as many pods healthy as it needs, and not one more
    const message = `The disruption budget ${budget} needs 1 healthy pods and has 1 currently`
    this.kube = { causes: [{ reason: 'DisruptionBudget', message }] }
  }
}

/** A node filter Drydock cannot apply: the task fails, and `POST /nodefilter` answers 500 (Drydock's OrchestratorError). */
export class NodeFilterError extends ApiError {
  constructor (reason: string) { super(500, 'Unknown error', reason, { errorType: 'OrchestratorError' }) }
}

/** `GET /api/v1.0/tasks/{id}` for a task Drydock does not have (an id that is not a UUID included). */
export class TaskNotFoundError extends NotFoundError {
  constructor (taskId: string) { super(`Task ${taskId} does not exist`, `Task ${taskId} does not exist`, { errorType: 'TaskNotFound' }) }
}

/** The design a Drydock call names cannot be read (not reachable, not found, not YAML). */
export class DesignUnavailableError extends ApiError {
  constructor (reason: string) { super(500, 'Unable to fetch the design', reason, { errorType: 'DesignError' }) }
}

/** `POST /api/v1.0/tasks` with an action Drydock does not run (or none: Python's `None`). */
export class UnsupportedActionError extends BadRequestError {
  constructor (action: string) { super(`Unsupported action ${action}`, `Unsupported action ${action}`, { errorType: 'InvalidFormat' }) }
}
