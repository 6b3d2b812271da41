import { defineProject } from 'vitest/config'

export default defineProject({
  test: { name: 'stub-engine', include: ['test/**/*.test.ts'] }
})
