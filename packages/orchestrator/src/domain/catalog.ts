// The actions the service starts (Shipyard's six) as data: workflow, rule, pre-run validators.
export type Validator =
  'committed-revision' | 'intermediate-commits' | 'deployment-basic' | 'deployment-full' | 'target-nodes' | 'no-site-action-running'

export interface ActionKind {
  dagId: string
  /** deploy_site, update_site, update_software: tag the revision they ran on. */
  siteAction: boolean
  validators: Validator[]
}

export const ACTIONS: Record<string, ActionKind> = {
  deploy_site: {
    dagId: 'deploy_site',
    siteAction: true,
    validators: ['committed-revision', 'intermediate-commits', 'deployment-full', 'no-site-action-running']
  },
  update_site: {
    dagId: 'update_site',
    siteAction: true,
    validators: ['committed-revision', 'intermediate-commits', 'deployment-full', 'no-site-action-running']
  },
  update_software: {
    dagId: 'update_software',
    siteAction: true,
    validators: ['committed-revision', 'intermediate-commits', 'deployment-basic', 'no-site-action-running']
  },
  redeploy_server: {
    dagId: 'redeploy_server',
    siteAction: false,
    validators: ['target-nodes', 'committed-revision', 'deployment-basic', 'no-site-action-running']
  },
  relabel_nodes: {
    dagId: 'relabel_nodes',
    siteAction: false,
    validators: ['target-nodes', 'committed-revision', 'deployment-basic', 'no-site-action-running']
  },
  test_site: { dagId: 'test_site', siteAction: false, validators: [] }
}

/**
 * Every step of each workflow in index order (the order of the workflow's own definition), with the engine's task
 * ids: a task of a task group is `<group>.<task>`. An action's step index is its position here, stable while the run
 * goes on, even before the engine has made a task's instance. Written as a table: `group: [tasks]` entries expand to
 * the group's dotted task ids.
 */
type StepEntry = string | Record<string, string[]>
const expand = (entries: StepEntry[]): string[] =>
  entries.flatMap((e) => typeof e === 'string' ? [e] : Object.entries(e).flatMap(([group, tasks]) => tasks.map((t) => `${group}.${t}`)))

const PREFLIGHT = { preflight: ['ucp_preflight_check'] }
const VALIDATE_ALL = {
  validate_site_design: [
    'deckhand_validate_site_design', 'drydock_validate_site_design', 'promenade_validate_site_design', 'armada_validate_site_design'
  ]
}
const ARMADA = { armada_build: ['armada_post_apply', 'armada_get_releases'] }
const UPGRADE_TAIL = ['decide_airflow_upgrade', 'upgrade_airflow', 'skip_upgrade_airflow', 'create_action_tag', 'final_deployment_status']

export const STEP_ORDER: Record<string, string[]> = {
  deploy_site: expand([
    'action_xcom', 'dag_concurrency_check', PREFLIGHT, 'deployment_configuration', 'get_rendered_doc', VALIDATE_ALL,
    'deployment_status', { drydock_build: ['verify_site', 'prepare_site', 'prepare_and_deploy_nodes'] }, ARMADA,
    'create_action_tag', 'final_deployment_status'
  ]),
  update_site: expand([
    'action_xcom', 'dag_concurrency_check', PREFLIGHT, 'deployment_configuration', 'get_rendered_doc', VALIDATE_ALL,
    'deployment_status', { drydock_build: ['verify_site', 'prepare_site', 'verify_nodes_exist', 'prepare_and_deploy_nodes'] },
    ARMADA, ...UPGRADE_TAIL
  ]),
  update_software: expand([
    'action_xcom', 'dag_concurrency_check', 'deployment_configuration',
    { validate_site_design: ['deckhand_validate_site_design', 'armada_validate_site_design'] }, 'deployment_status', ARMADA,
    ...UPGRADE_TAIL
  ]),
  redeploy_server: expand([
    'action_xcom', 'dag_concurrency_check', 'deployment_configuration',
    { validate_site_design: ['deckhand_validate_site_design', 'drydock_validate_site_design', 'promenade_validate_site_design'] },
    'destroy_nodes', { drydock_build: ['verify_site', 'prepare_site', 'prepare_and_deploy_nodes'] }
  ]),
  relabel_nodes: expand([
    'action_xcom', 'dag_concurrency_check', PREFLIGHT, 'get_rendered_doc', 'deployment_configuration', VALIDATE_ALL, 'relabel_nodes'
  ]),
  test_site: expand(['action_xcom', PREFLIGHT, 'deployment_configuration', 'armada_test_releases'])
}

/**
 * Workflows of which at most one may be in progress at a time: Airflow 3 pauses a whole DAG, never one run, so a
 * second run of the DAG would be paused with the first.
 */
export const EXCLUSIVE_DAGS = ['deploy_site', 'update_site', 'update_software', 'redeploy_server', 'relabel_nodes']

/** Step states of a step that ended without doing its work: its last try failed, or a step it needed did. */
export const FAILED_STEP_STATES: ReadonlySet<string> = new Set(['failed', 'upstream_failed'])

/** Lifecycle from the run state and whether its DAG is paused: a live run of a paused DAG is Paused. */
export function lifecycleOf (state: string | null | undefined, dagPaused: boolean): string {
  const s = (state ?? 'none').toLowerCase()
  if ((s === 'queued' || s === 'running') && dagPaused) return 'Paused'
  if (['none', 'queued', 'scheduled'].includes(s)) return 'Pending'
  if (['running', 'up_for_retry'].includes(s)) return 'Processing'
  if (s === 'success') return 'Complete'
  if (['failed', 'upstream_failed', 'shutdown', 'skipped', 'removed'].includes(s)) return 'Failed'
  return `Unknown (${s})`
}

/**
 * An action's lifecycle: its run's, except that a run which ended with any step failed or upstream_failed is
 * Failed even when the engine calls the run a success. Workflows whose tail runs whatever happened before it
 * (all_done: create_action_tag, final_deployment_status) end as a success however their other steps went, and
 * Complete means the action did what it was asked. A step's state is that of its last try: a try that failed and
 * was retried is up_for_retry, then the state of the next try. The run's own word stays in dag_status.
 */
export function actionLifecycle (
  state: string | null | undefined,
  dagPaused: boolean,
  stepStates: Array<string | null | undefined>
): string {
  const lifecycle = lifecycleOf(state, dagPaused)
  if (lifecycle !== 'Complete') return lifecycle
  return stepStates.some((s) => s != null && FAILED_STEP_STATES.has(s.toLowerCase())) ? 'Failed' : lifecycle
}
