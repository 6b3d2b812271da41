// deploy_site's steps as the tests expect them listed: in step order, with the engine's task ids (`<group>.<task>`).
export const DEPLOY_STEPS = [
  'action_xcom', 'dag_concurrency_check', 'preflight.ucp_preflight_check', 'deployment_configuration', 'get_rendered_doc',
  'validate_site_design.deckhand_validate_site_design', 'validate_site_design.drydock_validate_site_design',
  'validate_site_design.promenade_validate_site_design', 'validate_site_design.armada_validate_site_design',
  'deployment_status', 'drydock_build.verify_site', 'drydock_build.prepare_site', 'drydock_build.prepare_and_deploy_nodes',
  'armada_build.armada_post_apply', 'armada_build.armada_get_releases', 'create_action_tag', 'final_deployment_status'
]
