import { suiteProject } from '../../vitest.shared.ts'

export default suiteProject({ name: 'stub-engine', include: ['test/**/*.test.ts'] })
