// Benchmark of one join's working set (issue 35): a fresh bootstrap service process (node
// packages/bootstrap/src/server.ts) answers join-scripts for a design whose HostSystem names COUNT files of SIZE MiB
// of random bytes (they do not compress: the worst case), served with the design and a stand-in Kubernetes API from
// a local HTTP server on 127.0.0.1. Printed: the service's resident memory before the join, its peak (VmHWM of
// /proc/<pid>/status) after the first join (files fetched) and after a second one (files from the cache), the answer's
// size and the time taken. The answer is streamed, so the peak is bounded by the file cache (FILE_CACHE_MAX_BYTES, read
// from this process's environment like any of the service's settings), not by the files.
// Run: node bench/bootstrap-join-rss.ts [COUNT [SIZE]]   (default: 6 files of 48 MiB; BOOTSTRAP_ROOT=<a checkout>
// measures that one)
import { randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { request } from 'undici'
import { BENCH_TOKEN, exampleWithFiles, serve, startBootstrapService, type BenchService } from './bootstrap-service.ts'

const TOKEN = BENCH_TOKEN
const COUNT = Number(process.argv[2] ?? 6)
const SIZE_MIB = Number(process.argv[3] ?? 48)

/** Starts the service with `env`, killed if this process exits first. */
async function startService (env: Record<string, string>): Promise<BenchService> {
  const service = await startBootstrapService(env)
  process.on('exit', () => service.child.kill('SIGKILL'))
  return service
}

/** VmHWM (peak) and VmRSS (now) of a process, MiB. */
function memory (pid: number | undefined): { peak: number, now: number } {
  const status = readFileSync(`/proc/${pid ?? 0}/status`, 'utf8')
  const read = (key: string): number => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(status)?.[1] ?? Number.NaN) / 1024
  return { peak: read('VmHWM'), now: read('VmRSS') }
}

const routes = new Map<string, Buffer | string>()
const host = await serve(routes)
const files = Array.from({ length: COUNT }, (_, i) => {
  routes.set(`/blob-${i}`, randomBytes(SIZE_MIB * 1024 * 1024))
  return { path: `/opt/blob-${i}`, url: `${host.url}/blob-${i}` }
})
routes.set('/site.yaml', exampleWithFiles(files))
const address = new URL(host.url).host
const service = await startService({
  DESIGN_HOSTS: address, FILE_HOSTS: address, KUBE_API_URL: host.url, FILE_MAX_BYTES: String((SIZE_MIB + 1) * 1024 * 1024)
})
const query = new URLSearchParams([
  ['design_ref', `${host.url}/site.yaml`], ['hostname', 'n1'], ['ip', '192.168.77.11'], ['domain', 'example.local']
])
try {
  const idle = memory(service.child.pid)
  const setting = process.env.FILE_CACHE_MAX_BYTES
  const cacheBound = setting === undefined ? 'the default' : `${Number(setting) / 1024 / 1024} MiB`
  console.log(`join-rss: ${COUNT} files of ${SIZE_MIB} MiB (${COUNT * SIZE_MIB} MiB, random bytes), file cache bound ${cacheBound}; ` +
    `service at rest ${idle.now.toFixed(0)} MiB`)
  for (const round of ['first join (fetched)', 'second join (cached)']) {
    const started = performance.now()
    const res = await request(`${service.url}/join-scripts?${query.toString()}`, {
      headers: { 'x-auth-token': TOKEN }, headersTimeout: 600_000, bodyTimeout: 600_000
    })
    let bytes = 0
    for await (const chunk of res.body) bytes += (chunk as Buffer).length
    if (res.statusCode !== 200) throw new Error(`the join answered ${res.statusCode}`)
    const { peak, now } = memory(service.child.pid)
    console.log(`  ${round}: ${((performance.now() - started) / 1000).toFixed(1)} s, answer ${(bytes / 1024 / 1024).toFixed(0)} MiB, ` +
      `peak RSS ${peak.toFixed(0)} MiB, now ${now.toFixed(0)} MiB`)
  }
} finally {
  service.child.kill('SIGTERM')
  host.server.close()
}
