// `npm start` at the default log level: once its banner is out, an idle stack prints nothing — the orchestrator
// polls the engine every second, and the stand-ins log the requests made of them at debug only — and when it is
// stopped, its last line says so.
import { describe, expect, it, onTestFinished } from 'vitest'
import { PROCESS_NAMES, startStack } from '../src/stack.ts'
import { dataFolder, freePorts, leftBehind, startRunner } from './helpers/processes.ts'

/** How long the idle stack is watched: several of the orchestrator's engine polls (one a second) and tag checks. */
const IDLE_WINDOW_MS = 6000

describe('npm start, idle', () => {
  it('prints nothing after its banner at the default LOG_LEVEL, and "slipway: stopped" once stopped', async () => {
    const { dir, marker } = dataFolder()
    const ports = await freePorts()
    const runner = startRunner(dir, ports, { LOG_LEVEL: undefined })
    await runner.until(/Ctrl-C stops everything\.\n/)
    const banner = runner.output()
    // the processes' start lines are info: the default level is in force
    expect(banner.stdout).toMatch(/^orchestrator +\| .*Server listening/m)
    // calls as the orchestrator and the engine make them all the time, reads and changes, refused or not: the
    // stand-ins log them at debug only
    const answered = await Promise.all([
      fetch(`http://127.0.0.1:${ports.engine}/api/v2/dags/~/dagRuns/list`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }),
      fetch(`http://127.0.0.1:${ports.engine}/api/v2/dags`),
      fetch(`http://127.0.0.1:${ports.site}/api/v1.0/nodes`),
      fetch(`http://127.0.0.1:${ports.store}/api/v1.0/revisions`)
    ])
    expect(answered.map((res) => res.status)).toEqual([401, 401, 401, 401])
    await new Promise((resolve) => setTimeout(resolve, IDLE_WINDOW_MS))
    expect(runner.output().stdout.slice(banner.stdout.length)).toBe('')
    expect(runner.output().stderr.slice(banner.stderr.length)).toBe('')

    runner.child.kill('SIGINT')
    expect(await runner.exited).toBe(0)
    const after = runner.output()
    // each process says it shuts down, then the runner that everything has stopped: its last line
    expect(after.stdout.split('\n').filter((line) => /received, shutting down/.test(line))).toHaveLength(PROCESS_NAMES.length)
    expect(after.stderr.slice(banner.stderr.length)).toBe('slipway: stopped\n')
    expect(await leftBehind(marker)).toEqual([])
  }, 120_000)
})

describe('the stand-ins at LOG_LEVEL=debug', () => {
  it('log each request made of them', async () => {
    const { dir } = dataFolder()
    const ports = await freePorts()
    const lines: string[] = []
    const debug = { LOG_LEVEL: 'debug' }
    const stack = await startStack({ dataDir: dir, ports, env: { store: debug, engine: debug, site: debug }, output: (name, line) => { lines.push(`${name} ${line}`) } })
    onTestFinished(async () => { await stack.close() })
    await fetch(`http://127.0.0.1:${ports.engine}/api/v2/dags/~/dagRuns/list`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })
    await fetch(`http://127.0.0.1:${ports.site}/api/v1.0/nodes`)
    await fetch(`http://127.0.0.1:${ports.store}/api/v1.0/revisions`)
    const logged = (name: string, pattern: RegExp): boolean => lines.some((line) => line.startsWith(`${name} `) && pattern.test(line))
    const deadline = Date.now() + 30_000
    const wanted = (): boolean[] => [
      logged('engine', /"level":20.*"url":"\/api\/v2\/dags\/~\/dagRuns\/list".*"statusCode":401.*"request done"/),
      logged('site', /"level":20.*"url":"\/api\/v1\.0\/nodes".*"statusCode":401.*"request done"/),
      logged('store', /"level":20.*"url":"\/api\/v1\.0\/revisions".*"statusCode":401.*"request done"/)
    ]
    while (wanted().includes(false) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100))
    expect(wanted()).toEqual([true, true, true])
  })
})
