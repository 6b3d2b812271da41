// The orchestrator's reliability tests (docs/reliability.md): services started, cut off, killed and restarted, minutes
// of them. Outside the default `npm test`; `npm run test:reliability` and CI run them.
import { suiteProject } from '../../vitest.shared.ts'

export default suiteProject({ name: 'orchestrator (reliability)', include: ['test/reliability/**/*.test.ts'] })
