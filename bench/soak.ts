// Soak of `npm start`'s stack: SOAK_MINUTES (default 20) of mixed traffic through the orchestrator — staging and
// committing, site actions one after another and test_site beside them, each polled to its end with its steps and
// logs read, and clients polling the lists — while every process's resident memory is sampled. After the warm-up
// (SOAK_WARMUP_MINUTES, default 15% of the run, at most 3) each service's memory must stay flat: every minute's
// median within 10% of the first minute's after the warm-up. Prints the series per service, the requests answered,
// the machine's load average and a verdict; exits 1 when a service is not flat or a request answered 5xx.
// SOAK_HISTORY (default 0) finished test_site actions are made first, so that the run has a long history behind it.
// Run: node bench/soak.ts   (SOAK_MINUTES=2 for a short try; SOAK_SAMPLE_S, default 10, between samples)
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { PROCESS_NAMES, startStack, type ProcessName } from '@slipway/stack'
import { cpuSeconds, fixed, median, rssMiB } from './proc.ts'
import { startTraffic } from './soak-traffic.ts'
import { growHistory, newHistory } from './grow-history.ts'

function setting (name: string, fallback: number): number {
  const text = process.env[name]
  if (text === undefined || text === '') return fallback
  const value = Number(text)
  if (!Number.isFinite(value) || value <= 0) {
    console.error(`soak: ${name} must be a positive number of ${name.endsWith('_S') ? 'seconds' : 'minutes'}, not ${JSON.stringify(text)}`)
    process.exit(2)
  }
  return value
}

const MINUTES = setting('SOAK_MINUTES', 20)
const WARMUP_MINUTES = setting('SOAK_WARMUP_MINUTES', Math.min(3, MINUTES * 0.15))
const SAMPLE_S = setting('SOAK_SAMPLE_S', 10)
const HISTORY = process.env.SOAK_HISTORY === undefined || process.env.SOAK_HISTORY === '' ? 0 : setting('SOAK_HISTORY', 0)
const TOLERANCE = 0.10
if (WARMUP_MINUTES + 1 >= MINUTES) {
  console.error(`soak: the run (${MINUTES} min) must be longer than the warm-up (${WARMUP_MINUTES} min) and a minute`)
  process.exit(2)
}

interface Sample {
  atS: number
  load: number
  rss: Record<ProcessName, number>
  cpu: Record<ProcessName, number>
  heap: Partial<Record<ProcessName, number>>
}
/** The services that serve Prometheus metrics: their V8 heap in use is sampled beside RSS (a leak grows it, a high-water mark does not). */
const METERED: ProcessName[] = ['orchestrator', 'bootstrap']

const SITE = resolve(import.meta.dirname, '../examples/site')
const dataDir = mkdtempSync(join(tmpdir(), 'slipway-soak-'))
const ports = { orchestrator: 0, bootstrap: 0, store: 0, engine: 0, site: 0 }
// up to 64 runs at once, so that a history of thousands is made in minutes (the traffic itself runs a few at a time)
const engineEnv = { ENGINE_TASK_MS: '100', ENGINE_MAX_ACTIVE_RUNS: '64' }
const stack = await startStack({ dataDir, ports, output: () => {}, env: { engine: engineEnv } })
const pids = Object.fromEntries(PROCESS_NAMES.map((name) => [name, stack.pid(name)])) as Record<ProcessName, number | undefined>
const started = performance.now()
const samples: Sample[] = []
async function heapMiB (name: ProcessName): Promise<number> {
  try {
    const text = await (await fetch(`${stack.urls[name]}/metrics`, { signal: AbortSignal.timeout(10_000) })).text()
    return Number(/^nodejs_heap_size_used_bytes(?:\{[^}]*\})? (\S+)$/m.exec(text)?.[1] ?? Number.NaN) / 2 ** 20
  } catch {
    return Number.NaN
  }
}
const sample = async (): Promise<void> => {
  const atS = (performance.now() - started) / 1000
  const rss = Object.fromEntries(PROCESS_NAMES.map((name) => [name, rssMiB(pids[name])])) as Record<ProcessName, number>
  const cpu = Object.fromEntries(PROCESS_NAMES.map((name) => [name, cpuSeconds(pids[name])])) as Record<ProcessName, number>
  const heap: Sample['heap'] = {}
  for (const name of METERED) heap[name] = await heapMiB(name)
  samples.push({ atS, load: loadavg()[0] ?? Number.NaN, rss, cpu, heap })
}

let exitCode = 0
try {
  if (HISTORY > 0) {
    console.log(`soak: a history of ${HISTORY} finished test_site actions first`)
    await growHistory(`${stack.urls.orchestrator}/api/v1.0`, stack.adminToken, newHistory(), HISTORY)
  }
  console.log(`soak: ${MINUTES} min of mixed traffic, warm-up ${fixed(WARMUP_MINUTES)} min, a sample every ${SAMPLE_S} s; ` +
    `load average at start ${loadavg().map((l) => l.toFixed(2)).join(' ')}`)
  await sample()
  const traffic = await startTraffic({
    api: `${stack.urls.orchestrator}/api/v1.0`,
    token: stack.adminToken,
    site: { global: readFileSync(join(SITE, 'global.yaml'), 'utf8'), site: readFileSync(join(SITE, 'site.yaml'), 'utf8') }
  })
  const sampler = setInterval(() => { sampled = sampled.then(async () => { await sample(); progress() }) }, SAMPLE_S * 1000)
  let sampled = Promise.resolve()
  const progress = (): void => {
    const last = samples.at(-1)
    if (last !== undefined && samples.length % Math.max(1, Math.round(60 / SAMPLE_S)) === 0) {
      const rss = PROCESS_NAMES.map((n) => `${n} ${fixed(last.rss[n])}`).join(', ')
      console.log(`soak: ${fixed(last.atS / 60)} min, load ${fixed(last.load, 2)}, RSS ${rss} MiB; ${traffic.total()} requests`)
    }
  }
  await new Promise((resolve) => setTimeout(resolve, MINUTES * 60_000))
  clearInterval(sampler)
  await sampled
  await sample()
  await traffic.stop()
  exitCode = report(traffic.summary(), traffic.serverErrors())
} finally {
  await stack.close()
  rmSync(dataDir, { recursive: true, force: true })
}
process.exit(exitCode)

/** Prints the figures and the verdict; the exit code (0: every service flat and no 5xx). */
function report (requests: string[], serverErrors: number): number {
  const warmupS = WARMUP_MINUTES * 60
  const after = samples.filter((s) => s.atS >= warmupS)
  const minuteOf = (s: Sample): number => Math.floor((s.atS - warmupS) / 60)
  const minutes = [...new Set(after.map(minuteOf))]
  const loads = samples.map((s) => s.load)
  console.log(`\nsoak: ${fixed((samples.at(-1)?.atS ?? 0) / 60)} min run; load average (1 min) min ${fixed(Math.min(...loads), 2)}, median ${fixed(median(loads), 2)}, max ${fixed(Math.max(...loads), 2)} on ${String((globalThis.navigator?.hardwareConcurrency ?? '?'))} cores`)
  console.log('requests (status × count, slowest):')
  for (const line of requests) console.log(`  ${line}`)
  console.log('RSS in MiB per service; baseline = median of the first minute after the warm-up; per-minute medians after it:')
  const notFlat: string[] = []
  for (const name of PROCESS_NAMES) {
    const series = after.map((s) => s.rss[name])
    const perMinute = minutes.map((m) => median(after.filter((s) => minuteOf(s) === m).map((s) => s.rss[name])))
    const baseline = perMinute[0] ?? Number.NaN
    const worst = perMinute.reduce((w, v) => Math.abs(v - baseline) > Math.abs(w - baseline) ? v : w, baseline)
    const drift = (worst - baseline) / baseline
    const lastDrift = ((perMinute.at(-1) ?? Number.NaN) - baseline) / baseline
    const flat = Number.isFinite(drift) && Math.abs(drift) <= TOLERANCE
    if (!flat) notFlat.push(`${name} (${drift >= 0 ? '+' : ''}${fixed(drift * 100)}%)`)
    const first = samples[0]
    const last = samples.at(-1)
    const cpuPerMin = first !== undefined && last !== undefined
      ? (last.cpu[name] - first.cpu[name]) / ((last.atS - first.atS) / 60)
      : Number.NaN
    console.log(`  ${name.padEnd(12)} start ${fixed(first?.rss[name] ?? Number.NaN)}, baseline ${fixed(baseline)}, ` +
      `min ${fixed(Math.min(...series))}, max ${fixed(Math.max(...series))}, ` +
      `last minute ${fixed(perMinute.at(-1) ?? Number.NaN)} (${lastDrift >= 0 ? '+' : ''}${fixed(lastDrift * 100)}%), ` +
      `largest minute drift ${drift >= 0 ? '+' : ''}${fixed(drift * 100)}%, CPU ${fixed(cpuPerMin, 2)} s/min: ${flat ? 'flat' : 'NOT FLAT'}`)
    console.log(`  ${''.padEnd(12)} ${perMinute.map((v) => fixed(v, 0)).join(' ')}`)
    if (METERED.includes(name)) {
      const heap = minutes.map((m) => median(after.filter((s) => minuteOf(s) === m).map((s) => s.heap[name] ?? Number.NaN)))
      console.log(`  ${''.padEnd(12)} V8 heap in use, per-minute medians: ${heap.map((v) => fixed(v, 0)).join(' ')}`)
    }
  }
  if (serverErrors > 0) console.log(`soak: ${serverErrors} requests answered 5xx or failed`)
  console.log(notFlat.length === 0
    ? `verdict: every service's RSS flat within ${TOLERANCE * 100}% after the warm-up${serverErrors > 0 ? ', but with 5xx answers' : ''}`
    : `verdict: not flat within ${TOLERANCE * 100}%: ${notFlat.join(', ')}`)
  return notFlat.length === 0 && serverErrors === 0 ? 0 : 1
}
