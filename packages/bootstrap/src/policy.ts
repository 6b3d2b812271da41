// Policy rules of the bootstrap service: Promenade's names and defaults.
export const POLICY_DEFAULTS: Record<string, string> = {
  admin_required: 'role:admin',
  'kubernetes_provisioner:get_join_scripts': 'role:admin',
  'kubernetes_provisioner:post_validatedesign': 'role:admin',
  'kubernetes_provisioner:update_node_labels': 'role:admin'
}
