// The six site workflows as data, in the sub-workflow (legacy sub-DAG) form of spec/orchestrator.md §8.2:
// a group is one SubDagOperator task in its parent and its tasks run in a run of the DAG `<parent>.<group>`.

export type TriggerRule = 'all_success' | 'all_done' | 'none_failed' | 'one_success'

/** What a task does when it runs (see operators.ts). */
export type TaskKind =
  | 'log' | 'concurrency_check' | 'subdag' | 'branch_upgrade' | 'preflight' | 'rendered_doc'
  | 'deckhand_validate' | 'promenade_validate' | 'verify_site' | 'verify_nodes_exist' | 'deploy_nodes'
  | 'destroy_nodes' | 'relabel_nodes' | 'create_action_tag' | 'deployment_status'

export interface TaskDef {
  task_id: string
  operator: string
  upstream: string[]
  trigger_rule: TriggerRule
  retries: number
  kind: TaskKind
  /** For a SubDagOperator: the sub-DAG it runs. */
  subdag?: string
  /** Downstream tasks a branch chooses between. */
  branches?: string[]
}

export interface DagDef {
  dag_id: string
  description: string
  /** Set on sub-DAGs: the workflow whose placeholder task runs them. */
  parent?: string
  /** In definition (= step index) order. */
  tasks: TaskDef[]
}

/** DAGs that may not run side by side (the `dag_concurrency_check` step, spec/engine.md §8.3). */
export const SITE_ACTION_DAGS: ReadonlySet<string> = new Set(['deploy_site', 'update_site', 'update_software', 'redeploy_server', 'relabel_nodes'])

interface TaskOptions { rule?: TriggerRule, retries?: number, subdag?: string, branches?: string[] }

function task (taskId: string, operator: string, kind: TaskKind, upstream: string[] = [], options: TaskOptions = {}): TaskDef {
  const def: TaskDef = { task_id: taskId, operator, upstream, trigger_rule: options.rule ?? 'all_success', retries: options.retries ?? 0, kind }
  if (options.subdag !== undefined) def.subdag = options.subdag
  if (options.branches !== undefined) def.branches = options.branches
  return def
}

const chain = (tasks: TaskDef[]): TaskDef[] => tasks.map((t, i) => i === 0 ? t : { ...t, upstream: [tasks[i - 1]!.task_id] })

// Sub-workflow bodies, by group name.
const GROUPS = {
  preflight: () => [task('ucp_preflight_check', 'UcpHealthCheckOperator', 'preflight')],
  validate4: () => [
    task('deckhand_validate_site_design', 'DeckhandValidateSiteDesignOperator', 'deckhand_validate', [], { retries: 1 }),
    task('drydock_validate_site_design', 'DrydockValidateDesignOperator', 'log', [], { retries: 1 }),
    task('promenade_validate_site_design', 'PromenadeValidateSiteDesignOperator', 'promenade_validate', [], { retries: 1 }),
    task('armada_validate_site_design', 'ArmadaValidateDesignOperator', 'log', [], { retries: 1 })
  ],
  drydockDeploy: () => chain([
    task('verify_site', 'DrydockVerifySiteOperator', 'verify_site'),
    task('prepare_site', 'DrydockPrepareSiteOperator', 'verify_site'),
    task('prepare_and_deploy_nodes', 'DrydockNodesOperator', 'deploy_nodes')
  ]),
  drydockUpdate: () => chain([
    task('verify_site', 'DrydockVerifySiteOperator', 'verify_site'),
    task('prepare_site', 'DrydockPrepareSiteOperator', 'verify_site'),
    task('verify_nodes_exist', 'DrydockVerifyNodesExistOperator', 'verify_nodes_exist'),
    task('prepare_and_deploy_nodes', 'DrydockNodesOperator', 'deploy_nodes')
  ]),
  armada: () => chain([
    task('armada_post_apply', 'ArmadaPostApplyOperator', 'log', [], { retries: 5 }),
    task('armada_get_releases', 'ArmadaGetReleasesOperator', 'log')
  ])
}

const subdag = (parent: string, group: string, upstream: string[]) =>
  task(group, 'SubDagOperator', 'subdag', upstream, { subdag: `${parent}.${group}` })

const upgradeTail = (after: string): TaskDef[] => [
  task('decide_airflow_upgrade', 'BranchPythonOperator', 'branch_upgrade', [after], { branches: ['upgrade_airflow', 'skip_upgrade_airflow'] }),
  task('upgrade_airflow', 'BashOperator', 'log', ['decide_airflow_upgrade']),
  task('skip_upgrade_airflow', 'BashOperator', 'log', ['decide_airflow_upgrade']),
  task('create_action_tag', 'DeckhandCreateSiteActionTagOperator', 'create_action_tag', ['upgrade_airflow', 'skip_upgrade_airflow'], { rule: 'all_done' }),
  task('final_deployment_status', 'DeploymentStatusOperator', 'deployment_status', ['create_action_tag'], { rule: 'all_done' })
]

function deployLike (dagId: 'deploy_site' | 'update_site'): Array<DagDef> {
  const parent: TaskDef[] = [
    task('action_xcom', 'PythonOperator', 'log'),
    task('dag_concurrency_check', 'ConcurrencyCheckOperator', 'concurrency_check'),
    subdag(dagId, 'preflight', ['action_xcom']),
    task('deployment_configuration', 'DeploymentConfigurationOperator', 'log', ['action_xcom']),
    task('get_rendered_doc', 'DeckhandRetrieveRenderedDocOperator', 'rendered_doc', ['deployment_configuration']),
    subdag(dagId, 'validate_site_design', ['preflight', 'get_rendered_doc', 'dag_concurrency_check', 'deployment_configuration']),
    task('deployment_status', 'DeploymentStatusOperator', 'deployment_status', ['get_rendered_doc', 'dag_concurrency_check']),
    subdag(dagId, 'drydock_build', ['validate_site_design']),
    subdag(dagId, 'armada_build', ['drydock_build']),
    ...(dagId === 'deploy_site'
      ? [
          task('create_action_tag', 'DeckhandCreateSiteActionTagOperator', 'create_action_tag', ['armada_build'], { rule: 'all_done' }),
          task('final_deployment_status', 'DeploymentStatusOperator', 'deployment_status', ['create_action_tag'], { rule: 'all_done' })
        ]
      : upgradeTail('armada_build'))
  ]
  return [
    { dag_id: dagId, description: dagId === 'deploy_site' ? 'Deploy a site' : 'Update a deployed site', tasks: parent },
    { dag_id: `${dagId}.preflight`, parent: dagId, description: 'Preflight checks', tasks: GROUPS.preflight() },
    { dag_id: `${dagId}.validate_site_design`, parent: dagId, description: 'Site design validation', tasks: GROUPS.validate4() },
    { dag_id: `${dagId}.drydock_build`, parent: dagId, description: 'Node provisioning', tasks: dagId === 'deploy_site' ? GROUPS.drydockDeploy() : GROUPS.drydockUpdate() },
    { dag_id: `${dagId}.armada_build`, parent: dagId, description: 'Software deployment', tasks: GROUPS.armada() }
  ]
}

function updateSoftware (): DagDef[] {
  const id = 'update_software'
  return [
    {
      dag_id: id,
      description: 'Update the software of a deployed site',
      tasks: [
        task('action_xcom', 'PythonOperator', 'log'),
        task('dag_concurrency_check', 'ConcurrencyCheckOperator', 'concurrency_check'),
        task('deployment_configuration', 'DeploymentConfigurationOperator', 'log', ['action_xcom']),
        subdag(id, 'validate_site_design', ['dag_concurrency_check', 'deployment_configuration']),
        task('deployment_status', 'DeploymentStatusOperator', 'deployment_status', ['dag_concurrency_check']),
        subdag(id, 'armada_build', ['validate_site_design']),
        ...upgradeTail('armada_build')
      ]
    },
    {
      dag_id: `${id}.validate_site_design`,
      parent: id,
      description: 'Site design validation',
      tasks: GROUPS.validate4().filter((t) => t.task_id.startsWith('deckhand') || t.task_id.startsWith('armada'))
    },
    { dag_id: `${id}.armada_build`, parent: id, description: 'Software deployment', tasks: GROUPS.armada() }
  ]
}

function redeployServer (): DagDef[] {
  const id = 'redeploy_server'
  return [
    {
      dag_id: id,
      description: 'Redeploy target nodes',
      tasks: [
        task('action_xcom', 'PythonOperator', 'log'),
        task('dag_concurrency_check', 'ConcurrencyCheckOperator', 'concurrency_check'),
        task('deployment_configuration', 'DeploymentConfigurationOperator', 'log', ['action_xcom']),
        subdag(id, 'validate_site_design', ['dag_concurrency_check', 'deployment_configuration']),
        task('destroy_nodes', 'DrydockDestroyNodeOperator', 'destroy_nodes', ['validate_site_design']),
        subdag(id, 'drydock_build', ['destroy_nodes'])
      ]
    },
    {
      dag_id: `${id}.validate_site_design`,
      parent: id,
      description: 'Site design validation',
      tasks: GROUPS.validate4().filter((t) => !t.task_id.startsWith('armada'))
    },
    { dag_id: `${id}.drydock_build`, parent: id, description: 'Node provisioning', tasks: GROUPS.drydockDeploy() }
  ]
}

function relabelNodes (): DagDef[] {
  const id = 'relabel_nodes'
  return [
    {
      dag_id: id,
      description: 'Relabel target nodes',
      tasks: chain([
        task('action_xcom', 'PythonOperator', 'log'),
        task('dag_concurrency_check', 'ConcurrencyCheckOperator', 'concurrency_check'),
        subdag(id, 'preflight', []),
        task('get_rendered_doc', 'DeckhandRetrieveRenderedDocOperator', 'rendered_doc'),
        task('deployment_configuration', 'DeploymentConfigurationOperator', 'log'),
        subdag(id, 'validate_site_design', []),
        task('relabel_nodes', 'DrydockRelabelNodesOperator', 'relabel_nodes')
      ])
    },
    { dag_id: `${id}.preflight`, parent: id, description: 'Preflight checks', tasks: GROUPS.preflight() },
    { dag_id: `${id}.validate_site_design`, parent: id, description: 'Site design validation', tasks: GROUPS.validate4() }
  ]
}

function testSite (): DagDef[] {
  const id = 'test_site'
  return [
    {
      dag_id: id,
      description: 'Test the releases of a deployed site',
      tasks: [
        task('action_xcom', 'PythonOperator', 'log'),
        subdag(id, 'preflight', ['action_xcom']),
        task('deployment_configuration', 'DeploymentConfigurationOperator', 'log', ['action_xcom']),
        task('armada_test_releases', 'ArmadaTestReleasesOperator', 'log', ['deployment_configuration', 'preflight'])
      ]
    },
    { dag_id: `${id}.preflight`, parent: id, description: 'Preflight checks', tasks: GROUPS.preflight() }
  ]
}

/** Every DAG the stub knows: the six parents and their sub-DAGs. */
export function siteWorkflows (): DagDef[] {
  return [...deployLike('deploy_site'), ...deployLike('update_site'), ...updateSoftware(), ...redeployServer(), ...relabelNodes(), ...testSite()]
}

/** Airflow's default `downstream` weight rule: 1 + the number of tasks downstream of this one. */
export function priorityWeights (dag: DagDef): Map<string, number> {
  const downstream = new Map<string, string[]>()
  for (const t of dag.tasks) for (const up of t.upstream) downstream.set(up, [...(downstream.get(up) ?? []), t.task_id])
  const weights = new Map<string, number>()
  for (const t of dag.tasks) {
    const seen = new Set<string>()
    const stack = [...(downstream.get(t.task_id) ?? [])]
    while (stack.length > 0) {
      const next = stack.pop()!
      if (seen.has(next)) continue
      seen.add(next)
      stack.push(...(downstream.get(next) ?? []))
    }
    weights.set(t.task_id, 1 + seen.size)
  }
  return weights
}

/** Tasks with no downstream: they decide the run's outcome. */
export function leafTasks (dag: DagDef): Set<string> {
  const withDownstream = new Set(dag.tasks.flatMap((t) => t.upstream))
  return new Set(dag.tasks.filter((t) => !withDownstream.has(t.task_id)).map((t) => t.task_id))
}
