import { configDefaults } from 'vitest/config'
import { suiteProject } from '../../vitest.shared.ts'

// test/reliability is a project of its own (vitest.reliability.config.ts), outside the default `npm test`
export default suiteProject({
  name: 'orchestrator',
  include: ['test/**/*.test.ts', 'test/console/*.test.js'],
  exclude: [...configDefaults.exclude, 'test/reliability/**']
})
