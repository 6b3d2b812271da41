// One vitest project per package; `npm test` at the root runs them all.
import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    // each package, plus suites run once more against the store's Deckhand quirk mode
    projects: ['packages/*', 'packages/orchestrator/vitest.quirks.config.ts', 'packages/bootstrap/vitest.quirks.config.ts'],
    reporters: ['default'],
    testTimeout: 20_000,
    hookTimeout: 20_000
  }
})
