// @slipway/stub-site: the stand-in for Drydock (nodes, tasks, node filter, validatedesign), Armada (releases, apply,
// tests, validatedesign) and the cluster's Kubernetes API (nodes, pods, evictions, ConfigMaps).
export { buildApp, type AppDeps, type SiteApp } from './app.ts'
export { ConfigSchema, loadConfig, type Config } from './config.ts'
export { createDeps } from './deps.ts'
export { startSite, type RunningSite } from './start.ts'
export { parseNodesFile } from './nodes-file.ts'
export { POWER_STATES, STATUS_NAMES, type DrydockNode, type NodeStateUpdate, type SeedNode } from './schemas/nodes.ts'
export {
  DesignValidationSchema, TASK_ACTIONS, TASK_STATUSES, RESULT_STATUSES, TaskSchema, type DesignValidation, type Task, type TaskAction
} from './schemas/drydock.ts'
