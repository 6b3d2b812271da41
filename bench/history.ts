// The orchestrator with a long history: `npm start`'s stack (ENGINE_TASK_MS=1), test_site actions created through the
// API up to each of LEVELS (default 1000,5000,20000; every one of them finished, its run in stub-engine), and at each
// level the orchestrator's resident memory, a full GET /actions (median and slowest of FULL_READS, its size), a
// conditional read (If-None-Match with the last ETag) and a limited one (?limit=100), each median of 20, and the
// orchestrator's CPU per minute while three consoles poll the list as the console does (every 3 s: CONSOLE=plain reads
// the whole list each time, as the console did before it asked for what changed; the default reads its window,
// ?limit=500, with If-None-Match). RSS at 100 actions is the baseline the others are compared with, and every level,
// 100 too, is measured the same way: after that same exercise, once the watch's two minutes for ended runs have
// passed since the level's last action finished, as the median of SAMPLES readings a few seconds apart, each taken
// after two full collections (bench/memory-hook.ts, loaded into the orchestrator by this benchmark only) with
// process.memoryUsage()'s parts beside it; the RSS just before the first collection is printed as well.
// Run: node bench/history.ts   (LEVELS=1000,5000 and CONSOLE_S=30 for a shorter run)
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { cpuSeconds, fixed, median, rssMiB } from './proc.ts'
import { growHistory, newHistory, startHistoryStack } from './grow-history.ts'

function setting (name: string, fallback: string): string {
  const text = process.env[name]
  return text === undefined || text === '' ? fallback : text
}
const LEVELS = setting('LEVELS', '1000,5000,20000').split(',').map(Number)
if (LEVELS.some((n) => !Number.isInteger(n) || n <= 100)) {
  console.error('history: LEVELS must be whole numbers above 100, separated by commas')
  process.exit(2)
}
const CONSOLE_S = Number(setting('CONSOLE_S', '60'))
const CONSOLE = setting('CONSOLE', 'conditional')
const FULL_READS = Number(setting('FULL_READS', '5'))
const SAMPLES = Number(setting('SAMPLES', '5'))
if (!(CONSOLE_S > 0) || !['plain', 'conditional'].includes(CONSOLE) || !(FULL_READS > 0) || !Number.isInteger(SAMPLES) || SAMPLES < 1) {
  console.error('history: CONSOLE_S, FULL_READS and SAMPLES must be positive numbers (SAMPLES whole), CONSOLE plain or conditional')
  process.exit(2)
}
const CONSOLE_LIMIT = 500
const POLL_MS = 3000
// how long the orchestrator's engine watch keeps an ended run whole (domain/engine/engine-watch.ts), and a margin
const SETTLE_MS = 120_000 + 10_000

const sleep = async (ms: number): Promise<void> => { await new Promise((resolve) => setTimeout(resolve, ms)) }
const dataDir = mkdtempSync(join(tmpdir(), 'slipway-history-'))
const memoryFile = join(dataDir, 'orchestrator-memory.json')
const stack = await startHistoryStack(dataDir, '--expose-gc ', { MEMORY_HOOK_FILE: memoryFile })
const orchestrator = stack.pid('orchestrator')
const engine = stack.pid('engine')
const api = `${stack.urls.orchestrator}/api/v1.0`
const headers = { 'x-auth-token': stack.adminToken }

const history = newHistory()
let grownAt = 0
const grow = async (total: number): Promise<void> => {
  await growHistory(api, stack.adminToken, history, total)
  grownAt = Date.now()
}

interface Memory { rss: number, heapTotal: number, heapUsed: number, external: number, arrayBuffers: number, collected: boolean }
/** The orchestrator's process.memoryUsage() after two full collections, in MiB (bench/memory-hook.ts). */
async function collectedMemory (): Promise<Memory> {
  if (!existsSync(memoryFile)) throw new Error('the orchestrator did not load bench/memory-hook.ts')
  const before = readFileSync(memoryFile, 'utf8')
  process.kill(orchestrator ?? 0, 'SIGUSR2')
  for (let waited = 0; waited < 30_000; waited += 100) {
    await sleep(100)
    const text = readFileSync(memoryFile, 'utf8')
    if (text !== before && text.endsWith('\n')) {
      const usage = JSON.parse(text) as Memory
      const mib = (n: number): number => n / 2 ** 20
      return {
        ...usage,
        rss: mib(usage.rss),
        heapTotal: mib(usage.heapTotal),
        heapUsed: mib(usage.heapUsed),
        external: mib(usage.external),
        arrayBuffers: mib(usage.arrayBuffers)
      }
    }
  }
  throw new Error('the orchestrator did not write its memory figures within 30 s')
}

/** SAMPLES readings 3 s apart: the medians of each part. */
async function settledMemory (): Promise<Memory & { natural: number }> {
  const natural = rssMiB(orchestrator)
  const samples: Memory[] = []
  for (let i = 0; i < SAMPLES; i++) {
    if (i > 0) await sleep(3000)
    samples.push(await collectedMemory())
  }
  const mid = (part: keyof Omit<Memory, 'collected'>): number => median(samples.map((s) => s[part]))
  return {
    natural,
    rss: mid('rss'),
    heapTotal: mid('heapTotal'),
    heapUsed: mid('heapUsed'),
    external: mid('external'),
    arrayBuffers: mid('arrayBuffers'),
    collected: samples.every((s) => s.collected)
  }
}

interface Timed { ms: number, status: number, bytes: number, etag: string | null }
async function timed (path: string, extra: Record<string, string> = {}): Promise<Timed> {
  const started = performance.now()
  const res = await fetch(`${api}${path}`, { headers: { ...headers, ...extra } })
  const bytes = (await res.arrayBuffer()).byteLength
  return { ms: performance.now() - started, status: res.status, bytes, etag: res.headers.get('etag') }
}

/** Three consoles polling the list every 3 s for CONSOLE_S: the orchestrator's CPU seconds a minute, the reads' statuses. */
async function consoles (): Promise<{ cpuPerMin: number, statuses: string }> {
  const statuses = new Map<number, number>()
  const stopAt = Date.now() + CONSOLE_S * 1000
  const cpuBefore = cpuSeconds(orchestrator)
  const started = performance.now()
  await Promise.all(Array.from({ length: 3 }, async (_, i) => {
    await sleep(i * 1000)
    let etag: string | null = null
    while (Date.now() < stopAt) {
      const begun = Date.now()
      const path = CONSOLE === 'plain' ? '/actions' : `/actions?limit=${CONSOLE_LIMIT}`
      const res = await timed(path, etag === null ? {} : { 'if-none-match': etag })
      if (res.status === 200) etag = res.etag
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1)
      await sleep(Math.max(POLL_MS - (Date.now() - begun), 250))
    }
  }))
  const minutes = (performance.now() - started) / 60_000
  return { cpuPerMin: (cpuSeconds(orchestrator) - cpuBefore) / minutes, statuses: [...statuses].map(([s, n]) => `${s}×${n}`).join(' ') }
}

interface Row {
  actions: number
  rss: number
  memory: string
  engineRss: number
  full: string
  bytes: number
  conditional: string
  limited: string
  cpu: string
}
const rows: Row[] = []

async function measure (total: number): Promise<void> {
  await sleep(10_000)
  const fulls = []
  let full = await timed('/actions')
  for (let i = 0; i < FULL_READS; i++) { full = await timed('/actions'); fulls.push(full.ms) }
  const conditional: number[] = []
  const conditionalStatuses = new Set<number>()
  const limited: number[] = []
  for (let i = 0; i < 20; i++) {
    const c = await timed('/actions', full.etag === null ? {} : { 'if-none-match': full.etag })
    conditional.push(c.ms)
    conditionalStatuses.add(c.status)
    const l = await timed('/actions?limit=100')
    if (l.status === 200) limited.push(l.ms)
  }
  const console3 = await consoles()
  await sleep(Math.max(5000, grownAt + SETTLE_MS - Date.now()))
  const memory = await settledMemory()
  const row: Row = {
    actions: total,
    rss: memory.rss,
    memory: `V8 heap ${fixed(memory.heapUsed)} used of ${fixed(memory.heapTotal)}, external ${fixed(memory.external)} ` +
      `(array buffers ${fixed(memory.arrayBuffers)}), the rest ${fixed(memory.rss - memory.heapTotal - memory.external)}; ` +
      `${fixed(memory.natural)} before the collections${memory.collected ? '' : ' (gc not exposed: no collection)'}`,
    engineRss: rssMiB(engine),
    full: `${fixed(median(fulls), 0)} ms (max ${fixed(Math.max(...fulls), 0)})`,
    bytes: full.bytes,
    conditional: full.etag === null ? 'no ETag' : `${fixed(median(conditional), 1)} ms (${[...conditionalStatuses].join('/')})`,
    limited: limited.length === 0 ? 'refused' : `${fixed(median(limited), 1)} ms`,
    cpu: `${fixed(console3.cpuPerMin, 2)} s (${console3.statuses})`
  }
  rows.push(row)
  const size = `${fixed(row.bytes / 2 ** 20, 2)} MiB`
  console.log(`  RSS ${fixed(row.rss)} MiB (${row.memory}; engine ${fixed(row.engineRss)}), full list ${row.full}, ${size}; ` +
    `conditional ${row.conditional}; ?limit=100 ${row.limited}; three consoles (${CONSOLE}) ${row.cpu} CPU per minute; load ${fixed(loadavg()[0] ?? Number.NaN, 2)}`)
}

try {
  console.log(`history: levels ${LEVELS.join(', ')}; consoles ${CONSOLE}, ${CONSOLE_S} s; load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`)
  await grow(100)
  await measure(100)
  for (const level of LEVELS) {
    await grow(level)
    await measure(level)
  }
  const base = rows[0]?.rss ?? Number.NaN
  console.log('\n| actions | orchestrator RSS (vs 100) | engine RSS | full GET /actions | answer | conditional read | ?limit=100 | CPU/min, 3 consoles |')
  console.log('|---|---|---|---|---|---|---|---|')
  for (const r of rows) {
    const growth = (r.rss - base) / base * 100
    const rss = `${fixed(r.rss)} MiB (${growth >= 0 ? '+' : ''}${fixed(growth)}%)`
    console.log(`| ${r.actions} | ${rss} | ${fixed(r.engineRss)} MiB | ${r.full} | ` +
      `${fixed(r.bytes / 2 ** 20, 2)} MiB | ${r.conditional} | ${r.limited} | ${r.cpu} |`)
  }
} finally {
  await stack.close()
  rmSync(dataDir, { recursive: true, force: true })
}
