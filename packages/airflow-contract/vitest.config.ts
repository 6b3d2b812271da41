import { suiteProject } from '../../vitest.shared.ts'

export default suiteProject({ name: 'airflow-contract', include: ['test/**/*.test.ts'] })
