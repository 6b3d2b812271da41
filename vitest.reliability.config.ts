// `npm run test:reliability`: every reliability test. The default run's projects (their reliability files, picked by
// the script's name filter) and the orchestrator's reliability project, which `npm test` leaves out for its length
// (minutes of processes started, killed and waited for); CI runs that project after the default run (.ci/run).
import { defineConfig } from 'vitest/config'
import { DEFAULT_PROJECTS } from './vitest.shared.ts'

export default defineConfig({
  test: {
    projects: [...DEFAULT_PROJECTS, 'packages/orchestrator/vitest.reliability.config.ts'],
    reporters: ['default']
  }
})
