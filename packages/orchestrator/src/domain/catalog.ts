// The actions the service starts (Shipyard's six): workflow, rule, pre-run validators. The workflow facts (ids, step
// order, the exclusive, tagging and targeted workflows) come from the workflow catalog of @slipway/airflow-contract.
import { EXCLUSIVE_WORKFLOWS, WORKFLOW_IDS, WORKFLOWS } from '@slipway/airflow-contract'

export type Validator =
  'committed-revision' | 'intermediate-commits' | 'deployment-basic' | 'deployment-full' | 'target-nodes' | 'no-site-action-running'

export interface ActionKind {
  dagId: string
  /** deploy_site, update_site, update_software: tag the revision they ran on. */
  siteAction: boolean
  validators: Validator[]
}

/** The checks each workflow's own facts call for: target nodes named, no other exclusive workflow in progress. */
const checksOf = (dagId: string, checks: Validator[]): Validator[] => {
  const facts = WORKFLOWS[dagId]!
  return [...(facts.targeted ? ['target-nodes' as const] : []), ...checks, ...(facts.exclusive ? ['no-site-action-running' as const] : [])]
}

/** Which documents each action checks before its run; the rest of its facts come from the workflow catalog. */
const DOCUMENT_CHECKS: Record<string, Validator[]> = {
  deploy_site: ['committed-revision', 'intermediate-commits', 'deployment-full'],
  update_site: ['committed-revision', 'intermediate-commits', 'deployment-full'],
  update_software: ['committed-revision', 'intermediate-commits', 'deployment-basic'],
  redeploy_server: ['committed-revision', 'deployment-basic'],
  relabel_nodes: ['committed-revision', 'deployment-basic'],
  test_site: []
}

export const ACTIONS: Record<string, ActionKind> = Object.fromEntries(WORKFLOW_IDS.map((dagId) => [dagId, {
  dagId,
  siteAction: WORKFLOWS[dagId]!.tagsRevision,
  validators: checksOf(dagId, DOCUMENT_CHECKS[dagId] ?? [])
}]))

/**
 * Every step of each workflow in index order (the order of the workflow's own definition), with the engine's task
 * ids: a task of a task group is `<group>.<task>`. An action's step index is its position here, stable while the run
 * goes on, even before the engine has made a task's instance.
 */
export const STEP_ORDER: Record<string, readonly string[]> = Object.fromEntries(WORKFLOW_IDS.map((id) => [id, WORKFLOWS[id]!.steps]))

/**
 * Workflows of which at most one may be in progress at a time: Airflow 3 pauses a whole DAG, never one run, so a
 * second run of the DAG would be paused with the first.
 */
export const EXCLUSIVE_DAGS: string[] = [...EXCLUSIVE_WORKFLOWS]
