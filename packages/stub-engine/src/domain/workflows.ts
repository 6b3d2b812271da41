// The six site workflows as data, in the shape Airflow 3 runs them (Airship Shipyard's DAGs): one DAG each, whose
// grouped tasks are named `<group>.<task>` (task groups; there are no sub-DAGs in Airflow 3). A task that depends on a
// group depends on the group's last tasks; a group that depends on a task starts every one of its first tasks after it.

import { EXCLUSIVE_WORKFLOWS } from '@slipway/airflow-contract'
import type { StepKind } from '@slipway/steps'

export type TriggerRule = 'all_success' | 'all_done' | 'none_failed' | 'one_success'

/** What a task does when it runs: an engine kind, or a step of the step library (see operators.ts). */
export type TaskKind = 'log' | 'concurrency_check' | StepKind

export interface TaskDef {
  /** The engine's task id: `<group>.<name>` inside a task group, else the name. */
  task_id: string
  operator: string
  upstream: string[]
  trigger_rule: TriggerRule
  retries: number
  kind: TaskKind
  /** Downstream tasks a branch chooses between. */
  branches?: string[]
}

export interface DagDef {
  dag_id: string
  description: string
  /** The DAG's tags (Slipway's DAG files tag every site workflow `slipway`). */
  tags: string[]
  /** In the order the workflow file defines them. */
  tasks: TaskDef[]
}

/** A workflow as each builder below defines it; every DAG gets the same tags. */
type Workflow = Omit<DagDef, 'tags'>

/** DAGs that may not run side by side (the `dag_concurrency_check` step fails while another of them runs). */
export const SITE_ACTION_DAGS: ReadonlySet<string> = new Set(EXCLUSIVE_WORKFLOWS)

/** The task's own name: its id without the group prefix. */
export const taskName = (taskId: string): string => taskId.slice(taskId.lastIndexOf('.') + 1)

/** The task's group, or null for a task outside any group. */
export const groupOf = (taskId: string): string | null => taskId.includes('.') ? taskId.slice(0, taskId.lastIndexOf('.')) : null

interface TaskOptions { rule?: TriggerRule, retries?: number, branches?: string[] }

function task (taskId: string, operator: string, kind: TaskKind, upstream: string[] = [], options: TaskOptions = {}): TaskDef {
  const def: TaskDef = {
    task_id: taskId, operator, upstream, trigger_rule: options.rule ?? 'all_success', retries: options.retries ?? 0, kind
  }
  if (options.branches !== undefined) def.branches = options.branches
  return def
}

/** Each task after the first depends on the one before it. */
const chain = (tasks: TaskDef[]): TaskDef[] => tasks.map((t, i) => i === 0 ? t : { ...t, upstream: [tasks[i - 1]!.task_id] })

/**
 * A task group: its tasks renamed `<name>.<task>` (their dependencies inside the group too), and the tasks with no
 * upstream inside the group made to wait for `upstream`. `order` optionally lists the definition order of the
 * renamed tasks when it differs from the dependency chain (update_site's drydock_build).
 */
function group (name: string, tasks: TaskDef[], upstream: string[] = [], order?: string[]): TaskDef[] {
  const inside = new Set(tasks.map((t) => t.task_id))
  const renamed = tasks.map((t) => ({
    ...t,
    task_id: `${name}.${t.task_id}`,
    upstream: t.upstream.length === 0 ? [...upstream] : t.upstream.map((u) => inside.has(u) ? `${name}.${u}` : u)
  }))
  if (order === undefined) return renamed
  return order.map((id) => renamed.find((t) => t.task_id === `${name}.${id}`)!)
}

/** The tasks of a group that nothing inside the group waits for: what a task downstream of the group waits for. */
function lastOf (tasks: TaskDef[]): string[] {
  const waitedFor = new Set(tasks.flatMap((t) => t.upstream))
  return tasks.filter((t) => !waitedFor.has(t.task_id)).map((t) => t.task_id)
}

const preflight = (upstream: string[]): TaskDef[] =>
  group('preflight', [task('ucp_preflight_check', 'UcpHealthCheckOperator', 'preflight')], upstream)

type Validator = 'deckhand' | 'drydock' | 'promenade' | 'armada'
const VALIDATORS: Record<Validator, () => TaskDef> = {
  deckhand: () => task('deckhand_validate_site_design', 'DeckhandValidateSiteDesignOperator', 'deckhand_validate', [], { retries: 1 }),
  drydock: () => task('drydock_validate_site_design', 'DrydockValidateDesignOperator', 'drydock_validate', [], { retries: 1 }),
  promenade: () => task('promenade_validate_site_design', 'PromenadeValidateSiteDesignOperator', 'promenade_validate', [], { retries: 1 }),
  armada: () => task('armada_validate_site_design', 'ArmadaValidateDesignOperator', 'armada_validate', [], { retries: 1 })
}
const validateSiteDesign = (which: Validator[], upstream: string[]): TaskDef[] =>
  group('validate_site_design', which.map((v) => VALIDATORS[v]()), upstream)

const drydockBuild = (upstream: string[], withNodeCheck: boolean): TaskDef[] => withNodeCheck
  ? group('drydock_build', chain([
    task('verify_site', 'DrydockVerifySiteOperator', 'verify_site'),
    task('prepare_site', 'DrydockPrepareSiteOperator', 'prepare_site'),
    task('verify_nodes_exist', 'DrydockVerifyNodesExistOperator', 'verify_nodes_exist'),
    task('prepare_and_deploy_nodes', 'DrydockNodesOperator', 'deploy_nodes')
  ]), upstream, ['verify_nodes_exist', 'verify_site', 'prepare_site', 'prepare_and_deploy_nodes'])
  : group('drydock_build', chain([
    task('verify_site', 'DrydockVerifySiteOperator', 'verify_site'),
    task('prepare_site', 'DrydockPrepareSiteOperator', 'prepare_site'),
    task('prepare_and_deploy_nodes', 'DrydockNodesOperator', 'deploy_nodes')
  ]), upstream)

const armadaBuild = (upstream: string[]): TaskDef[] => group('armada_build', chain([
  task('armada_post_apply', 'ArmadaPostApplyOperator', 'armada_apply', [], { retries: 5 }),
  task('armada_get_releases', 'ArmadaGetReleasesOperator', 'armada_releases')
]), upstream)

/** The tail that tags the revision and writes the final status: both run whatever happened before them. */
const tagAndStatus = (upstream: string[]): TaskDef[] => [
  task('create_action_tag', 'DeckhandCreateSiteActionTagOperator', 'create_action_tag', upstream, { rule: 'all_done' }),
  task('final_deployment_status', 'DeploymentStatusOperator', 'deployment_status', ['create_action_tag'], { rule: 'all_done' })
]

const upgradeTail = (after: string[]): TaskDef[] => [
  task('decide_airflow_upgrade', 'BranchPythonOperator', 'decide_upgrade', after, {
    branches: ['upgrade_airflow', 'skip_upgrade_airflow']
  }),
  task('upgrade_airflow', 'BashOperator', 'log', ['decide_airflow_upgrade']),
  task('skip_upgrade_airflow', 'BashOperator', 'log', ['decide_airflow_upgrade']),
  ...tagAndStatus(['upgrade_airflow', 'skip_upgrade_airflow'])
]

const actionXcom = (): TaskDef => task('action_xcom', 'PythonOperator', 'log')
const concurrencyCheck = (upstream: string[] = []): TaskDef =>
  task('dag_concurrency_check', 'ConcurrencyCheckOperator', 'concurrency_check', upstream)
const deploymentConfiguration = (upstream: string[]): TaskDef =>
  task('deployment_configuration', 'DeploymentConfigurationOperator', 'deployment_configuration', upstream)
const renderedDoc = (upstream: string[]): TaskDef =>
  task('get_rendered_doc', 'DeckhandRetrieveRenderedDocOperator', 'rendered_doc', upstream)
const deploymentStatus = (upstream: string[]): TaskDef =>
  task('deployment_status', 'DeploymentStatusOperator', 'deployment_status', upstream)

function deployLike (dagId: 'deploy_site' | 'update_site'): Workflow {
  const checks = preflight(['action_xcom'])
  const validation = validateSiteDesign(
    ['deckhand', 'drydock', 'promenade', 'armada'],
    [...lastOf(checks), 'get_rendered_doc', 'dag_concurrency_check', 'deployment_configuration']
  )
  const build = drydockBuild(lastOf(validation), dagId === 'update_site')
  const armada = armadaBuild(lastOf(build))
  return {
    dag_id: dagId,
    description: dagId === 'deploy_site' ? 'Deploy a site' : 'Update a deployed site',
    tasks: [
      actionXcom(),
      concurrencyCheck(),
      ...checks,
      renderedDoc(['deployment_configuration']),
      deploymentConfiguration(['action_xcom']),
      ...validation,
      deploymentStatus(['get_rendered_doc', 'dag_concurrency_check']),
      ...build,
      ...armada,
      ...(dagId === 'deploy_site' ? tagAndStatus(lastOf(armada)) : upgradeTail(lastOf(armada)))
    ]
  }
}

function updateSoftware (): Workflow {
  const validation = validateSiteDesign(['deckhand', 'armada'], ['dag_concurrency_check', 'deployment_configuration'])
  const armada = armadaBuild(lastOf(validation))
  return {
    dag_id: 'update_software',
    description: 'Update the software of a deployed site',
    tasks: [
      actionXcom(),
      concurrencyCheck(),
      deploymentConfiguration(['action_xcom']),
      ...validation,
      deploymentStatus(['dag_concurrency_check']),
      ...armada,
      ...upgradeTail(lastOf(armada))
    ]
  }
}

function redeployServer (): Workflow {
  const validation = validateSiteDesign(['deckhand', 'drydock', 'promenade'], ['dag_concurrency_check', 'deployment_configuration'])
  return {
    dag_id: 'redeploy_server',
    description: 'Redeploy target nodes',
    tasks: [
      actionXcom(),
      concurrencyCheck(),
      deploymentConfiguration(['action_xcom']),
      ...validation,
      task('destroy_nodes', 'DrydockDestroyNodeOperator', 'destroy_nodes', lastOf(validation)),
      ...drydockBuild(['destroy_nodes'], false)
    ]
  }
}

function relabelNodes (): Workflow {
  const checks = preflight(['dag_concurrency_check'])
  const validation = validateSiteDesign(['deckhand', 'drydock', 'promenade', 'armada'], ['deployment_configuration'])
  return {
    dag_id: 'relabel_nodes',
    description: 'Relabel target nodes',
    tasks: [
      actionXcom(),
      concurrencyCheck(['action_xcom']),
      ...checks,
      renderedDoc(lastOf(checks)),
      deploymentConfiguration(['get_rendered_doc']),
      ...validation,
      task('relabel_nodes', 'DrydockRelabelNodesOperator', 'relabel_nodes', lastOf(validation))
    ]
  }
}

function testSite (): Workflow {
  const checks = preflight(['action_xcom'])
  return {
    dag_id: 'test_site',
    description: 'Test the releases of a deployed site',
    tasks: [
      actionXcom(),
      ...checks,
      deploymentConfiguration(['action_xcom']),
      task('armada_test_releases', 'ArmadaTestReleasesOperator', 'armada_test', ['deployment_configuration', ...lastOf(checks)])
    ]
  }
}

/** Every DAG the stub knows: the six site workflows. */
export function siteWorkflows (): DagDef[] {
  return [deployLike('deploy_site'), deployLike('update_site'), updateSoftware(), redeployServer(), relabelNodes(), testSite()]
    .map((dag) => ({ ...dag, tags: ['slipway'] }))
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
