// Wire shapes of Drydock's task, node filter and design validation API (Task.to_dict, TaskStatus.to_dict,
// Validation.to_dict upstream), as the stand-in answers them.
import { Type, type Static } from 'typebox'

/** The actions `POST /api/v1.0/tasks` takes (Drydock's TasksResource); any other is a 400. */
export const TASK_ACTIONS = [
  'verify_site', 'prepare_site', 'verify_nodes', 'prepare_nodes', 'deploy_nodes', 'destroy_nodes', 'relabel_nodes'
] as const
export type TaskAction = typeof TASK_ACTIONS[number]

/** The node driver action each node-level action runs once per node, as a subtask of its own. */
export const NODE_SUBTASK_ACTIONS = {
  verify_nodes: 'interrogate_oob',
  prepare_nodes: 'configure_hardware',
  deploy_nodes: 'deploy_node',
  destroy_nodes: 'destroy_node',
  relabel_nodes: 'relabel_node'
} as const
export type NodeAction = keyof typeof NODE_SUBTASK_ACTIONS

// Drydock's TaskStatus and ActionResult enums (objects/fields.py); `terminating` and `terminated` are never reached
// here: the API has no way to terminate a task
export const TASK_STATUSES = ['requested', 'queued', 'running', 'terminating', 'terminated', 'complete'] as const
export type TaskStatus = typeof TASK_STATUSES[number]
export const RESULT_STATUSES = ['incomplete', 'success', 'partial_success', 'failure', 'unreported'] as const
export type ResultStatus = typeof RESULT_STATUSES[number]

/** One entry of a task's `result.details.messageList` (TaskStatusMessage). */
export const TaskMessageSchema = Type.Object({
  message: Type.String(),
  error: Type.Boolean(),
  context_type: Type.String(),
  context: Type.String(),
  ts: Type.String(),
  extra: Type.Record(Type.String(), Type.Unknown())
})
export type TaskMessage = Static<typeof TaskMessageSchema>

/** A task's `result`: a Status whose `status` is the action result. */
export const TaskResultSchema = Type.Object({
  kind: Type.Literal('Status'),
  apiVersion: Type.Literal('v1.0'),
  metadata: Type.Object({}),
  message: Type.Union([Type.String(), Type.Null()]),
  reason: Type.Union([Type.String(), Type.Null()]),
  status: Type.Enum(RESULT_STATUSES),
  successes: Type.Array(Type.String()),
  failures: Type.Array(Type.String()),
  links: Type.Array(Type.Object({ rel: Type.String(), href: Type.String() })),
  details: Type.Object({ errorCount: Type.Integer(), messageList: Type.Array(TaskMessageSchema) })
})
export type TaskResult = Static<typeof TaskResultSchema>

/** A task as `GET /api/v1.0/tasks/{id}` answers it. Times are Python's `str(datetime)` in UTC. */
export const TaskSchema = Type.Object({
  kind: Type.Literal('Task'),
  apiVersion: Type.Literal('v1'),
  task_id: Type.String({ format: 'uuid' }),
  action: Type.String(),
  parent_task_id: Type.Union([Type.String(), Type.Null()]),
  design_ref: Type.String(),
  status: Type.Enum(TASK_STATUSES),
  result: TaskResultSchema,
  node_filter: Type.Unknown(),
  subtask_id_list: Type.Array(Type.String()),
  created: Type.String(),
  created_by: Type.Union([Type.String(), Type.Null()]),
  updated: Type.Union([Type.String(), Type.Null()]),
  terminated: Type.Union([Type.String(), Type.Null()]),
  terminated_by: Type.Union([Type.String(), Type.Null()]),
  terminate: Type.Boolean(),
  retry: Type.Integer(),
  build_data: Type.Optional(Type.Array(Type.Unknown())),
  subtask_errors: Type.Optional(Type.Record(Type.String(), Type.Unknown()))
})
export type Task = Static<typeof TaskSchema>

/**
 * Body of `POST /api/v1.0/tasks`, read as Drydock reads it: every field optional on the wire, the domain answers
 * Drydock's 400s for a missing or unknown action and a missing design_ref.
 */
export const TaskCreateSchema = Type.Object({
  action: Type.Optional(Type.Unknown()),
  design_ref: Type.Optional(Type.Unknown()),
  node_filter: Type.Optional(Type.Unknown())
})
export type TaskCreate = Static<typeof TaskCreateSchema>

/** Query of `GET /api/v1.0/tasks/{id}`: booleans as Falcon reads them, `layers` an integer (-1: all). */
export const TaskQuerySchema = Type.Object({
  builddata: Type.Optional(Type.String()),
  subtaskerrors: Type.Optional(Type.String()),
  layers: Type.Optional(Type.String())
})

/** Body of `POST /api/v1.0/nodefilter` (the client's get_nodes_for_filter). */
export const NodeFilterRequestSchema = Type.Object({
  node_filter: Type.Optional(Type.Unknown()),
  design_ref: Type.Optional(Type.Unknown())
})
export type NodeFilterRequest = Static<typeof NodeFilterRequestSchema>

/** Body of `POST /api/v1.0/validatedesign`. */
export const ValidateDesignRequestSchema = Type.Object({
  rel: Type.Optional(Type.Unknown()),
  href: Type.Optional(Type.Unknown()),
  type: Type.Optional(Type.Unknown())
})
export type ValidateDesignRequest = Static<typeof ValidateDesignRequestSchema>

/** One message of a design validation (ValidationMessage). */
export const DesignMessageSchema = Type.Object({
  kind: Type.Literal('ValidationMessage'),
  name: Type.String(),
  message: Type.String(),
  error: Type.Boolean(),
  level: Type.String(),
  diagnostic: Type.Union([Type.String(), Type.Null()]),
  ts: Type.String(),
  documents: Type.Array(Type.Object({ schema: Type.String(), name: Type.String() }))
})
export type DesignMessage = Static<typeof DesignMessageSchema>

/**
 * The answer of `POST /api/v1.0/validatedesign`: a Status with the validation's messages and the HTTP code. A schema
 * failure leaves `status` as the action result `failure` (lower case), as Drydock's ingester sets it.
 */
export const DesignValidationSchema = Type.Object({
  kind: Type.Literal('Status'),
  apiVersion: Type.Literal('v1.0'),
  metadata: Type.Object({}),
  message: Type.Union([Type.String(), Type.Null()]),
  reason: Type.Union([Type.String(), Type.Null()]),
  status: Type.Union([Type.Literal('Success'), Type.Literal('failure')]),
  details: Type.Object({ errorCount: Type.Integer(), messageList: Type.Array(DesignMessageSchema) }),
  code: Type.Integer()
})
export type DesignValidation = Static<typeof DesignValidationSchema>

/** Body of `PUT /_stub/task-faults` and answer of `GET /_stub/task-faults` (same spelling as the variables). */
export const TaskFaultsSchema = Type.Object({
  /** `node` (every node-level action) or `action:node`; the node's subtask fails. */
  fail_nodes: Type.Optional(Type.Array(Type.String({ minLength: 1 }))),
  /** Actions whose tasks hold in `running` while listed. */
  stuck_tasks: Type.Optional(Type.Array(Type.Enum(TASK_ACTIONS)))
}, { additionalProperties: false })
export type TaskFaultsBody = Static<typeof TaskFaultsSchema>
