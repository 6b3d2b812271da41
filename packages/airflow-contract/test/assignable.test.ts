// Each runtime schema the engine stand-in serves is held to the type generated from Airflow's document under the
// same name: a value the schema accepts is a value of the contract's type (checked by the type-checker; a `false`
// below does not compile). LoginBody and LoginResponse belong to the auth manager's document, which is not generated.
import { describe, expect, it } from 'vitest'
import type { Static, TSchema } from 'typebox'
import type { AirflowSchemas } from '../src/index.ts'
import * as S from '../src/schemas.ts'

interface Pairs {
  DagRunState: typeof S.DagRunStateSchema
  TaskInstanceState: typeof S.TaskInstanceStateSchema
  DagRunType: typeof S.DagRunTypeSchema
  HTTPExceptionResponse: typeof S.HTTPExceptionResponseSchema
  ValidationError: typeof S.ValidationErrorSchema
  HTTPValidationError: typeof S.HTTPValidationErrorSchema
  VersionInfo: typeof S.VersionInfoSchema
  HealthInfoResponse: typeof S.HealthInfoResponseSchema
  DagTagResponse: typeof S.DagTagResponseSchema
  DAGResponse: typeof S.DAGResponseSchema
  DAGCollectionResponse: typeof S.DAGCollectionResponseSchema
  DAGPatchBody: typeof S.DAGPatchBodySchema
  DagVersionResponse: typeof S.DagVersionResponseSchema
  DAGRunResponse: typeof S.DAGRunResponseSchema
  DAGRunCollectionResponse: typeof S.DAGRunCollectionResponseSchema
  TriggerDAGRunPostBody: typeof S.TriggerDAGRunPostBodySchema
  DAGRunPatchBody: typeof S.DAGRunPatchBodySchema
  DAGRunClearBody: typeof S.DAGRunClearBodySchema
  DAGRunsBatchBody: typeof S.DAGRunsBatchBodySchema
  TriggerResponse: typeof S.TriggerResponseSchema
  JobResponse: typeof S.JobResponseSchema
  TaskInstanceResponse: typeof S.TaskInstanceResponseSchema
  TaskInstanceCollectionResponse: typeof S.TaskInstanceCollectionResponseSchema
  TaskInstanceHistoryResponse: typeof S.TaskInstanceHistoryResponseSchema
  TaskInstanceHistoryCollectionResponse: typeof S.TaskInstanceHistoryCollectionResponseSchema
  TaskInstancesBatchBody: typeof S.TaskInstancesBatchBodySchema
  ClearTaskInstancesBody: typeof S.ClearTaskInstancesBodySchema
  PatchTaskInstanceBody: typeof S.PatchTaskInstanceBodySchema
  StructuredLogMessage: typeof S.StructuredLogMessageSchema
  TaskInstancesLogResponse: typeof S.TaskInstancesLogResponseSchema
}
type Assignable = { [K in keyof Pairs]: Pairs[K] extends TSchema ? (Static<Pairs[K]> extends AirflowSchemas[K] ? true : false) : false }

const checked: Assignable = {
  DagRunState: true,
  TaskInstanceState: true,
  DagRunType: true,
  HTTPExceptionResponse: true,
  ValidationError: true,
  HTTPValidationError: true,
  VersionInfo: true,
  HealthInfoResponse: true,
  DagTagResponse: true,
  DAGResponse: true,
  DAGCollectionResponse: true,
  DAGPatchBody: true,
  DagVersionResponse: true,
  DAGRunResponse: true,
  DAGRunCollectionResponse: true,
  TriggerDAGRunPostBody: true,
  DAGRunPatchBody: true,
  DAGRunClearBody: true,
  DAGRunsBatchBody: true,
  TriggerResponse: true,
  JobResponse: true,
  TaskInstanceResponse: true,
  TaskInstanceCollectionResponse: true,
  TaskInstanceHistoryResponse: true,
  TaskInstanceHistoryCollectionResponse: true,
  TaskInstancesBatchBody: true,
  ClearTaskInstancesBody: true,
  PatchTaskInstanceBody: true,
  StructuredLogMessage: true,
  TaskInstancesLogResponse: true
}

describe('the runtime schemas', () => {
  it('are each assignable to the generated type of the same name', () => {
    expect(Object.keys(checked)).toHaveLength(30)
    for (const name of Object.keys(checked)) expect(S).toHaveProperty(`${name}Schema`)
  })
})
