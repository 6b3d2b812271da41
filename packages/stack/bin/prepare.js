// The root package's `prepare` script, run by `npm ci`: says which Node runs Slipway (npm itself may run on an
// older one), then fills Node's compile cache by starting the stack once (src/warm-cache.ts). It never fails the
// install: without a recent Node or with a failing start it says so in one line and the first `npm start` is slower.
import { relative } from 'node:path'
import { canRunSlipway, tooOldLine } from './node-check.js'

const npmNode = /\bnode\/(v[\d.]+)/.exec(process.env.npm_config_user_agent ?? '')?.[1]
if (!canRunSlipway()) {
  process.stdout.write(`${tooOldLine('Slipway')} (compile cache not warmed)\n`)
  process.exit(0)
}
const runtime = `slipway: npm scripts run Slipway on Node ${process.version} (${relative(process.cwd(), process.execPath)})`
// npm checks `engines` against its own Node: the EBADENGINE warnings it prints are about that Node, not this one
const npmNote = npmNode !== undefined && npmNode !== process.version ? `; npm runs on Node ${npmNode}, which any EBADENGINE warning above is about` : ''
process.stdout.write(`${runtime}${npmNote}\n`)
try {
  await import('../src/warm-cache.ts')
} catch (error) {
  process.stdout.write(`slipway: compile cache not warmed (${error instanceof Error ? error.message : String(error)}); the first npm start is slower\n`)
}
