// Policy rules of the orchestrator, named as Shipyard's policy.py names them: every operation defaults to
// admin_required.
const RULES = [
  'list_actions', 'create_action', 'get_action', 'get_action_step', 'get_action_step_logs', 'get_action_validation',
  'invoke_action_control', 'get_configdocs_status', 'create_configdocs', 'get_configdocs', 'get_configdocs_cleartext',
  'commit_configdocs', 'get_renderedconfigdocs', 'get_renderedconfigdocs_cleartext', 'list_workflows', 'get_workflow',
  'get_notedetails', 'get_site_statuses', 'action_deploy_site', 'action_update_site', 'action_update_software',
  'action_redeploy_server', 'action_relabel_nodes', 'action_test_site',
  // not Shipyard's: stopping an engine run that belongs to no action
  'invoke_workflow_control'
]

export const POLICY_DEFAULTS: Record<string, string> = {
  admin_required: 'role:admin',
  deny_all: '!',
  ...Object.fromEntries(RULES.map((rule) => [`workflow_orchestrator:${rule}`, 'rule:admin_required']))
}

/** The rule's full name. */
export const rule = (name: string): string => `workflow_orchestrator:${name}`
