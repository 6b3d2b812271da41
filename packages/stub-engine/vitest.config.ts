import { suiteProject } from '../../vitest.shared.ts'

// a test's waits (waitRun: 30 s, the tests' own polls: 30 s) end with what they waited for before the test's own
// limit ends it with no more than "timed out": the limit is above the longest wait
export default suiteProject({ name: 'stub-engine', include: ['test/**/*.test.ts'], testTimeout: 60_000 })
