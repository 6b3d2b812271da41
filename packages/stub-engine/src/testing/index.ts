// @slipway/stub-engine/testing: a real stub-engine on 127.0.0.1:0 with fast simulated time, and a JSON client, for
// the tests of any package that talks to the engine.
export * from './engine.ts'
