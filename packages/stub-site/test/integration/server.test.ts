import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { request } from 'undici'
import { describe, expect, it, onTestFinished } from 'vitest'
import { EXAMPLE_NODES_FILE } from '../helpers/site.ts'

const SERVER = fileURLToPath(new URL('../../src/server.ts', import.meta.url))

function run (env: Record<string, string>) {
  const child = spawn(process.execPath, [SERVER], { env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
  onTestFinished(() => { if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL') })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk: Buffer) => { stdout += chunk.toString() })
  child.stderr.on('data', (chunk: Buffer) => { stderr += chunk.toString() })
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  const listening = new Promise<string>((resolve, reject) => {
    child.stdout.on('data', () => {
      const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(stdout)
      if (match?.[1] !== undefined) resolve(match[1])
    })
    exited.then((code) => reject(new Error(`exited ${code}: ${stderr}`)), reject)
  })
  // a test that expects the exit never awaits `listening`
  listening.catch(() => {})
  return { child, listening, exited, output: () => ({ stdout, stderr }) }
}

describe('node src/server.ts', () => {
  it('runs alone on the given port, serves the nodes file, and exits 0 on SIGTERM', async () => {
    const server = run({ HOST: '127.0.0.1', PORT: '0', SITE_NODES_FILE: EXAMPLE_NODES_FILE })
    const url = await server.listening
    const res = await request(`${url}/api/v1.0/nodes`)
    expect(res.statusCode).toBe(200)
    expect(await res.body.json()).toHaveLength(4)
    server.child.kill('SIGTERM')
    expect(await server.exited).toBe(0)
  })

  it('refuses to start on bad variables, one line naming each, exit 2', async () => {
    const server = run({ PORT: '0', SITE_FAULT: 'sometimes', LOG_LEVEL: 'loud' })
    expect(await server.exited).toBe(2)
    expect(server.output().stderr).toBe([
      'stub-site: LOG_LEVEL: must be one of fatal, error, warn, info, debug, trace, silent (got "loud")',
      'stub-site: SITE_FAULT: must be one of none, error, hang (got "sometimes")',
      ''
    ].join('\n'))
  })

  it('refuses to start on a missing nodes file, naming SITE_NODES_FILE, exit 2', async () => {
    const server = run({ PORT: '0', SITE_NODES_FILE: '/nonexistent/nodes.yaml' })
    expect(await server.exited).toBe(2)
    expect(server.output().stderr).toBe('stub-site: SITE_NODES_FILE: /nonexistent/nodes.yaml cannot be read (ENOENT)\n')
  })
})
