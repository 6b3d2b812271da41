// `npm run test:airflow`: the suites that run Slipway on a real Apache Airflow (AIRFLOW_VERSION, default 3.1.5; its
// database as AIRFLOW_TEST_DATABASE says, test/real/helpers/airflow-database.ts) and hold stub-engine to it. One
// Airflow at a time on a small machine: files run one after another.
import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    name: 'airflow-real',
    root: import.meta.dirname,
    include: ['test/real/**/*.test.ts', 'test/diff/**/*.test.ts'],
    fileParallelism: false,
    testTimeout: 600_000,
    hookTimeout: 600_000,
    reporters: ['default']
  }
})
