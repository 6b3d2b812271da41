// The orchestrator's configdocs suites once more against a store that behaves as the real Deckhand does where it
// departs from its documentation (stub-store's quirk mode): Slipway must be safe on either.
import { suiteProject } from '../../vitest.shared.ts'

export default suiteProject({
  name: 'orchestrator (deckhand quirks)',
  include: ['test/routes/configdocs.test.ts', 'test/routes/deployment-version.test.ts', 'test/reliability/staging-replace.test.ts'],
  env: { SLIPWAY_TEST_STORE_MODE: 'deckhand-quirks' }
})
