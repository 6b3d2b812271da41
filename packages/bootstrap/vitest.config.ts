import { suiteProject } from '../../vitest.shared.ts'

export default suiteProject({ name: 'bootstrap', include: ['test/**/*.test.ts'] })
