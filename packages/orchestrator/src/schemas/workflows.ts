// Wire shapes of the workflow routes: a workflow run, and one with its steps and sub-workflows.
import { Type, type TSchema } from 'typebox'
import { SeedBooleanSchema } from '@slipway/common'
import { QuerySchema, withDefault } from './query.ts'

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()])

export const WorkflowsQuerySchema = QuerySchema({
  since: Type.Optional(Type.String({
    description: 'ISO 8601 date/time in the past, or an ISO 8601 duration back from now; default 30 days (with orphans: none)'
  })),
  // an extension: the seed's list is every run
  orphans: withDefault(SeedBooleanSchema('orphans',
    'Only the runs of the action workflows that belong to no action, each with orphan_reason; since bounds them only when given'))
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
/** An entry of GET /workflows: a workflow; with orphans=true, a run of an action workflow no action has, and why. */
export const WorkflowEntrySchema = Type.Intersect([
  WorkflowSchema,
  Type.Object({ orphan_reason: Type.Optional(Type.String({ description: 'With orphans=true: why no action has the run' })) })
])
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
