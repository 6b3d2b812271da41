// The bootstrap service's design reads on the real stand-ins once more against a store in its Deckhand quirk mode.
import { suiteProject } from '../../vitest.shared.ts'

export default suiteProject({
  name: 'bootstrap (deckhand quirks)',
  include: ['test/integration/stubs.test.ts'],
  env: { SLIPWAY_TEST_STORE_MODE: 'deckhand-quirks' }
})
