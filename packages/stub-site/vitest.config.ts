import { suiteProject } from '../../vitest.shared.ts'

export default suiteProject({ name: 'stub-site', include: ['test/**/*.test.ts'] })
