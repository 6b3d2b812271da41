// Wire shapes of the step endpoint (POST /_stub/steps/{step}): which steps exist, what a caller sends and what
// it gets back. One shape for every caller: stub-engine's operators and the Airflow DAG files alike.
import type { Wording } from '@slipway/common'
import { Type, type Static } from 'typebox'

/** The workflow steps that touch the site; the engine-only ones (log, concurrency check, branch) stay in each engine. */
export const STEP_NAMES = [
  'preflight', 'rendered_doc', 'deckhand_validate', 'promenade_validate', 'verify_site', 'verify_nodes_exist',
  'deploy_nodes', 'destroy_nodes', 'relabel_nodes', 'create_action_tag', 'deployment_status'
] as const
export type StepName = typeof STEP_NAMES[number]

// Airflow 3's task-instance states: what a caller reports for the other tasks of its run
export const TASK_STATES = [
  'removed', 'scheduled', 'queued', 'running', 'success', 'restarting', 'failed',
  'up_for_retry', 'up_for_reschedule', 'upstream_failed', 'skipped', 'deferred'
] as const

const unknownStep: Wording = {
  message: 'Unknown step',
  reason: `'{value}' is not a site step; one of: ${STEP_NAMES.join(', ')}`,
  errorType: 'UnknownStep'
}

export const StepParamsSchema = Type.Object({
  step: Type.Enum([...STEP_NAMES], { 'x-invalid': unknownStep })
})

// the service's validator drops unknown fields silently where a schema says `additionalProperties: false`; a step
// call is strict, so an unknown field fails validation instead
const unknownField: Wording = {
  message: 'Invalid body',
  reason: "'{name}' is not a field of a step call; its fields are dag_id, task_id, run_id, try_number, conf and task_states",
  errorType: 'InvalidFormatError'
}

const badState: Wording = {
  message: 'Invalid body',
  reason: `task_states of {name}: '{value}' is not a task instance state; one of ${TASK_STATES.join(', ')}, or null`,
  errorType: 'InvalidFormatError'
}

const Name = Type.String({ minLength: 1, maxLength: 250 })

export const StepRequestSchema = Type.Object({
  dag_id: Name,
  /** The engine's task id, `<group>.<task>` inside a task group. */
  task_id: Name,
  run_id: Name,
  try_number: Type.Integer({ minimum: 1 }),
  /** The run's conf as the orchestrator triggered it; read tolerantly, field by field, as the operators read it. */
  conf: Type.Record(Type.String(), Type.Unknown()),
  /** States of other tasks of the same run, by engine task id (create_action_tag reads three of them). */
  task_states: Type.Optional(Type.Record(Type.String(), Type.Union([Type.Enum([...TASK_STATES]), Type.Null()], { 'x-invalid': badState })))
}, { additionalProperties: Type.Never({ 'x-invalid': unknownField }) })
export type StepRequest = Static<typeof StepRequestSchema>

export const StepLogLineSchema = Type.Object({
  level: Type.Enum(['info', 'warning', 'error']),
  event: Type.String()
})
export type StepLogLine = Static<typeof StepLogLineSchema>

export const StepAnswerSchema = Type.Object({
  outcome: Type.Enum(['success', 'failed']),
  log: Type.Array(StepLogLineSchema)
})
export type StepAnswer = Static<typeof StepAnswerSchema>
