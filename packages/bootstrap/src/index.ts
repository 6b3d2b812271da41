// @slipway/bootstrap: the node bootstrap service (join scripts, design validation, node labels).
export { buildApp } from './app.ts'
export { ConfigSchema, loadConfig, type Config } from './config.ts'
export { createDeps, type Deps, type DepsOverrides } from './deps.ts'
