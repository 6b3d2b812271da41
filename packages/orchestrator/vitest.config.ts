import { suiteProject } from '../../vitest.shared.ts'

export default suiteProject({ name: 'orchestrator', include: ['test/**/*.test.ts', 'test/console/*.test.js'] })
