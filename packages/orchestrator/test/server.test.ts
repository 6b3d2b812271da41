// `node packages/orchestrator/src/server.ts` as an operator runs it: a bad variable or an unusable database is one
// line naming the variable and exit 2, never a stack trace; a start without a token file warns that every request
// will be refused.
import { spawn } from 'node:child_process'
import { createServer } from 'node:net'
import { resolve } from 'node:path'
import { describe, expect, it, onTestFinished } from 'vitest'

const SERVER = resolve(import.meta.dirname, '../src/server.ts')

/** Runs the server until it exits, or until `until` matches its output (then it is stopped). */
async function runServer (env: Record<string, string>, until?: RegExp): Promise<{ code: number | null, stdout: string, stderr: string }> {
  const child = spawn(process.execPath, [SERVER], { env: { PATH: process.env.PATH ?? '', ORCHESTRATOR_DATA_DIR: ':memory:', PORT: '0', ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
  onTestFinished(() => { child.kill('SIGKILL') })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString()
    if (until?.test(stdout) === true) child.kill('SIGTERM')
  })
  child.stderr.on('data', (chunk: Buffer) => { stderr += chunk.toString() })
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve))
  return { code, stdout, stderr }
}

async function closedPort (): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as { port: number }).port
  await new Promise((resolve) => server.close(resolve))
  return port
}

describe('orchestrator start-up', () => {
  it('names every bad variable on a line of its own and exits 2', async () => {
    const result = await runServer({ PORT: 'abc', LOG_LEVEL: 'loud', DATABASE_URL: 'nonsense' })
    expect(result.code).toBe(2)
    expect(result.stderr.trim().split('\n')).toEqual([
      'orchestrator: PORT: must be integer (got "abc")',
      'orchestrator: LOG_LEVEL: must be one of fatal, error, warn, info, debug, trace, silent (got "loud")',
      'orchestrator: DATABASE_URL: must look like postgres://user:password@host:5432/database (got "nonsense")'
    ])
  })

  it('says that PostgreSQL does not answer, naming DATABASE_URL without its password, and exits 2', async () => {
    const port = await closedPort()
    const result = await runServer({ DATABASE_URL: `postgres://slipway:hunter2@127.0.0.1:${port}/slipway` })
    expect(result.code).toBe(2)
    expect(result.stderr).toBe(`orchestrator: DATABASE_URL: PostgreSQL at 127.0.0.1:${port}/slipway refuses connections (is PostgreSQL running there?)\n`)
  })

  it('names the busy port and exits 2', async () => {
    const server = createServer()
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    onTestFinished(() => { server.close() })
    const port = (server.address() as { port: number }).port
    const result = await runServer({ PORT: String(port), LOG_LEVEL: 'silent' })
    expect(result.code).toBe(2)
    expect(result.stderr).toBe(`orchestrator: PORT: 127.0.0.1:${port} is in use by another process (set PORT, or stop that process)\n`)
  })

  it('warns at start-up that without AUTH_TOKENS_FILE every request but health is refused', async () => {
    const result = await runServer({}, /Server listening/)
    const warning = result.stdout.split('\n').filter((line) => line.includes('AUTH_TOKENS_FILE'))
    expect(warning).toHaveLength(1)
    expect(JSON.parse(warning[0] ?? '{}')).toMatchObject({ level: 40, msg: expect.stringContaining('every request but health answers 401') })
  })
})
