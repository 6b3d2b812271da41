// Slipway's site workflows as data: the one document that states the workflow ids, each workflow's steps in definition
// order, which workflows are exclusive, tag the revision or name target nodes, and the tasks the site-action tag rule
// watches. The orchestrator, stub-engine and the step library read it from here; the DAG files read the same file.
// It lives in the DAG folder (packages/airflow/dags/slipway_workflows.json) because that folder is what Airflow is
// given, whole: a deployment that copies the DAG folder carries the document along.
import document from '../../airflow/dags/slipway_workflows.json' with { type: 'json' }

export interface WorkflowFacts {
  /** At most one run of the exclusive workflows may be in progress at a time. */
  exclusive: boolean
  /** The action tags the revision it ran on (site-action-success / site-action-failure). */
  tagsRevision: boolean
  /** The action names the nodes it works on. */
  targeted: boolean
  /** Every task id in the order of the workflow's own definition; a task of a task group is `<group>.<task>`. */
  steps: readonly string[]
}

interface Catalog {
  workflows: Readonly<Record<string, WorkflowFacts>>
  tagRule: { step: string, watched: readonly string[], mustSucceed: readonly string[] }
}

const catalog: Catalog = document

/** The workflows by id, in the document's order. */
export const WORKFLOWS: Readonly<Record<string, WorkflowFacts>> = catalog.workflows

/** Every workflow id, in the document's order. */
export const WORKFLOW_IDS: readonly string[] = Object.keys(WORKFLOWS)

/** The workflows of which at most one may be in progress at a time. */
export const EXCLUSIVE_WORKFLOWS: readonly string[] = WORKFLOW_IDS.filter((id) => WORKFLOWS[id]!.exclusive)

/** The task of a tagging workflow that tags the revision. */
export const TAG_STEP: string = catalog.tagRule.step

/** The tasks whose failed or upstream_failed state makes a site action's tag a failure. */
export const TAG_WATCHED_TASKS: readonly string[] = catalog.tagRule.watched

/** The tasks a site action's run must have ended with success for its tag to be a success. */
export const TAG_REQUIRED_TASKS: readonly string[] = catalog.tagRule.mustSucceed
