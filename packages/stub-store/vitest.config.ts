import { defineProject } from 'vitest/config'

export default defineProject({
  test: { name: 'stub-store', include: ['test/**/*.test.ts'] }
})
