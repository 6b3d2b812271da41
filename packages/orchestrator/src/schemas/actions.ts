// Wire shapes of the action routes.
import { Type, type Static } from 'typebox'
import { ErrorBodySchema, ErrorEntrySchema, SeedBooleanSchema, type Wording } from '@slipway/common'
import { QuerySchema, withDefault } from './query.ts'

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()])
const required = (message: string): Wording => ({ message })

/** The POST /actions body, checked after the policy: JSON with a string name and an object of parameters. */
export const ActionInputSchema = Type.Object({
  name: Type.String({
    minLength: 1,
    description: 'Action name, e.g. deploy_site',
    'x-invalid': required('JSON validation failed: name is required and must be a string'),
    'x-missing': required('JSON validation failed: name is required and must be a string')
  }),
  parameters: Type.Optional(Type.Record(Type.String(), Type.Unknown(), {
    description: 'Keys vary by action',
    'x-invalid': required('JSON validation failed: parameters must be an object')
  }))
}, {
  'x-invalid': required('JSON validation failed: the body must be an object'),
  'x-missing': { message: 'Json body is required', reason: 'The request must have a JSON body (Content-Type: application/json)' },
  'x-undecodable': { message: 'JSON could not be decoded', reason: '{detail}' }
})
export type ActionInput = Static<typeof ActionInputSchema>

export const CreateQuerySchema = QuerySchema({
  'allow-intermediate-commits': withDefault(
    SeedBooleanSchema('allow-intermediate-commits', 'Allow a site action over commits no site action has used'))
})

/**
 * GET /actions' query: verbosity as the seed has it, and this service's window of the list (neither needed: without
 * them the answer is the whole list, as the seed's). `limit`: the newest so many actions; `since`: only the actions
 * created after this one (ids are ULIDs, in creation order). Both together: the newest `limit` of those after `since`.
 */
export const ListQuerySchema = QuerySchema({
  limit: Type.Optional(Type.String({
    pattern: '^[1-9]\\d{0,5}$',
    description: 'At most this many actions, the newest (1 to 999999); the answer keeps the list\'s order, oldest first',
    'x-invalid': {
      message: 'Invalid limit parameter', reason: 'limit must be a whole number from 1 to 999999, got \'{value}\''
    } satisfies Wording
  })),
  since: Type.Optional(Type.String({
    pattern: '^[0-7][0-9A-HJKMNP-TV-Za-hjkmnp-tv-z]{25}$',
    description: 'An action id (ULID): only the actions created after it',
    'x-invalid': {
      message: 'Invalid since parameter', reason: 'since must be an action id (26 characters, a ULID), got \'{value}\''
    } satisfies Wording
  }))
})

export const ActionParamsSchema = Type.Object({ action_id: Type.String({ description: 'Action id (ULID)' }) })
export const ValidationParamsSchema = Type.Object({ action_id: Type.String(), validation_id: Type.String() })
export const StepParamsSchema = Type.Object({
  action_id: Type.String(),
  step_id: Type.String({ description: 'Engine task id; a bare task name of one grouped task resolves to it' })
})
export const ControlParamsSchema = Type.Object({
  action_id: Type.String(),
  control_verb: Type.String({ description: 'pause, unpause or stop' })
})

/**
 * The logs route checks the id's length before anything else (Shipyard's order: a 400 before the 404 of an unknown
 * action).
 */
export const LogParamsSchema = Type.Object({
  action_id: Type.String({
    minLength: 26,
    maxLength: 26,
    description: 'Action id (26 characters)',
    'x-invalid': { message: 'Invalid Action ID!', reason: 'Action ids are 26 characters, got \'{value}\'' } satisfies Wording
  }),
  step_id: Type.String()
})
export const LogQuerySchema = QuerySchema({
  try: Type.Optional(Type.String({
    pattern: '^[1-9]\\d{0,5}$',
    description: 'Attempt (1, 2, ...); default the last',
    'x-invalid': { message: 'Invalid try parameter', reason: 'try must be a positive integer' } satisfies Wording
  }))
})

const NoteSchema = Type.Object({
  note_id: Type.String(),
  assoc_id: Type.String(),
  subject: Type.String(),
  sub_type: Type.String(),
  note_val: Type.String(),
  verbosity: Type.Integer(),
  note_timestamp: Type.String(),
  resolved_url_value: Nullable(Type.String())
})
const StepSummarySchema = Type.Object({
  id: Type.String(),
  url: Type.String(),
  index: Type.Integer({ minimum: 1 }),
  state: Nullable(Type.String()),
  notes: Type.Array(NoteSchema)
})

/** An action as GET /actions lists it. */
export const ActionSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  parameters: Type.Record(Type.String(), Type.Unknown()),
  action_lifecycle: Type.String({
    description: 'Pending, Processing, Complete, Failed or Paused; Failed also when the run ended with a step failed or upstream_failed, whatever dag_status says'
  }),
  dag_id: Type.String(),
  dag_status: Nullable(Type.String()),
  dag_execution_date: Nullable(Type.String()),
  datetime: Type.String(),
  user: Type.String(),
  context_marker: Type.String(),
  start_status: Type.String({
    description: 'Whether the engine has the action\'s run: started, trigger_pending (saved, run not confirmed yet), failed_to_start (no run, the trigger failed) or refused (a pre-run validation stopped it)'
  }),
  start_reason: Nullable(Type.String({ description: 'Why the start is pending or failed' })),
  steps: Type.Array(StepSummarySchema),
  notes: Type.Array(NoteSchema)
})

export const ValidationFailureSchema = Type.Object({
  id: Type.String(),
  action_id: Type.String(),
  validation_name: Type.String(),
  details: Type.String()
})
const AuditSchema = Type.Object({
  id: Type.String(),
  action_id: Type.String(),
  command: Type.String(),
  user: Type.String(),
  datetime: Type.String()
})

/** GET /actions/{id}: the list entry with validations and the command audit. */
export const ActionDetailSchema = Type.Intersect([
  ActionSchema,
  Type.Object({ validations: Type.Array(ValidationFailureSchema), command_audit: Type.Array(AuditSchema) })
])

/** The 201 of POST /actions: `timestamp` in place of `datetime`. */
export const CreatedActionSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  parameters: Type.Record(Type.String(), Type.Unknown()),
  dag_id: Type.String(),
  dag_status: Nullable(Type.String()),
  dag_execution_date: Nullable(Type.String()),
  user: Type.String(),
  context_marker: Type.String(),
  timestamp: Nullable(Type.String()),
  // a request sent again with the same X-Context-Marker by the same caller (an extension): the action it made, with its
  // state now
  replayed: Type.Optional(Type.Literal(true, { description: 'Present on a replay: the action an earlier request made, not a new one' })),
  action_lifecycle: Type.Optional(Type.String({ description: 'On a replay: the lifecycle now' })),
  start_status: Type.Optional(Type.String({ description: 'On a replay: whether the engine has the run (started, trigger_pending, …)' }))
})

/** The 409 of POST /actions (a pre-run validation failed): the stored action with its failed validation. */
export const RefusedActionSchema = Type.Intersect([CreatedActionSchema, Type.Object({
  action_lifecycle: Type.Literal('Failed'),
  validations: Type.Array(ValidationFailureSchema),
  message: Type.String(),
  reason: Type.String(),
  details: Type.Object({ errorCount: Type.Integer(), messageList: Type.Array(ErrorEntrySchema) })
})])

/** Step detail: one task instance of the action's run. */
export const StepDetailSchema = Type.Object({
  task_id: Type.String(),
  dag_id: Type.String(),
  execution_date: Nullable(Type.String()),
  index: Type.Integer({ minimum: 1 }),
  operator: Nullable(Type.String()),
  state: Nullable(Type.String()),
  queued_dttm: Nullable(Type.String()),
  start_date: Nullable(Type.String()),
  end_date: Nullable(Type.String()),
  duration: Nullable(Type.Number()),
  try_number: Type.Integer(),
  notes: Type.Array(NoteSchema)
})

export const LogTextSchema = Type.String({ description: 'The step\'s log (text/plain)' })

/** The answers of a control request (an action's, or a run's without an action): accepted with no body, or refused. */
export const ControlResponses = {
  202: Type.Unsafe<void>({ description: 'Accepted; empty body' }),
  400: ErrorBodySchema,
  404: ErrorBodySchema,
  409: ErrorBodySchema
}
