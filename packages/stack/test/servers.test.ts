// Each service run alone (`node packages/<name>/src/server.ts`): bad variables are one line each, prefixed by the
// service and naming the variable, exit 2 — no stack trace.
import { spawn } from 'node:child_process'
import { resolve } from 'node:path'
import { describe, expect, it, onTestFinished } from 'vitest'

const ROOT = resolve(import.meta.dirname, '../../..')
const SERVICES = [
  { name: 'orchestrator', entry: 'packages/orchestrator/src/server.ts' },
  { name: 'bootstrap', entry: 'packages/bootstrap/src/server.ts' },
  { name: 'stub-store', entry: 'packages/stub-store/src/server.ts' },
  { name: 'stub-site', entry: 'packages/stub-site/src/server.ts' }
]

describe.each(SERVICES)('node $entry', ({ name, entry }) => {
  it('names each bad variable on a line of its own and exits 2', async () => {
    const child = spawn(process.execPath, [resolve(ROOT, entry)], { env: { PATH: process.env.PATH ?? '', PORT: 'abc', LOG_LEVEL: 'loud' }, stdio: ['ignore', 'pipe', 'pipe'] })
    onTestFinished(() => { child.kill('SIGKILL') })
    let stderr = ''
    child.stderr.on('data', (chunk: Buffer) => { stderr += chunk.toString() })
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve))
    expect(code).toBe(2)
    expect(stderr.trim().split('\n').sort()).toEqual([
      `${name}: LOG_LEVEL: must be one of fatal, error, warn, info, debug, trace, silent (got "loud")`,
      `${name}: PORT: must be integer (got "abc")`
    ])
  })
})
