// One vitest project per package; `npm test` at the root runs them all.
import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    projects: ['packages/*'],
    reporters: ['default'],
    testTimeout: 20_000,
    hookTimeout: 20_000
  }
})
