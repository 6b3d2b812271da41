// The bootstrap service as its benchmarks run it: a process of its own on 127.0.0.1 (a free port it says), with a
// static token; the token file's folder goes when the process exits.
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { parseAllDocuments, stringify } from 'yaml'

/** The checkout whose bootstrap service is measured (BOOTSTRAP_ROOT: another one, e.g. an older commit's). */
export const BOOTSTRAP_ROOT = process.env.BOOTSTRAP_ROOT ?? resolve(import.meta.dirname, '..')
export const BENCH_TOKEN = 'bench-admin-token'

export interface BenchService { url: string, child: ChildProcess }

/** Starts the service with `env`; resolves with its API root once it has said where it listens. */
export async function startBootstrapService (env: Record<string, string>): Promise<BenchService> {
  const dir = mkdtempSync(join(tmpdir(), 'bootstrap-bench-'))
  const tokens = join(dir, 'tokens.yaml')
  writeFileSync(tokens, `tokens:\n  ${BENCH_TOKEN}: {user: admin, project: service, roles: [admin]}\n`)
  const child = spawn(process.execPath, [join(BOOTSTRAP_ROOT, 'packages/bootstrap/src/server.ts')], {
    env: { ...process.env, HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info', AUTH_PROVIDER: 'static', AUTH_TOKENS_FILE: tokens, ...env },
    stdio: ['ignore', 'pipe', 'inherit']
  })
  child.on('exit', () => { rmSync(dir, { recursive: true, force: true }) })
  const url = await new Promise<string>((resolve, reject) => {
    let buffered = ''
    child.stdout?.on('data', (chunk: Buffer) => {
      buffered += chunk.toString()
      const match = /listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(buffered)
      if (match?.[1] !== undefined) resolve(match[1])
    })
    child.on('exit', (code) => { reject(new Error(`the service exited (${code})`)) })
  })
  child.stdout?.resume()
  return { url: `${url}/api/v1.0`, child }
}

/** Serves `routes` (path → body) and a one-node Kubernetes API on 127.0.0.1, any free port. */
export async function serve (routes: Map<string, Buffer | string>): Promise<{ url: string, server: Server }> {
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/'
    if (path === '/api/v1/nodes') {
      res.setHeader('content-type', 'application/json')
      const node = { metadata: { name: 'n0' }, status: { addresses: [{ type: 'InternalIP', address: '192.168.77.10' }] } }
      res.end(JSON.stringify({ items: [node] }))
      return
    }
    const body = routes.get(path)
    if (body === undefined) { res.statusCode = 404; res.end('no'); return }
    res.setHeader('content-type', 'application/octet-stream')
    res.end(body)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  return { url: `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}`, server }
}

/** The example site with HostSystem `files` added. */
export function exampleWithFiles (files: unknown[]): string {
  const text = readFileSync(join(BOOTSTRAP_ROOT, 'examples/site/global.yaml'), 'utf8') + '\n---\n' +
    readFileSync(join(BOOTSTRAP_ROOT, 'examples/site/site.yaml'), 'utf8')
  return parseAllDocuments(text).flatMap((doc) => {
    const value = doc.toJS() as { schema: string, data: { files?: unknown[] } } | null
    if (value === null) return []
    if (value.schema === 'promenade/HostSystem/v1') value.data.files = [...(value.data.files ?? []), ...files]
    return [stringify(value)]
  }).join('---\n')
}
