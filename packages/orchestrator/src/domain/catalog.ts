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
