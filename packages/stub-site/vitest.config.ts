import { defineProject } from 'vitest/config'

export default defineProject({
  test: { name: 'stub-site', include: ['test/**/*.test.ts'] }
})
