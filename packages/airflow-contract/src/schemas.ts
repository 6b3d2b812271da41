// Airflow 3 REST API v2 wire shapes as runtime schemas (the shapes we read and the calls we make), written from the
// facts of the contract (field names, types, enums, strictness): what the engine stand-in validates and serves. Each
// is held to the generated type of the same name (test/assignable.test.ts).
import { Type, type Static, type TSchema } from 'typebox'

const nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()])
/** A zone-aware ISO 8601 datetime; a naive one fails the `date-time` format, as Airflow answers it with 422. */
export const DateTimeSchema = Type.String({ format: 'date-time' })
const NullableDateTime = nullable(DateTimeSchema)

// Closed enums of the contract. Clients should read them tolerantly: newer Airflow releases add values.
export const DAG_RUN_STATES = ['queued', 'running', 'success', 'failed'] as const
export const TASK_INSTANCE_STATES = [
  'removed', 'scheduled', 'queued', 'running', 'success', 'restarting', 'failed',
  'up_for_retry', 'up_for_reschedule', 'upstream_failed', 'skipped', 'deferred'
] as const
export const DAG_RUN_TYPES = ['backfill', 'scheduled', 'manual', 'asset_triggered'] as const
export const DAG_RUN_TRIGGERED_BY = ['cli', 'operator', 'rest_api', 'ui', 'test', 'timetable', 'asset', 'backfill'] as const
export const DAG_RUN_PATCH_STATES = ['queued', 'success', 'failed'] as const

export const DagRunStateSchema = Type.Enum([...DAG_RUN_STATES])
export type DagRunState = Static<typeof DagRunStateSchema>
export const TaskInstanceStateSchema = Type.Enum([...TASK_INSTANCE_STATES])
export type TaskInstanceState = Static<typeof TaskInstanceStateSchema>
export const DagRunTypeSchema = Type.Enum([...DAG_RUN_TYPES])
export type DagRunType = Static<typeof DagRunTypeSchema>
export const DagRunTriggeredBySchema = Type.Enum([...DAG_RUN_TRIGGERED_BY])
export type DagRunTriggeredBy = Static<typeof DagRunTriggeredBySchema>
export const DagRunPatchStateSchema = Type.Enum([...DAG_RUN_PATCH_STATES])
export type DagRunPatchState = Static<typeof DagRunPatchStateSchema>

/** Task-instance states that are final: the task will not run again unless cleared. */
export const FINISHED_TASK_STATES: ReadonlySet<string> = new Set(['success', 'failed', 'skipped', 'upstream_failed', 'removed'])
/** Run states that are final. */
export const FINISHED_RUN_STATES: ReadonlySet<string> = new Set(['success', 'failed'])

// ---- errors

export const HTTPExceptionResponseSchema = Type.Object({
  detail: Type.Union([Type.String(), Type.Record(Type.String(), Type.Unknown())])
})
export type HTTPExceptionResponse = Static<typeof HTTPExceptionResponseSchema>

export const ValidationErrorSchema = Type.Object({
  loc: Type.Array(Type.Union([Type.String(), Type.Integer()])),
  msg: Type.String(),
  type: Type.String(),
  input: Type.Optional(Type.Unknown()),
  ctx: Type.Optional(Type.Record(Type.String(), Type.Unknown()))
})
export type ValidationError = Static<typeof ValidationErrorSchema>
export const HTTPValidationErrorSchema = Type.Object({ detail: Type.Array(ValidationErrorSchema) })
export type HTTPValidationError = Static<typeof HTTPValidationErrorSchema>

// ---- auth (airflow-simple-auth-manager.yaml)

export const LoginBodySchema = Type.Object({ username: Type.String(), password: Type.String() }, { additionalProperties: false })
export type LoginBody = Static<typeof LoginBodySchema>
export const LoginResponseSchema = Type.Object({ access_token: Type.String() })
export type LoginResponse = Static<typeof LoginResponseSchema>

// ---- monitor

export const VersionInfoSchema = Type.Object({ version: Type.String(), git_version: nullable(Type.String()) })
export type VersionInfo = Static<typeof VersionInfoSchema>
export const HealthInfoResponseSchema = Type.Object({
  metadatabase: Type.Object({ status: nullable(Type.String()) }),
  scheduler: Type.Object({ status: nullable(Type.String()), latest_scheduler_heartbeat: nullable(Type.String()) }),
  triggerer: Type.Object({ status: nullable(Type.String()), latest_triggerer_heartbeat: nullable(Type.String()) }),
  dag_processor: Type.Optional(nullable(Type.Object({
    status: nullable(Type.String()),
    latest_dag_processor_heartbeat: nullable(Type.String())
  })))
})
export type HealthInfoResponse = Static<typeof HealthInfoResponseSchema>

// ---- DAGs

export const DagTagResponseSchema = Type.Object({ name: Type.String(), dag_id: Type.String(), dag_display_name: Type.String() })
export const DAGResponseSchema = Type.Object({
  dag_id: Type.String(),
  dag_display_name: Type.String(),
  is_paused: Type.Boolean(),
  is_stale: Type.Boolean(),
  last_parsed_time: NullableDateTime,
  last_expired: NullableDateTime,
  bundle_name: nullable(Type.String()),
  bundle_version: nullable(Type.String()),
  relative_fileloc: nullable(Type.String()),
  fileloc: Type.String(),
  description: nullable(Type.String()),
  timetable_summary: nullable(Type.String()),
  timetable_description: nullable(Type.String()),
  tags: Type.Array(DagTagResponseSchema),
  max_active_tasks: Type.Integer(),
  max_active_runs: nullable(Type.Integer()),
  max_consecutive_failed_dag_runs: Type.Integer(),
  has_task_concurrency_limits: Type.Boolean(),
  has_import_errors: Type.Boolean(),
  next_dagrun_logical_date: NullableDateTime,
  next_dagrun_data_interval_start: NullableDateTime,
  next_dagrun_data_interval_end: NullableDateTime,
  next_dagrun_run_after: NullableDateTime,
  owners: Type.Array(Type.String()),
  file_token: Type.String()
})
export type DAGResponse = Static<typeof DAGResponseSchema>
export const DAGCollectionResponseSchema = Type.Object({ dags: Type.Array(DAGResponseSchema), total_entries: Type.Integer() })
export type DAGCollectionResponse = Static<typeof DAGCollectionResponseSchema>
export const DAGPatchBodySchema = Type.Object({ is_paused: Type.Boolean() }, { additionalProperties: false })
export type DAGPatchBody = Static<typeof DAGPatchBodySchema>

// ---- DAG runs: read, trigger, list, patch, clear, batch list

export const DagVersionResponseSchema = Type.Object({
  id: Type.String({ format: 'uuid' }),
  version_number: Type.Integer(),
  dag_id: Type.String(),
  bundle_name: nullable(Type.String()),
  bundle_version: nullable(Type.String()),
  created_at: DateTimeSchema,
  dag_display_name: Type.String(),
  bundle_url: nullable(Type.String())
})
export type DagVersionResponse = Static<typeof DagVersionResponseSchema>

export const DAGRunResponseSchema = Type.Object({
  dag_run_id: Type.String(),
  dag_id: Type.String(),
  logical_date: NullableDateTime,
  queued_at: NullableDateTime,
  start_date: NullableDateTime,
  end_date: NullableDateTime,
  duration: nullable(Type.Number()),
  data_interval_start: NullableDateTime,
  data_interval_end: NullableDateTime,
  run_after: DateTimeSchema,
  last_scheduling_decision: NullableDateTime,
  run_type: DagRunTypeSchema,
  state: DagRunStateSchema,
  triggered_by: nullable(DagRunTriggeredBySchema),
  triggering_user_name: nullable(Type.String()),
  conf: nullable(Type.Record(Type.String(), Type.Unknown())),
  note: nullable(Type.String()),
  dag_versions: Type.Array(DagVersionResponseSchema),
  bundle_version: nullable(Type.String()),
  dag_display_name: Type.String()
})
export type DAGRunResponse = Static<typeof DAGRunResponseSchema>
export const DAGRunCollectionResponseSchema = Type.Object({ dag_runs: Type.Array(DAGRunResponseSchema), total_entries: Type.Integer() })
export type DAGRunCollectionResponse = Static<typeof DAGRunCollectionResponseSchema>

/** Trigger body: strict; the `logical_date` key is required, its value may be null. */
export const TriggerDAGRunPostBodySchema = Type.Object({
  dag_run_id: Type.Optional(nullable(Type.String())),
  data_interval_start: Type.Optional(NullableDateTime),
  data_interval_end: Type.Optional(NullableDateTime),
  logical_date: NullableDateTime,
  run_after: Type.Optional(NullableDateTime),
  conf: Type.Optional(nullable(Type.Record(Type.String(), Type.Unknown()))),
  note: Type.Optional(nullable(Type.String()))
}, { additionalProperties: false })
export type TriggerDAGRunPostBody = Static<typeof TriggerDAGRunPostBodySchema>

export const DAGRunPatchBodySchema = Type.Object({
  state: Type.Optional(nullable(DagRunPatchStateSchema)),
  note: Type.Optional(nullable(Type.String({ maxLength: 1000 })))
}, { additionalProperties: false })
export type DAGRunPatchBody = Static<typeof DAGRunPatchBodySchema>

export const DAGRunClearBodySchema = Type.Object({
  dry_run: Type.Optional(Type.Boolean({ default: true })),
  only_failed: Type.Optional(Type.Boolean({ default: false })),
  run_on_latest_version: Type.Optional(Type.Boolean({ default: false }))
}, { additionalProperties: false })
export type DAGRunClearBody = Static<typeof DAGRunClearBodySchema>

const rangeFields = (fields: string[], valueSchema: () => TSchema): Record<string, TSchema> => {
  const out: Record<string, TSchema> = {}
  for (const field of fields) for (const op of ['gte', 'gt', 'lte', 'lt']) out[`${field}_${op}`] = Type.Optional(nullable(valueSchema()))
  return out
}

export const DAGRunsBatchBodySchema = Type.Object({
  order_by: Type.Optional(nullable(Type.String())),
  page_offset: Type.Optional(Type.Integer({ minimum: 0, default: 0 })),
  page_limit: Type.Optional(Type.Integer({ minimum: 0, default: 100 })),
  dag_ids: Type.Optional(nullable(Type.Array(Type.String()))),
  states: Type.Optional(nullable(Type.Array(nullable(DagRunStateSchema)))),
  ...rangeFields(['run_after', 'logical_date', 'start_date', 'end_date'], () => DateTimeSchema)
}, { additionalProperties: false })
export interface DAGRunsBatchBody {
  order_by?: string | null
  page_offset?: number
  page_limit?: number
  dag_ids?: string[] | null
  states?: Array<DagRunState | null> | null
  [range: string]: unknown
}

// ---- task instances: read, tries, batch list, clear, mark

export const TriggerResponseSchema = Type.Object({
  id: Type.Integer(),
  classpath: Type.String(),
  kwargs: Type.String(),
  created_date: DateTimeSchema,
  triggerer_id: nullable(Type.Integer())
})
export type TriggerResponse = Static<typeof TriggerResponseSchema>
export const JobResponseSchema = Type.Object({
  id: Type.Integer(),
  dag_id: nullable(Type.String()),
  state: nullable(Type.String()),
  job_type: nullable(Type.String()),
  start_date: NullableDateTime,
  end_date: NullableDateTime,
  latest_heartbeat: NullableDateTime,
  executor_class: nullable(Type.String()),
  hostname: nullable(Type.String()),
  unixname: nullable(Type.String()),
  dag_display_name: Type.Optional(nullable(Type.String()))
})

/** Fields shared by the current try (`TaskInstanceResponse`) and earlier ones (`TaskInstanceHistoryResponse`). */
const tryFields = {
  task_id: Type.String(),
  dag_id: Type.String(),
  dag_run_id: Type.String(),
  map_index: Type.Integer(),
  start_date: NullableDateTime,
  end_date: NullableDateTime,
  duration: nullable(Type.Number()),
  state: nullable(TaskInstanceStateSchema),
  try_number: Type.Integer(),
  max_tries: Type.Integer(),
  task_display_name: Type.String(),
  dag_display_name: Type.String(),
  hostname: nullable(Type.String()),
  unixname: nullable(Type.String()),
  pool: Type.String(),
  pool_slots: Type.Integer(),
  queue: nullable(Type.String()),
  priority_weight: nullable(Type.Integer()),
  operator: nullable(Type.String()),
  operator_name: nullable(Type.String()),
  queued_when: NullableDateTime,
  scheduled_when: NullableDateTime,
  pid: nullable(Type.Integer()),
  executor: nullable(Type.String()),
  executor_config: Type.String(),
  dag_version: nullable(DagVersionResponseSchema)
}

export const TaskInstanceResponseSchema = Type.Object({
  id: Type.String(),
  ...tryFields,
  logical_date: NullableDateTime,
  run_after: DateTimeSchema,
  note: nullable(Type.String()),
  rendered_map_index: nullable(Type.String()),
  rendered_fields: Type.Record(Type.String(), Type.Unknown()),
  trigger: nullable(TriggerResponseSchema),
  triggerer_job: nullable(JobResponseSchema)
})
export type TaskInstanceResponse = Static<typeof TaskInstanceResponseSchema>
export const TaskInstanceCollectionResponseSchema = Type.Object({
  task_instances: Type.Array(TaskInstanceResponseSchema),
  total_entries: Type.Integer()
})
export type TaskInstanceCollectionResponse = Static<typeof TaskInstanceCollectionResponseSchema>

export const TaskInstanceHistoryResponseSchema = Type.Object(tryFields)
export type TaskInstanceHistoryResponse = Static<typeof TaskInstanceHistoryResponseSchema>
export const TaskInstanceHistoryCollectionResponseSchema = Type.Object({
  task_instances: Type.Array(TaskInstanceHistoryResponseSchema),
  total_entries: Type.Integer()
})
export type TaskInstanceHistoryCollectionResponse = Static<typeof TaskInstanceHistoryCollectionResponseSchema>

export const TaskInstancesBatchBodySchema = Type.Object({
  dag_ids: Type.Optional(nullable(Type.Array(Type.String()))),
  dag_run_ids: Type.Optional(nullable(Type.Array(Type.String()))),
  task_ids: Type.Optional(nullable(Type.Array(Type.String()))),
  state: Type.Optional(nullable(Type.Array(nullable(TaskInstanceStateSchema)))),
  ...rangeFields(['run_after', 'logical_date', 'start_date', 'end_date'], () => DateTimeSchema),
  ...rangeFields(['duration'], () => Type.Number()),
  pool: Type.Optional(nullable(Type.Array(Type.String()))),
  queue: Type.Optional(nullable(Type.Array(Type.String()))),
  executor: Type.Optional(nullable(Type.Array(Type.String()))),
  page_offset: Type.Optional(Type.Integer({ minimum: 0, default: 0 })),
  page_limit: Type.Optional(Type.Integer({ minimum: 0, default: 100 })),
  order_by: Type.Optional(nullable(Type.String()))
}, { additionalProperties: false })
export interface TaskInstancesBatchBody {
  dag_ids?: string[] | null
  dag_run_ids?: string[] | null
  task_ids?: string[] | null
  state?: Array<TaskInstanceState | null> | null
  pool?: string[] | null
  queue?: string[] | null
  executor?: string[] | null
  page_offset?: number
  page_limit?: number
  order_by?: string | null
  [range: string]: unknown
}

export const ClearTaskInstancesBodySchema = Type.Object({
  dry_run: Type.Optional(Type.Boolean({ default: true })),
  start_date: Type.Optional(NullableDateTime),
  end_date: Type.Optional(NullableDateTime),
  only_failed: Type.Optional(Type.Boolean({ default: true })),
  only_running: Type.Optional(Type.Boolean({ default: false })),
  reset_dag_runs: Type.Optional(Type.Boolean({ default: true })),
  task_ids: Type.Optional(nullable(Type.Array(Type.Union([
    Type.String(),
    Type.Tuple([Type.String(), Type.Integer()])
  ])))),
  dag_run_id: Type.Optional(nullable(Type.String())),
  include_upstream: Type.Optional(Type.Boolean({ default: false })),
  include_downstream: Type.Optional(Type.Boolean({ default: false })),
  include_future: Type.Optional(Type.Boolean({ default: false })),
  include_past: Type.Optional(Type.Boolean({ default: false })),
  run_on_latest_version: Type.Optional(Type.Boolean({ default: false }))
}, { additionalProperties: false })
export type ClearTaskInstancesBody = Static<typeof ClearTaskInstancesBodySchema>

export const PatchTaskInstanceBodySchema = Type.Object({
  new_state: Type.Optional(nullable(TaskInstanceStateSchema)),
  note: Type.Optional(nullable(Type.String({ maxLength: 1000 }))),
  include_upstream: Type.Optional(Type.Boolean({ default: false })),
  include_downstream: Type.Optional(Type.Boolean({ default: false })),
  include_future: Type.Optional(Type.Boolean({ default: false })),
  include_past: Type.Optional(Type.Boolean({ default: false }))
}, { additionalProperties: false })
export type PatchTaskInstanceBody = Static<typeof PatchTaskInstanceBodySchema>

// ---- logs

export const StructuredLogMessageSchema = Type.Object({
  timestamp: Type.Optional(DateTimeSchema),
  event: Type.String()
}, { additionalProperties: true })
export type StructuredLogMessage = Static<typeof StructuredLogMessageSchema> & Record<string, unknown>
export const TaskInstancesLogResponseSchema = Type.Object({
  content: Type.Union([Type.Array(StructuredLogMessageSchema), Type.Array(Type.String())]),
  continuation_token: nullable(Type.String())
})
export type TaskInstancesLogResponse = Static<typeof TaskInstancesLogResponseSchema>
