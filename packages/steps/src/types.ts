// What a workflow step is handed and what it gives back, the same for every engine that runs the steps: stub-engine
// calls them in its own process, the Airflow DAG files through the step runner. Imports nothing.

/** The site work a task does; the task ids that run each are in the workflow definitions. */
export const STEP_KINDS = [
  'preflight', 'rendered_doc', 'deployment_configuration',
  'deckhand_validate', 'drydock_validate', 'promenade_validate', 'armada_validate',
  'verify_site', 'prepare_site', 'verify_nodes_exist', 'deploy_nodes', 'destroy_nodes', 'relabel_nodes',
  'armada_apply', 'armada_releases', 'armada_test', 'decide_upgrade',
  'create_action_tag', 'deployment_status'
] as const
export type StepKind = typeof STEP_KINDS[number]

export type LogLevel = 'info' | 'warning' | 'error'

/** One try of one task, as its engine knows it. */
export interface StepCall {
  dagId: string
  /** The engine's task id: `<group>.<task>` inside a task group. */
  taskId: string
  runId: string
  tryNumber: number
  /** The run's conf as the orchestrator triggered it (upstream Shipyard's keys: `action`, `design_ref`, …). */
  conf: Record<string, unknown>
  /** The state of every task of the same run, by task id (null: not run yet); create_action_tag reads it. */
  taskStates: Readonly<Record<string, string | null>>
  /** What earlier tasks of the run gave back (their XCom return values), by task id. */
  xcom: Readonly<Record<string, unknown>>
}

export interface StepIo {
  log: (event: string, level?: LogLevel) => void
  /** Aborted when the engine stops the try; a step waiting on a peer gives up at once. */
  signal: AbortSignal
}

/** What a step gives back: a value later tasks read (its XCom), or for a branch the tasks it follows. */
export interface StepResult {
  output?: unknown
  follow?: string[]
}

/** A step that ends in failure; its message is the try's error line. */
export class StepFailure extends Error { override name = 'StepFailure' }
