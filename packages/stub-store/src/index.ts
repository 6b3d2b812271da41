// @slipway/stub-store: a Deckhand-compatible document store (Airship Deckhand's API v1.0) for tests and the stack.
export { buildApp } from './app.ts'
export { ConfigSchema, loadConfig, STORE_MODES, type Config } from './config.ts'
export { createDeps, parseTokens, type Deps, type StoreAppDeps } from './deps.ts'
export { startStore } from './start.ts'
export { emitYaml, emitYamlStream, parseYamlStream } from './yaml/codec.ts'
