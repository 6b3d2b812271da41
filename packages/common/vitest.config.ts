import { suiteProject } from '../../vitest.shared.ts'

export default suiteProject({ name: 'common', include: ['test/**/*.test.ts'] })
