// One vitest project per package; `npm test` at the root runs them all. Test options set here would not reach the
// projects, which have config files of their own: the suite's limits live in vitest.shared.ts, which each one uses.
import { defineConfig } from 'vitest/config'
import { DEFAULT_PROJECTS } from './vitest.shared.ts'

export default defineConfig({
  test: {
    projects: DEFAULT_PROJECTS,
    reporters: ['default']
  }
})
