import { suiteProject } from '../../vitest.shared.ts'

export default suiteProject({ name: 'stack', include: ['test/**/*.test.ts'], testTimeout: 120_000, hookTimeout: 60_000 })
