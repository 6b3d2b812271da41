// @slipway/stub-site: the Drydock (nodes, tasks, node filter, validatedesign) and Kubernetes nodes stand-in, and the
// site work of the workflow steps.
export { buildApp, type AppDeps, type SiteApp } from './app.ts'
export { ConfigSchema, loadConfig, type Config } from './config.ts'
export { createDeps } from './deps.ts'
export { startSite, type RunningSite } from './start.ts'
export { parseNodesFile } from './nodes-file.ts'
export { POWER_STATES, STATUS_NAMES, type DrydockNode, type NodeStateUpdate, type SeedNode } from './schemas/nodes.ts'
export {
  DesignValidationSchema, TASK_ACTIONS, TASK_STATUSES, RESULT_STATUSES, TaskSchema, type DesignValidation, type Task, type TaskAction
} from './schemas/drydock.ts'
export { STEP_NAMES, StepAnswerSchema, StepRequestSchema, type StepAnswer, type StepName, type StepRequest } from './schemas/steps.ts'
export { FIXED_NODE_LABELS, siteActionTag } from './domain/steps-conf.ts'
