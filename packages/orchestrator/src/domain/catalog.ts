// The actions the service starts (spec/orchestrator.md §3.1) as data: workflow, rule, pre-run validators.
export type Validator = 'committed-revision' | 'intermediate-commits' | 'deployment-basic' | 'deployment-full' | 'target-nodes' | 'no-site-action-running'

export interface ActionKind {
  dagId: string
  /** deploy_site, update_site, update_software: tag the revision they ran on. */
  siteAction: boolean
  validators: Validator[]
}

export const ACTIONS: Record<string, ActionKind> = {
  deploy_site: { dagId: 'deploy_site', siteAction: true, validators: ['committed-revision', 'intermediate-commits', 'deployment-full', 'no-site-action-running'] },
  update_site: { dagId: 'update_site', siteAction: true, validators: ['committed-revision', 'intermediate-commits', 'deployment-full', 'no-site-action-running'] },
  update_software: { dagId: 'update_software', siteAction: true, validators: ['committed-revision', 'intermediate-commits', 'deployment-basic', 'no-site-action-running'] },
  redeploy_server: { dagId: 'redeploy_server', siteAction: false, validators: ['target-nodes', 'committed-revision', 'deployment-basic', 'no-site-action-running'] },
  relabel_nodes: { dagId: 'relabel_nodes', siteAction: false, validators: ['target-nodes', 'committed-revision', 'deployment-basic', 'no-site-action-running'] },
  test_site: { dagId: 'test_site', siteAction: false, validators: [] }
}

/**
 * Every step of each workflow in index order (spec/orchestrator.md §8.2): the parent's tasks, each sub-workflow
 * placeholder followed by its sub-workflow's tasks. An action's step index is its position here, stable while the
 * run goes on, even before the engine has made a sub-workflow's tasks.
 */
export const STEP_ORDER: Record<string, string[]> = {
  deploy_site: [
    'action_xcom', 'dag_concurrency_check', 'preflight', 'ucp_preflight_check', 'deployment_configuration',
    'get_rendered_doc', 'validate_site_design', 'deckhand_validate_site_design', 'drydock_validate_site_design',
    'promenade_validate_site_design', 'armada_validate_site_design', 'deployment_status', 'drydock_build',
    'verify_site', 'prepare_site', 'prepare_and_deploy_nodes', 'armada_build', 'armada_post_apply',
    'armada_get_releases', 'create_action_tag', 'final_deployment_status'
  ],
  update_site: [
    'action_xcom', 'dag_concurrency_check', 'preflight', 'ucp_preflight_check', 'deployment_configuration',
    'get_rendered_doc', 'validate_site_design', 'deckhand_validate_site_design', 'drydock_validate_site_design',
    'promenade_validate_site_design', 'armada_validate_site_design', 'deployment_status', 'drydock_build',
    'verify_site', 'prepare_site', 'verify_nodes_exist', 'prepare_and_deploy_nodes', 'armada_build',
    'armada_post_apply', 'armada_get_releases', 'decide_airflow_upgrade', 'upgrade_airflow',
    'skip_upgrade_airflow', 'create_action_tag', 'final_deployment_status'
  ],
  update_software: [
    'action_xcom', 'dag_concurrency_check', 'deployment_configuration', 'validate_site_design',
    'deckhand_validate_site_design', 'armada_validate_site_design', 'deployment_status', 'armada_build',
    'armada_post_apply', 'armada_get_releases', 'decide_airflow_upgrade', 'upgrade_airflow',
    'skip_upgrade_airflow', 'create_action_tag', 'final_deployment_status'
  ],
  redeploy_server: [
    'action_xcom', 'dag_concurrency_check', 'deployment_configuration', 'validate_site_design',
    'deckhand_validate_site_design', 'drydock_validate_site_design', 'promenade_validate_site_design',
    'destroy_nodes', 'drydock_build', 'verify_site', 'prepare_site', 'prepare_and_deploy_nodes'
  ],
  relabel_nodes: [
    'action_xcom', 'dag_concurrency_check', 'preflight', 'ucp_preflight_check', 'get_rendered_doc',
    'deployment_configuration', 'validate_site_design', 'deckhand_validate_site_design',
    'drydock_validate_site_design', 'promenade_validate_site_design', 'armada_validate_site_design', 'relabel_nodes'
  ],
  test_site: [
    'action_xcom', 'preflight', 'ucp_preflight_check', 'deployment_configuration', 'armada_test_releases'
  ]
}

/** Workflows of which at most one may be in progress at a time (pause is DAG-wide, spec §3.10). */
export const EXCLUSIVE_DAGS = ['deploy_site', 'update_site', 'update_software', 'redeploy_server', 'relabel_nodes']

/** Lifecycle from the run state and whether its DAG is paused (spec/orchestrator.md §3.4). */
export function lifecycleOf (state: string | null | undefined, dagPaused: boolean): string {
  const s = (state ?? 'none').toLowerCase()
  if ((s === 'queued' || s === 'running') && dagPaused) return 'Paused'
  if (['none', 'queued', 'scheduled'].includes(s)) return 'Pending'
  if (['running', 'up_for_retry'].includes(s)) return 'Processing'
  if (s === 'success') return 'Complete'
  if (['failed', 'upstream_failed', 'shutdown', 'skipped', 'removed'].includes(s)) return 'Failed'
  return `Unknown (${s})`
}
