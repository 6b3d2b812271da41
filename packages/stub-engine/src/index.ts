// @slipway/stub-engine: the Airflow 3 stand-in (its wire schemas are @slipway/airflow-contract's).
export { buildApp, type AppDeps, type AuthSettings } from './app.ts'
export { ConfigSchema, loadConfig, type Config } from './config.ts'
export { createDeps } from './deps.ts'
export { startEngine, type RunningEngine } from './start.ts'
export type { SideEffects } from './domain/operators.ts'
export { siteWorkflows, type DagDef, type TaskDef } from './domain/workflows.ts'
export { StubConfSchema, type StubConf } from './schemas/stub.ts'
