// For other packages' tests: the store mode a test run asks for. `SLIPWAY_TEST_STORE_MODE=deckhand-quirks` makes every
// test that starts a store through this helper start it in the quirk mode, so whole suites can run once per mode.
import { STORE_MODES } from '../config.ts'

export function testStoreEnv (): Record<string, string> {
  const wanted = process.env.SLIPWAY_TEST_STORE_MODE ?? 'documented'
  const mode = STORE_MODES.find((m) => m.name === wanted)
  if (mode === undefined) {
    throw new Error(`SLIPWAY_TEST_STORE_MODE: must be one of ${STORE_MODES.map((m) => m.name).join(', ')} (got "${wanted}")`)
  }
  return { ...mode.env }
}
