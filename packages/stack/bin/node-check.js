// Which Node can run Slipway, checked in plain JavaScript: Node 20 refuses a `.ts` file in its loader before any
// of our code runs, so this check must be a `.js` file. The root package's prestart and pretest scripts run it
// (`node packages/stack/bin/node-check.js "npm start"`), and prepare.js imports it.
import { fileURLToPath } from 'node:url'

// type stripping is on by default from Node 22.18 (and 23.6); the repository brings Node 24 (devDependency `node`)
const NEEDED = [22, 18]

/** True when Node `version` (x.y.z) runs TypeScript files directly. */
export function canRunSlipway (version = process.versions.node) {
  const [major = 0, minor = 0] = version.split('.').map(Number)
  return major > NEEDED[0] || (major === NEEDED[0] && minor >= NEEDED[1])
}

/** One line naming the Node needed, the Node found, and how to get the right one. */
export function tooOldLine (what) {
  return `slipway: ${what} needs Node >= ${NEEDED.join('.')}, but this is Node ${process.version} (${process.execPath}); ` +
    '`npm ci` installs Node 24 into node_modules/.bin (the devDependency `node`) unless it runs with --omit=dev or ' +
    '--ignore-scripts: run `npm ci`, then `npm start`, `npm test`, or `npx node <file>.ts`'
}

if (process.argv[1] === fileURLToPath(import.meta.url) && !canRunSlipway()) {
  process.stderr.write(`${tooOldLine(process.argv[2] ?? 'Slipway')}\n`)
  process.exit(1)
}
