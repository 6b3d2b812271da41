import { suiteProject } from '../../vitest.shared.ts'

// in `npm test`: the helpers that need no API server (certificates, token file, kubeconfig, the diff's normalizing)
export default suiteProject({ name: 'kubernetes', include: ['test/*.test.ts'] })
