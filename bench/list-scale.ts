// Whether a full GET /actions costs in proportion to its answer: `npm start`'s stack (ENGINE_TASK_MS=1), test_site
// actions created through the API up to each of LEVELS (default 2500,5000,10000,20000, every one finished) in one run,
// so every level is read under the same conditions; at each level, once the engine watch's two minutes for ended
// runs have passed (SETTLE=0: at once), READS full reads one after another (default 5, after one not counted): the
// median and slowest time, the answer's size, the median time per MiB, and the orchestrator's collector pauses while
// each read ran (perf_hooks' 'gc' entries, written by bench/memory-hook.ts, which this benchmark alone loads into the
// orchestrator): their total and the longest one. The load average is printed beside each level.
// DATA_DIR keeps the stack's data there and starts from the history it holds (a later run measures the same history
// at once: LEVELS at or below its size are read without growing); PROFILE=<file> writes a CPU profile of one more
// full read at the last level there.
// Run: node bench/list-scale.ts   (LEVELS=1000,2000 READS=3 SETTLE=0 for a short run)
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { fixed, median } from './proc.ts'
import { growHistory, newHistory, startHistoryStack } from './grow-history.ts'

function setting (name: string, fallback: string): string {
  const text = process.env[name]
  return text === undefined || text === '' ? fallback : text
}
const LEVELS = setting('LEVELS', '2500,5000,10000,20000').split(',').map(Number)
const READS = Number(setting('READS', '5'))
const SETTLE = setting('SETTLE', '1') !== '0'
const PROFILE = process.env.PROFILE === undefined || process.env.PROFILE === '' ? undefined : resolve(process.env.PROFILE)
if (LEVELS.some((n) => !Number.isInteger(n) || n < 1) || !Number.isInteger(READS) || READS < 1) {
  console.error('list-scale: LEVELS must be whole numbers above 0, separated by commas, and READS a whole number above 0')
  process.exit(2)
}
// how long the orchestrator's engine watch keeps an ended run whole (domain/engine/engine-watch-poll.ts), and a margin
const SETTLE_MS = 120_000 + 10_000

const sleep = async (ms: number): Promise<void> => { await new Promise((resolve) => setTimeout(resolve, ms)) }
const kept = process.env.DATA_DIR !== undefined && process.env.DATA_DIR !== ''
const dataDir = kept ? resolve(process.env.DATA_DIR ?? '') : mkdtempSync(join(tmpdir(), 'slipway-list-scale-'))
mkdirSync(dataDir, { recursive: true })
const gcFile = join(dataDir, 'orchestrator-gc.jsonl')
const stack = await startHistoryStack(dataDir, '', {
  MEMORY_HOOK_GC_FILE: gcFile,
  ...(PROFILE === undefined ? {} : { MEMORY_HOOK_PROFILE: PROFILE })
})
const orchestrator = stack.pid('orchestrator')
const api = `${stack.urls.orchestrator}/api/v1.0`
const headers = { 'x-auth-token': stack.adminToken }

interface Pause { at: number, ms: number, kind: string }
/** The orchestrator's collector pauses that began between `from` and `to` (wall clock), once it has written them. */
async function pausesBetween (from: number, to: number): Promise<Pause[]> {
  await sleep(1200)
  if (!existsSync(gcFile)) return []
  return readFileSync(gcFile, 'utf8').split('\n').filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Pause).filter((p) => p.at >= from && p.at <= to)
}

interface Read { ms: number, bytes: number, count: number, gcMs: number, gcMax: number, majors: number }
async function fullRead (): Promise<Read> {
  const from = Date.now()
  const started = performance.now()
  const res = await fetch(`${api}/actions`, { headers })
  const body = Buffer.from(await res.arrayBuffer())
  const ms = performance.now() - started
  if (res.status !== 200) throw new Error(`GET /actions answered ${res.status}`)
  const pauses = await pausesBetween(from, Date.now())
  return {
    ms,
    bytes: body.byteLength,
    count: (JSON.parse(body.toString('utf8')) as unknown[]).length,
    gcMs: pauses.reduce((sum, p) => sum + p.ms, 0),
    gcMax: Math.max(0, ...pauses.map((p) => p.ms)),
    majors: pauses.filter((p) => p.kind === 'major').length
  }
}

const history = newHistory()
{
  // a kept history: its size and newest id
  const list = await (await fetch(`${api}/actions`, { headers })).json() as Array<{ id: string }>
  history.created = list.length
  history.lastId = list.reduce((last, a) => a.id > last ? a.id : last, '')
}

interface Row {
  actions: number, mib: number, median: number, max: number, perMib: number, gcMs: number, gcMax: number, majors: number, load: string
}
const rows: Row[] = []

async function measure (level: number, grownAt: number): Promise<void> {
  if (SETTLE) await sleep(Math.max(5000, grownAt + SETTLE_MS - Date.now()))
  await fullRead()
  const reads: Read[] = []
  for (let i = 0; i < READS; i++) reads.push(await fullRead())
  const mib = (reads[0]?.bytes ?? 0) / 2 ** 20
  const row: Row = {
    actions: reads[0]?.count ?? level,
    mib,
    median: median(reads.map((r) => r.ms)),
    max: Math.max(...reads.map((r) => r.ms)),
    perMib: median(reads.map((r) => r.ms / (r.bytes / 2 ** 20))),
    gcMs: median(reads.map((r) => r.gcMs)),
    gcMax: Math.max(...reads.map((r) => r.gcMax)),
    majors: median(reads.map((r) => r.majors)),
    load: loadavg().map((l) => l.toFixed(1)).join(' ')
  }
  rows.push(row)
  const pauses = reads.map((r) => `${fixed(r.gcMs, 0)} ms (longest ${fixed(r.gcMax, 1)}, ${r.majors} major)`).join(', ')
  console.log(`  ${row.actions} actions, ${fixed(mib, 2)} MiB: reads ${reads.map((r) => fixed(r.ms, 0)).join(', ')} ms; ` +
    `${fixed(row.perMib, 1)} ms per MiB; collector ${pauses}; load ${row.load}`)
}

try {
  console.log(`list-scale: levels ${LEVELS.join(', ')}, ${READS} reads each${SETTLE ? ', settled' : ''}; ` +
    `history held ${history.created}; load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`)
  for (const level of LEVELS) {
    const grows = history.created < level
    if (grows) await growHistory(api, stack.adminToken, history, level)
    await measure(level, grows ? Date.now() : 0)
  }
  if (PROFILE !== undefined) {
    process.kill(orchestrator ?? 0, 'SIGWINCH')
    await sleep(1000)
    const read = await fullRead()
    process.kill(orchestrator ?? 0, 'SIGWINCH')
    await sleep(3000)
    console.log(`  profiled read ${fixed(read.ms, 0)} ms: ${PROFILE}`)
  }
  console.log('\n| actions | answer | full GET /actions, median (slowest) | per MiB | collector pauses in a read, median total (longest, major) | load average (1, 5, 15 min) |')
  console.log('|---|---|---|---|---|---|')
  for (const r of rows) {
    console.log(`| ${r.actions} | ${fixed(r.mib, 2)} MiB | ${fixed(r.median, 0)} ms (${fixed(r.max, 0)}) | ${fixed(r.perMib, 1)} ms | ` +
      `${fixed(r.gcMs, 0)} ms (${fixed(r.gcMax, 1)} ms, ${fixed(r.majors, 0)}) | ${r.load} |`)
  }
} finally {
  await stack.close()
  if (!kept) rmSync(dataDir, { recursive: true, force: true })
}
