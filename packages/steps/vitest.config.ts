import { suiteProject } from '../../vitest.shared.ts'

export default suiteProject({ name: 'steps', include: ['test/**/*.test.ts'] })
