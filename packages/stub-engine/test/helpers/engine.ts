// The stand-in's test helpers now live in its testing subpath (@slipway/stub-engine/testing); its own tests
// keep importing them from here.
export * from '../../src/testing/engine.ts'
