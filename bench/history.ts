// The orchestrator with a long history: `npm start`'s stack (ENGINE_TASK_MS=1), test_site actions created through the
// API up to each of LEVELS (default 1000,5000,20000; every one of them finished, its run in stub-engine), and at each
// level the orchestrator's resident memory, a full GET /actions (median and slowest of FULL_READS, its size), a
// conditional read (If-None-Match with the last ETag) and a limited one (?limit=100), each median of 20, and the
// orchestrator's CPU per minute while three consoles poll the list as the console does (every 3 s: CONSOLE=plain reads
// the whole list each time, as the console did before it asked for what changed; the default reads its window,
// ?limit=500, with If-None-Match). RSS at 100 actions is the baseline the others are compared with.
// Run: node bench/history.ts   (LEVELS=1000,5000 and CONSOLE_S=30 for a shorter run)
import { mkdtempSync, rmSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { startStack } from '@slipway/stack'
import { cpuSeconds, fixed, median, rssMiB } from './proc.ts'
import { growHistory, newHistory } from './grow-history.ts'

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
if (!(CONSOLE_S > 0) || !['plain', 'conditional'].includes(CONSOLE) || !(FULL_READS > 0)) {
  console.error('history: CONSOLE_S and FULL_READS must be positive numbers, CONSOLE plain or conditional')
  process.exit(2)
}
const CONSOLE_LIMIT = 500
const POLL_MS = 3000

const sleep = async (ms: number): Promise<void> => { await new Promise((resolve) => setTimeout(resolve, ms)) }
const dataDir = mkdtempSync(join(tmpdir(), 'slipway-history-'))
const stack = await startStack({
  dataDir,
  ports: { orchestrator: 0, bootstrap: 0, store: 0, engine: 0, site: 0 },
  output: () => {},
  env: { engine: { ENGINE_TASK_MS: '1', ENGINE_MAX_ACTIVE_RUNS: '64' } }
})
const orchestrator = stack.pid('orchestrator')
const engine = stack.pid('engine')
const api = `${stack.urls.orchestrator}/api/v1.0`
const headers = { 'x-auth-token': stack.adminToken }

const history = newHistory()
const grow = async (total: number): Promise<void> => { await growHistory(api, stack.adminToken, history, total) }

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
  actions: number, rss: number, engineRss: number, full: string, bytes: number, conditional: string, limited: string, cpu: string
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
  await sleep(5000)
  const row: Row = {
    actions: total,
    rss: rssMiB(orchestrator),
    engineRss: rssMiB(engine),
    full: `${fixed(median(fulls), 0)} ms (max ${fixed(Math.max(...fulls), 0)})`,
    bytes: full.bytes,
    conditional: full.etag === null ? 'no ETag' : `${fixed(median(conditional), 1)} ms (${[...conditionalStatuses].join('/')})`,
    limited: limited.length === 0 ? 'refused' : `${fixed(median(limited), 1)} ms`,
    cpu: `${fixed(console3.cpuPerMin, 2)} s (${console3.statuses})`
  }
  rows.push(row)
  const size = `${fixed(row.bytes / 2 ** 20, 2)} MiB`
  console.log(`  RSS ${fixed(row.rss)} MiB (engine ${fixed(row.engineRss)}), full list ${row.full}, ${size}; ` +
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
