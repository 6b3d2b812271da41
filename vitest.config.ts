// One vitest project per package; `npm test` at the root runs them all. Test options set here would not reach the
// projects, which have config files of their own: the suite's limits live in vitest.shared.ts, which each one uses.
import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    // each package, plus suites run once more against the store's Deckhand quirk mode
    projects: ['packages/*', 'packages/orchestrator/vitest.quirks.config.ts', 'packages/bootstrap/vitest.quirks.config.ts'],
    reporters: ['default']
  }
})
