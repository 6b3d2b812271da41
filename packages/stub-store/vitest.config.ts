import { suiteProject } from '../../vitest.shared.ts'

export default suiteProject({ name: 'stub-store', include: ['test/**/*.test.ts'] })
