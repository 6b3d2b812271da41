import { defineProject } from 'vitest/config'

export default defineProject({
  test: { name: 'airflow', include: ['test/*.test.ts'] }
})
