import { defineProject } from 'vitest/config'

export default defineProject({
  test: { name: 'airflow-contract', include: ['test/**/*.test.ts'] }
})
