// Fills Node's compile cache with every module the stack's processes load, by starting the whole stack once on
// a throw-away data folder and stopping it: the first `npm start` after `npm ci` then starts as fast as later
// ones and no process loads the TypeScript stripper (about 20 MB each). Run by `npm ci` (the root package's
// `prepare` script) with NODE_COMPILE_CACHE set; the stack hands the same folder to its processes.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startStack } from './stack.ts'

const dataDir = mkdtempSync(join(tmpdir(), 'slipway-warm-'))
try {
  const stack = await startStack({ dataDir, ports: { orchestrator: 0, bootstrap: 0, store: 0, engine: 0, site: 0 }, output: () => {} })
  await stack.close()
  process.stdout.write('warm-cache: every process started once; its compiled modules are kept for the next starts\n')
} finally {
  rmSync(dataDir, { recursive: true, force: true })
}
