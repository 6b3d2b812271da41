// runScript: a script's last stdout line is its answer, its stderr lines are progress; exit 3 is the caller's
// "unavailable" error, any other failure an error naming the script with what it said last.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { runScript } from '../src/script.ts'

const dir = mkdtempSync(join(tmpdir(), 'slipway-script-'))
afterAll(() => { rmSync(dir, { recursive: true, force: true }) })

function script (name: string, body: string): string {
  const path = join(dir, `${name}.sh`)
  writeFileSync(path, body)
  return path
}

class Unavailable extends Error {}
const unavailable = (reason: string | undefined): Error => new Unavailable(reason ?? 'nothing said')

describe('runScript', () => {
  it('answers the last stdout line and hands on each non-blank stderr line', async () => {
    const path = script('ok', 'echo step one >&2\necho >&2\necho "step $1" >&2\necho /tmp/first\necho /tmp/venv\n')
    const lines: string[] = []
    const result = await runScript(path, ['two'], { name: 'demo', output: (line) => { lines.push(line) }, unavailable })
    expect(result).toEqual({ answer: '/tmp/venv', said: ['step one', 'step two'] })
    expect(lines).toEqual(['step one', 'step two'])
  })

  it('rejects exit 3 with the caller\'s error, given the last stderr line or nothing', async () => {
    await expect(runScript(script('skip', 'echo looking >&2\necho no python here >&2\nexit 3\n'), [], { name: 'demo', unavailable }))
      .rejects.toThrow(new Unavailable('no python here'))
    await expect(runScript(script('silent', 'exit 3\n'), [], { name: 'demo', unavailable })).rejects.toThrow('nothing said')
  })

  it('rejects any other failure naming the script, its exit code and its last five stderr lines', async () => {
    const path = script('fail', 'for i in 1 2 3 4 5 6; do echo "line $i" >&2; done\nexit 7\n')
    const error = await runScript(path, [], { name: 'demo build', unavailable }).catch((caught: unknown) => caught)
    expect(error).not.toBeInstanceOf(Unavailable)
    expect((error as Error).message).toBe('demo build failed (exit 7): line 2 | line 3 | line 4 | line 5 | line 6')
  })
})
