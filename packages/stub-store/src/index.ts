// @slipway/stub-store: a Deckhand-compatible document store (spec/store.md) for tests and the stack.
export { buildApp } from './app.ts'
export { ConfigSchema, loadConfig, STORE_MODES, type Config } from './config.ts'
export { createDeps, parseTokens, type Deps, type StoreAppDeps } from './deps.ts'
export { startStore } from './start.ts'
export { emitYaml, emitYamlStream, parseYamlStream } from './yaml/codec.ts'
