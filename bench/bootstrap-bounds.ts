// Benchmark of the bootstrap service's bounds (issue 25): each case runs a fresh service process (node
// packages/bootstrap/src/server.ts) and prints the time to its answer, how the health endpoint answered meanwhile
// (polled one request after another: answers and the slowest), and the process's peak and current resident memory.
//   tiny:    a design of 300,000 tiny documents (about 14 MB) on a design host, through validatedesign
//   layered: the synthetic site of bench/render.ts (20,000 documents, or layered:N for N), layered here, through
//            validatedesign
//   payload: a join whose HostSystem file is 48 MiB of random bytes (twice: fetched, then from the cache)
//   cache:   joins naming 12 (cache:N: N) different 24 MiB files one after another; resident memory after the last
//   cachebytes: the file fetcher in this process (the service's defaults) fetching 24 different 24 MiB files; the
//            bytes of buffers still held once garbage is collected, which is what the cache keeps
// Run: node bench/bootstrap-bounds.ts [cases...]   (default: all four; BOOTSTRAP_ROOT=<a checkout> measures that one)
import type { ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { request } from 'undici'
import { BENCH_TOKEN, BOOTSTRAP_ROOT, exampleWithFiles, serve, startBootstrapService, type BenchService } from './bootstrap-service.ts'
import { syntheticSite } from './render.ts'

const ROOT = BOOTSTRAP_ROOT
const TOKEN = BENCH_TOKEN
const HEADERS = { 'x-auth-token': TOKEN }

type Service = BenchService

// a service still running when the bench ends (a failure, Ctrl-C) is stopped with it
const running = new Set<ChildProcess>()
process.on('exit', () => { for (const child of running) child.kill('SIGKILL') })
process.on('SIGINT', () => { process.exit(130) })

/** Starts the bootstrap service with `env`, tracked until it exits. */
async function startService (env: Record<string, string>): Promise<Service> {
  const service = await startBootstrapService(env)
  running.add(service.child)
  service.child.on('exit', () => { running.delete(service.child) })
  return service
}

async function stopService (service: Service): Promise<void> {
  const exited = new Promise((resolve) => service.child.once('exit', resolve))
  service.child.kill('SIGTERM')
  await exited
}

/** VmHWM (peak) and VmRSS (now) of a process, MiB. */
function memory (pid: number | undefined): { peak: number, now: number } {
  const status = readFileSync(`/proc/${pid ?? 0}/status`, 'utf8')
  const read = (key: string): number => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(status)?.[1] ?? Number.NaN) / 1024
  return { peak: read('VmHWM'), now: read('VmRSS') }
}

interface HealthFigures { answers: number, slowestMs: number, failures: number }

/** Polls health one request after another until `work` settles: how many answered and the slowest answer. */
async function healthDuring<T> (service: Service, work: Promise<T>): Promise<HealthFigures & { result: T }> {
  const state = { finished: false }
  const settled = work.finally(() => { state.finished = true })
  let answers = 0
  let failures = 0
  let slowestMs = 0
  const poll = (async () => {
    while (!state.finished) {
      const started = performance.now()
      try {
        const res = await request(`${service.url}/health`, { headersTimeout: 600_000 })
        await res.body.dump()
        if (res.statusCode === 204) answers++
        else failures++
      } catch {
        failures++
      }
      slowestMs = Math.max(slowestMs, performance.now() - started)
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
  })()
  const result = await settled
  await poll
  return { result, answers, slowestMs, failures }
}

async function timed (run: () => Promise<{ statusCode: number, text: string }>): Promise<{ ms: number, statusCode: number, text: string }> {
  const started = performance.now()
  const answer = await run()
  return { ms: performance.now() - started, ...answer }
}

async function get (url: string): Promise<{ statusCode: number, text: string }> {
  const res = await request(url, { headers: HEADERS, headersTimeout: 600_000, bodyTimeout: 600_000 })
  return { statusCode: res.statusCode, text: await res.body.text() }
}

async function validate (service: Service, href: string): Promise<{ statusCode: number, text: string }> {
  const res = await request(`${service.url}/validatedesign`, {
    method: 'POST',
    headers: { ...HEADERS, 'content-type': 'application/json' },
    body: JSON.stringify({ href }),
    headersTimeout: 600_000,
    bodyTimeout: 600_000
  })
  return { statusCode: res.statusCode, text: await res.body.text() }
}

function report (name: string, service: Service, run: { ms: number, statusCode: number, text: string }, health: HealthFigures): void {
  const { peak, now } = memory(service.child.pid)
  let message = ''
  try {
    const body = JSON.parse(run.text) as { message?: string, details?: { messageList?: Array<{ message?: string }> } }
    message = body.details?.messageList?.[0]?.message ?? body.message ?? ''
  } catch {
    message = `${(run.text.length / 1024 / 1024).toFixed(1)} MiB of script`
  }
  console.log(`${name}: ${run.statusCode} after ${(run.ms / 1000).toFixed(2)} s (${message.slice(0, 120)})`)
  console.log(`  health meanwhile: ${health.answers} answers, slowest ${health.slowestMs.toFixed(0)} ms, ${health.failures} failures; RSS peak ${peak.toFixed(0)} MiB, now ${now.toFixed(0)} MiB`)
}

async function tinyDocuments (): Promise<void> {
  let text = ''
  for (let i = 0; i < 300_000; i++) text += `---\n{schema: a/B/v1, metadata: {name: d${i}}}\n`
  const files = await serve(new Map([['/site.yaml', text]]))
  const service = await startService({ DESIGN_HOSTS: new URL(files.url).host })
  try {
    console.log(`tiny: ${(text.length / 1024 / 1024).toFixed(1)} MiB, 300,000 documents`)
    const { result, ...health } = await healthDuring(service, timed(async () => await validate(service, `${files.url}/site.yaml`)))
    report('  validatedesign', service, result, health)
  } finally {
    await stopService(service)
    files.server.close()
  }
}

async function layeredSite (size = 20_000): Promise<void> {
  const site = syntheticSite(size)
  const files = await serve(new Map([['/site.yaml', site.yaml]]))
  const service = await startService({ DESIGN_HOSTS: new URL(files.url).host })
  try {
    console.log(`layered: ${(site.yaml.length / 1024 / 1024).toFixed(1)} MiB, ${site.total} documents`)
    const { result, ...health } = await healthDuring(service, timed(async () => await validate(service, `${files.url}/site.yaml`)))
    report('  validatedesign', service, result, health)
  } finally {
    await stopService(service)
    files.server.close()
  }
}

/** A service whose designs, files and Kubernetes API are all at `host`, taking files of up to 64 MiB. */
function joinEnvironment (host: string, url: string): Record<string, string> {
  return { DESIGN_HOSTS: host, FILE_HOSTS: host, KUBE_API_URL: url, FILE_MAX_BYTES: String(64 * 1024 * 1024) }
}

function joinUrl (service: Service, designUrl: string): string {
  const query = new URLSearchParams([['design_ref', designUrl], ['hostname', 'n1'], ['ip', '192.168.77.11'], ['domain', 'example.local']])
  return `${service.url}/join-scripts?${query.toString()}`
}

async function largePayload (): Promise<void> {
  const routes = new Map<string, Buffer | string>([['/blob', randomBytes(48 * 1024 * 1024)]])
  const files = await serve(routes)
  routes.set('/site.yaml', exampleWithFiles([{ path: '/opt/blob', url: `${files.url}/blob` }]))
  const host = new URL(files.url).host
  const service = await startService(joinEnvironment(host, files.url))
  try {
    console.log('payload: a 48 MiB HostSystem file')
    for (const round of ['first join (fetch)', 'second join (cached)']) {
      const { result, ...health } = await healthDuring(service, timed(async () => await get(joinUrl(service, `${files.url}/site.yaml`))))
      report(`  ${round}`, service, result, health)
    }
  } finally {
    await stopService(service)
    files.server.close()
  }
}

async function cacheGrowth (count = 12): Promise<void> {
  const routes = new Map<string, Buffer | string>()
  const files = await serve(routes)
  for (let i = 0; i < count; i++) {
    routes.set(`/blob-${i}`, randomBytes(24 * 1024 * 1024))
    routes.set(`/site-${i}.yaml`, exampleWithFiles([{ path: '/opt/blob', url: `${files.url}/blob-${i}` }]))
  }
  const host = new URL(files.url).host
  const service = await startService(joinEnvironment(host, files.url))
  try {
    console.log(`cache: ${count} joins, each naming its own 24 MiB file`)
    const started = performance.now()
    for (let i = 0; i < count; i++) {
      const answer = await get(joinUrl(service, `${files.url}/site-${i}.yaml`))
      if (answer.statusCode !== 200) throw new Error(`join ${i} answered ${answer.statusCode}: ${answer.text.slice(0, 300)}`)
    }
    const seconds = ((performance.now() - started) / 1000).toFixed(1)
    // the answers are gone; what stays is the cache, once the evicted files are collected: the lowest resident
    // memory over the next 20 idle seconds
    let lowest = Number.POSITIVE_INFINITY
    for (let i = 0; i < 20; i++) {
      await new Promise((resolve) => setTimeout(resolve, 1000))
      lowest = Math.min(lowest, memory(service.child.pid).now)
    }
    const { peak, now } = memory(service.child.pid)
    console.log(`  ${count} joins in ${seconds} s; RSS peak ${peak.toFixed(0)} MiB, lowest over 20 s idle ${lowest.toFixed(0)} MiB, now ${now.toFixed(0)} MiB`)
  } finally {
    await stopService(service)
    files.server.close()
  }
}

async function cacheBytes (count = 24): Promise<void> {
  const routes = new Map<string, Buffer | string>()
  const files = await serve(routes)
  for (let i = 0; i < count; i++) routes.set(`/blob-${i}`, randomBytes(24 * 1024 * 1024))
  const host = new URL(files.url).host
  // the fetcher of the checkout measured, with the service's defaults (a fetcher without a byte bound ignores it)
  const { createFileSources } = await import(join(ROOT, 'packages/bootstrap/src/clients/file-sources.ts')) as
    typeof import('@slipway/bootstrap/file-sources')
  const { createDesignHosts } = await import(join(ROOT, 'packages/bootstrap/src/domain/design-hosts.ts')) as
    typeof import('@slipway/bootstrap/design-hosts')
  const fetchFiles = createFileSources({
    timeoutMs: 60_000,
    attempts: 1,
    retryDelayMs: 0,
    maxBytes: 64 * 1024 * 1024,
    cacheTtlMs: 259_200_000,
    cacheMaxBytes: 268_435_456,
    hosts: createDesignHosts(host, files.url)
  })
  setFlagsFromString('--expose-gc')
  const gc = runInNewContext('gc') as () => void
  gc()
  const before = process.memoryUsage().arrayBuffers
  try {
    for (let i = 0; i < count; i++) {
      // a join's files are let go when its answer is done (an older checkout's fetcher has nothing to let go)
      const fetched: { release?: () => Promise<void> } = await fetchFiles([`${files.url}/blob-${i}`], {})
      await fetched.release?.()
    }
    gc()
    const held = (process.memoryUsage().arrayBuffers - before) / 1024 / 1024
    console.log(`cachebytes: ${count} files of 24 MiB fetched (${count * 24} MiB); held once collected: ${held.toFixed(0)} MiB`)
  } finally {
    files.server.close()
  }
}

const CASES: Record<string, (size?: number) => Promise<void>> = {
  tiny: tinyDocuments,
  layered: layeredSite,
  payload: largePayload,
  cache: cacheGrowth,
  cachebytes: cacheBytes
}
const chosen = process.argv.slice(2)
for (const choice of chosen.length > 0 ? chosen : Object.keys(CASES)) {
  const [name = '', size] = choice.split(':')
  const run = CASES[name]
  if (run === undefined) throw new Error(`no case ${name}: ${Object.keys(CASES).join(', ')}`)
  await run(size === undefined ? undefined : Number(size))
}
