// @slipway/orchestrator: the orchestration service (configuration documents, actions, workflows, statuses).
export { buildApp } from './app.ts'
export { ConfigSchema, loadConfig, type Config } from './config.ts'
export { createDeps, type Deps, type DepsOverrides } from './deps.ts'
export { startStagingRecovery, startTagPoller } from './background.ts'
// what a fake engine needs to answer as Airflow does for Slipway's workflows: each one's steps in order
export { STEP_ORDER } from './domain/catalog.ts'
