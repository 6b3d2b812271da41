// `npm start` failing or stopped at any moment leaves no process running and no port listening: a busy port is
// found before anything starts, a process that dies while the others start stops them all, Ctrl-C during or after
// the start stops everything, and a runner killed outright takes its processes with it.
import { mkdirSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { join } from 'node:path'
import { describe, expect, it, onTestFinished } from 'vitest'
import { StackStartError, startStack, PROCESS_NAMES } from '../src/stack.ts'
import { busyPorts, dataFolder, freePorts, leftBehind, startRunner } from './helpers/processes.ts'

async function hold (port: number): Promise<void> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve))
  onTestFinished(() => { server.close() })
}

describe('npm start', () => {
  it('names a busy port, what holds it and the variable to set, and starts nothing', async () => {
    const { dir, marker } = dataFolder()
    const ports = await freePorts()
    await hold(ports.site)
    const runner = startRunner(dir, ports)
    expect(await runner.exited).toBe(2)
    expect(runner.output().stderr.trim().split('\n')).toEqual([
      expect.stringMatching(new RegExp(`^slipway: port ${ports.site} \\(site\\) is in use by pid ${process.pid}\\b.*: set SITE_PORT, or stop what holds it$`))
    ])
    expect(runner.output().stdout).not.toContain('Slipway is up')
    expect(await leftBehind(marker)).toEqual([])
  })

  it('says which variables of the caller it does not use, and what an earlier stack left without its tokens', async () => {
    const { dir } = dataFolder()
    mkdirSync(join(dir, 'engine'))
    writeFileSync(join(dir, 'engine', 'engine-state.json'), '{}')
    const ports = await freePorts()
    await hold(ports.orchestrator)
    const runner = startRunner(dir, ports, { PORT: '1', STORE_URL: 'http://elsewhere', TLS_CERT_FILE: '/no/cert.pem', LOG_LEVEL: 'debug' })
    expect(await runner.exited).toBe(2)
    const lines = runner.output().stderr.trim().split('\n')
    expect(lines[0]).toMatch(/^slipway: npm start sets PORT, STORE_URL, TLS_CERT_FILE itself for its processes and does not use the values in this environment/)
    expect(lines[1]).toBe(`slipway: ${dir} has no admin-token but holds engine state from an earlier stack: those processes will remember what the others do not; to start afresh, stop the stack and delete ${dir}`)
  })

  it('stops every other process when one dies while they start, in one line naming the variable', async () => {
    const { dir, marker } = dataFolder()
    const ports = await freePorts()
    const runner = startRunner(dir, ports, { DATABASE_URL: 'nonsense' })
    expect(await runner.exited).toBe(2)
    expect(runner.output().stderr).toContain('slipway: orchestrator stopped while starting (exit code 2): DATABASE_URL: must look like postgres://user:password@host:5432/database (got "nonsense")\n')
    expect(await leftBehind(marker)).toEqual([])
    expect(await busyPorts(Object.values(ports))).toEqual([])
  })

  it('stops everything on Ctrl-C while it starts', async () => {
    const { dir, marker } = dataFolder()
    const runner = startRunner(dir, await freePorts(), { LOG_LEVEL: 'info' })
    await runner.until(/Server listening/)
    runner.child.kill('SIGINT')
    expect(await runner.exited).toBe(130)
    expect(runner.output().stderr).toContain('slipway: start interrupted; every process it had started is stopped')
    expect(await leftBehind(marker)).toEqual([])
  })

  it('stops every process gracefully, once, on Ctrl-C once up', async () => {
    const { dir, marker } = dataFolder()
    const ports = await freePorts()
    const runner = startRunner(dir, ports, { LOG_LEVEL: 'info' })
    await runner.until(/Ctrl-C stops everything/)
    // the orchestrator's and the bootstrap service's URLs in the banner answer
    for (const port of [ports.orchestrator, ports.bootstrap]) {
      const index = await fetch(`http://127.0.0.1:${port}/api/v1.0`)
      expect(index.status).toBe(200)
      expect(((await index.json()) as { routes: string[] }).routes).toContain('GET /api/v1.0/health (no token)')
    }
    runner.child.kill('SIGINT')
    expect(await runner.exited).toBe(0)
    expect(await leftBehind(marker)).toEqual([])
    expect(await busyPorts(Object.values(ports))).toEqual([])
    // the runner polled every health URL while starting: no process logs those polls at info
    expect(runner.output().stdout).not.toMatch(/\/health/)
    const shutdowns = runner.output().stdout.split('\n').filter((line) => /received, shutting down/.test(line))
    expect(shutdowns).toHaveLength(PROCESS_NAMES.length)
    expect(shutdowns.every((line) => line.includes('SIGTERM'))).toBe(true)
  })

  it('takes its processes with it when the runner itself is killed', async () => {
    const { dir, marker } = dataFolder()
    const ports = await freePorts()
    const runner = startRunner(dir, ports)
    await runner.until(/Ctrl-C stops everything/)
    expect(await leftBehind(marker, 0)).toHaveLength(PROCESS_NAMES.length + 1)
    runner.child.kill('SIGKILL')
    await runner.exited
    expect(await leftBehind(marker)).toEqual([])
    expect(await busyPorts(Object.values(ports))).toEqual([])
  })
})

describe('npm start, slow to become healthy', () => {
  /** A module every process of the stack loads first: the store's start waits until the test opens the gate. */
  function storeGate (dir: string): { nodeOptions: string, open: () => void } {
    const gate = join(dir, 'gate-open')
    const module = join(dir, 'store-gate.mjs')
    writeFileSync(module, [
      "import { existsSync } from 'node:fs'",
      `if (process.argv[1]?.includes('stub-store')) while (!existsSync(${JSON.stringify(gate)})) await new Promise((resolve) => setTimeout(resolve, 50))`
    ].join('\n'))
    return { nodeOptions: `--import ${module}`, open: () => { writeFileSync(gate, '') } }
  }

  it('says which process it still waits for, and waits as long as SLIPWAY_HEALTH_TIMEOUT_S allows', async () => {
    const { dir, marker } = dataFolder()
    const gate = storeGate(dir)
    const runner = startRunner(dir, await freePorts(), { NODE_OPTIONS: gate.nodeOptions, SLIPWAY_HEALTH_TIMEOUT_S: '600' })
    // every 5 s the runner names the processes not yet healthy; the store cannot be healthy while its gate is shut
    await runner.until(/still waiting for (\w+, )*store\b.*health URL \(\d+ s so far; each may take 600 s: SLIPWAY_HEALTH_TIMEOUT_S\)/, 60_000)
    expect(runner.output().stdout).not.toContain('Slipway is up')
    gate.open()
    await runner.until(/Ctrl-C stops everything/)
    runner.child.kill('SIGINT')
    expect(await runner.exited).toBe(0)
    expect(await leftBehind(marker)).toEqual([])
  })

  it('stops everything when a process is not healthy within SLIPWAY_HEALTH_TIMEOUT_S, naming it', async () => {
    const { dir, marker } = dataFolder()
    const ports = await freePorts()
    const runner = startRunner(dir, ports, { NODE_OPTIONS: storeGate(dir).nodeOptions, SLIPWAY_HEALTH_TIMEOUT_S: '1' })
    expect(await runner.exited).toBe(1)
    // the store never is; on a busy machine another process may be named first, as late as the store
    expect(runner.output().stderr).toMatch(/^slipway: (store|site|engine|bootstrap|orchestrator) not healthy within 1 s \(http:\/\/127\.0\.0\.1:\d+\/api\/v\S+\/health\)$/m)
    expect(runner.output().stdout).not.toContain('Slipway is up')
    expect(await leftBehind(marker)).toEqual([])
    expect(await busyPorts(Object.values(ports))).toEqual([])
  })

  it.each(['0', 'soon', '1.5', '-3'])('refuses SLIPWAY_HEALTH_TIMEOUT_S=%s before anything starts', async (value) => {
    const { dir, marker } = dataFolder()
    const runner = startRunner(dir, await freePorts(), { SLIPWAY_HEALTH_TIMEOUT_S: value })
    expect(await runner.exited).toBe(2)
    expect(runner.output().stderr).toBe(`slipway: SLIPWAY_HEALTH_TIMEOUT_S: must be a whole number of seconds, at least 1 (got ${JSON.stringify(value)})\n`)
    expect(await leftBehind(marker)).toEqual([])
  })
})

describe('npm start, killed', () => {
  it('stops everything when npm itself is killed outright', async () => {
    const { dir, marker } = dataFolder()
    const ports = await freePorts()
    // npm's place: a parent of the runner that dies without a word, the runner started as npm starts scripts
    const runner = startRunner(dir, ports, { npm_lifecycle_event: 'start' }, true)
    await runner.until(/Ctrl-C stops everything/)
    runner.child.kill('SIGKILL')
    await runner.exited
    expect(await leftBehind(marker)).toEqual([])
    expect(await busyPorts(Object.values(ports))).toEqual([])
  })
})

describe('startStack', () => {
  it('stops the processes it started when a port is taken half-way, naming the stack\'s variable', async () => {
    const { dir } = dataFolder()
    const marker = `SLIPWAY_TEST_RUN=${dir}`
    const ports = await freePorts()
    await hold(ports.site)
    const env = Object.fromEntries(PROCESS_NAMES.map((name) => [name, { SLIPWAY_TEST_RUN: dir }]))
    const started = startStack({ dataDir: dir, ports, env, checkPorts: false, output: () => {} })
    await expect(started).rejects.toThrow(StackStartError)
    await expect(started).rejects.toMatchObject({ exitCode: 2, problems: [`port ${ports.site} (site) is in use: set SITE_PORT, or stop what holds it`] })
    expect(await leftBehind(marker)).toEqual([])
    expect(await busyPorts(Object.values(ports).filter((port) => port !== ports.site))).toEqual([])
  })
})
