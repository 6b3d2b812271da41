// The orchestrator's engine watch (it reads what changed in the engine every second, and everything every minute)
// with RUNS (default 500) live runs in stub-engine: `npm start`'s stack, RUNS test_site actions created through
// the orchestrator, their last step hanging so that every run stays running; their other steps take TASK_MS
// (default 20 s) each, so the runs keep changing during the first minute. No client calls the orchestrator while it
// is measured: its CPU is the watch's (and its other timers'). Prints the orchestrator's CPU seconds per minute and
// resident memory, idle with no runs and then each minute of MINUTES (default 3) with the live runs, the engine's
// CPU beside it, and a verdict: bounded when the orchestrator uses less than a tenth of a core (6 CPU s/min) and its
// memory grows less than 10% over the measured minutes.
// Run: node bench/watch-500.ts   (RUNS=1000, MINUTES=5, TASK_MS=… to change)
import { mkdtempSync, rmSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { startStack } from '@slipway/stack'
import { cpuSeconds, fixed, rssMiB } from './proc.ts'

function setting (name: string, fallback: number): number {
  const text = process.env[name]
  if (text === undefined || text === '') return fallback
  const value = Number(text)
  if (!Number.isInteger(value) || value <= 0) {
    console.error(`watch-500: ${name} must be a positive whole number, not ${JSON.stringify(text)}`)
    process.exit(2)
  }
  return value
}

const RUNS = setting('RUNS', 500)
const MINUTES = setting('MINUTES', 3)
const TASK_MS = setting('TASK_MS', 20_000)
const IDLE_S = 60
const CPU_BOUND_S_PER_MIN = 6
const RSS_GROWTH_BOUND = 0.10

const sleep = async (ms: number): Promise<void> => { await new Promise((resolve) => setTimeout(resolve, ms)) }
const dataDir = mkdtempSync(join(tmpdir(), 'slipway-watch-'))
const stack = await startStack({
  dataDir,
  ports: { orchestrator: 0, bootstrap: 0, store: 0, engine: 0, site: 0 },
  output: () => {},
  env: {
    engine: {
      ENGINE_MAX_ACTIVE_RUNS: String(RUNS * 2), ENGINE_TASK_MS: String(TASK_MS), ENGINE_HANG_TASKS: 'test_site/armada_test_releases'
    }
  }
})
const orchestrator = stack.pid('orchestrator')
const engine = stack.pid('engine')
const api = `${stack.urls.orchestrator}/api/v1.0`
const headers = { 'x-auth-token': stack.adminToken }

/** The orchestrator's calls to the engine so far (its metrics), and the engine watch's lag in seconds. */
async function watchFigures (): Promise<{ engineCalls: number, lagS: number }> {
  const text = await (await fetch(`${stack.urls.orchestrator}/metrics`)).text()
  const calls = [...text.matchAll(/^slipway_outbound_request_duration_seconds_count\{[^}]*component="engine"[^}]*\} (\S+)$/gm)]
  const lag = /^slipway_engine_watch_lag_seconds(?:\{[^}]*\})? (\S+)$/m.exec(text)?.[1]
  return { engineCalls: calls.reduce((sum, m) => sum + Number(m[1]), 0), lagS: Number(lag ?? Number.NaN) }
}

interface Figures { cpu: number, engineCpu: number, rss: number, engineCalls: number, lagS: number }

/** CPU seconds the orchestrator and the engine use over `seconds`, its engine calls, and its RSS and lag at the end. */
async function measure (seconds: number): Promise<Figures> {
  const before = { cpu: cpuSeconds(orchestrator), engineCpu: cpuSeconds(engine), ...(await watchFigures()) }
  await sleep(seconds * 1000)
  const after = await watchFigures()
  return {
    cpu: cpuSeconds(orchestrator) - before.cpu,
    engineCpu: cpuSeconds(engine) - before.engineCpu,
    rss: rssMiB(orchestrator),
    engineCalls: after.engineCalls - before.engineCalls,
    lagS: after.lagS
  }
}

/** GET /actions: how many actions there are and how many of them are in progress. */
async function actionStates (): Promise<{ total: number, processing: number }> {
  const list = await (await fetch(`${api}/actions`, { headers })).json() as Array<{ action_lifecycle: string }>
  return { total: list.length, processing: list.filter((a) => a.action_lifecycle === 'Processing').length }
}

let exitCode = 0
try {
  console.log(`watch-500: ${RUNS} live runs, ${MINUTES} min measured, ${TASK_MS} ms per step; load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`)
  await sleep(10_000)
  const idle = await measure(IDLE_S)
  const perMin = (cpu: number, seconds: number): number => cpu / (seconds / 60)
  console.log(`no runs: orchestrator ${fixed(perMin(idle.cpu, IDLE_S), 2)} CPU s/min, RSS ${fixed(idle.rss)} MiB, ` +
    `${fixed(perMin(idle.engineCalls, IDLE_S), 0)} engine calls/min; engine ${fixed(perMin(idle.engineCpu, IDLE_S), 2)} CPU s/min`)

  const createStarted = performance.now()
  let next = 0
  const statuses = new Map<number, number>()
  await Promise.all(Array.from({ length: 10 }, async () => {
    while (next < RUNS) {
      next++
      const res = await fetch(`${api}/actions`, {
        method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: '{"name": "test_site"}'
      })
      await res.arrayBuffer()
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1)
    }
  }))
  const created = statuses.get(201) ?? 0
  const tally = [...statuses].map(([s, n]) => `${s}×${n}`).join(' ')
  console.log(`created ${created} test_site actions in ${fixed((performance.now() - createStarted) / 1000)} s (${tally}); ` +
    `orchestrator RSS ${fixed(rssMiB(orchestrator))} MiB`)
  if (created !== RUNS) throw new Error(`only ${created} of ${RUNS} actions were created`)
  // every run started (its first step running) before the minutes are measured
  const startDeadline = Date.now() + 300_000
  let states = await actionStates()
  while (states.processing < RUNS && Date.now() < startDeadline) {
    await sleep(2000)
    states = await actionStates()
  }
  console.log(`in progress: ${states.processing} of ${states.total} actions, ${fixed((performance.now() - createStarted) / 1000)} s after the first create`)

  const rssBefore = rssMiB(orchestrator)
  const minutes: Figures[] = []
  for (let m = 1; m <= MINUTES; m++) {
    const minute = await measure(60)
    minutes.push(minute)
    console.log(`minute ${m}: orchestrator ${fixed(minute.cpu, 2)} CPU s, RSS ${fixed(minute.rss)} MiB, ` +
      `${minute.engineCalls} engine calls, watch lag ${fixed(minute.lagS, 1)} s; engine ${fixed(minute.engineCpu, 2)} CPU s; load ${fixed(loadavg()[0] ?? Number.NaN, 2)}`)
  }
  const after = await actionStates()
  const worstCpu = Math.max(...minutes.map((m) => m.cpu))
  const rssAfter = minutes.at(-1)?.rss ?? Number.NaN
  const growth = (rssAfter - rssBefore) / rssBefore
  console.log(`still in progress at the end: ${after.processing} of ${after.total}`)
  const perMinute = minutes.map((m) => fixed(m.cpu, 2)).join(' / ')
  console.log(`orchestrator with ${RUNS} live runs: CPU ${perMinute} s per minute (no runs: ${fixed(perMin(idle.cpu, IDLE_S), 2)}), ` +
    `RSS ${fixed(idle.rss)} MiB without runs, ${fixed(rssBefore)} MiB once created, ${fixed(rssAfter)} MiB after ${MINUTES} min (${growth >= 0 ? '+' : ''}${fixed(growth * 100)}%)`)
  // the watch kept polling: fresh (lag within its 5 s bound) at the end of every minute
  const polling = minutes.every((m) => m.lagS <= 5)
  const bounded = worstCpu < CPU_BOUND_S_PER_MIN && growth < RSS_GROWTH_BOUND && after.processing === RUNS && polling
  console.log(bounded
    ? `verdict: bounded (under ${CPU_BOUND_S_PER_MIN} CPU s/min, RSS growth under ${RSS_GROWTH_BOUND * 100}%, every run live throughout, the watch fresh)`
    : `verdict: NOT bounded (CPU bound ${CPU_BOUND_S_PER_MIN} s/min, RSS growth bound ${RSS_GROWTH_BOUND * 100}%, ` +
      `runs live ${after.processing} of ${RUNS}, watch ${polling ? 'polling' : 'stale'})`)
  if (!bounded) exitCode = 1
} finally {
  await stack.close()
  rmSync(dataDir, { recursive: true, force: true })
}
process.exit(exitCode)
