// Wire shapes of the workflow routes: a workflow run, and one with its steps and sub-workflows.
import { Type, type TSchema } from 'typebox'
import { QuerySchema } from './query.ts'

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()])

export const WorkflowsQuerySchema = QuerySchema({
  since: Type.Optional(Type.String({
    description: 'ISO 8601 date/time in the past, or an ISO 8601 duration back from now; default 30 days'
  }))
})
export const WorkflowParamsSchema = Type.Object({ workflow_id: Type.String({ description: '<dag_id>__<YYYY-MM-DDTHH:MM:SS.ffffff>' }) })

/** A workflow: one run of a DAG in the engine. */
export const WorkflowSchema = Type.Object({
  workflow_id: Type.String(),
  dag_id: Type.String(),
  run_id: Type.String(),
  execution_date: Nullable(Type.String()),
  start_date: Nullable(Type.String()),
  end_date: Nullable(Type.String()),
  state: Nullable(Type.String()),
  external_trigger: Type.Boolean()
})
const WorkflowStepSchema = Type.Object({
  task_id: Type.String(),
  dag_id: Type.String(),
  execution_date: Nullable(Type.String()),
  start_date: Nullable(Type.String()),
  end_date: Nullable(Type.String()),
  duration: Nullable(Type.Number()),
  queued_dttm: Nullable(Type.String()),
  try_number: Type.Integer(),
  state: Nullable(Type.String()),
  operator: Nullable(Type.String())
})
export const WorkflowDetailSchema = Type.Intersect([
  WorkflowSchema,
  Type.Object({ steps: Type.Array(WorkflowStepSchema), sub_dags: Type.Array(WorkflowSchema) })
])
