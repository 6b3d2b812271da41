import { suiteProject } from '../../vitest.shared.ts'

export default suiteProject({ name: 'airflow', include: ['test/*.test.ts'] })
