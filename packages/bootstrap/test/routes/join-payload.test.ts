// A join with a large HostSystem file (issue 25, fault 5): the payload is compressed off the event loop, so health
// answers while it is built and sent.
import { randomBytes } from 'node:crypto'
import { readdirSync } from 'node:fs'
import Fastify from 'fastify'
import { describe, expect, it, onTestFinished } from 'vitest'
import { parseAllDocuments, stringify } from 'yaml'
import { AUTH } from '@slipway/common/testing'
import { createFileSources, type FileSources } from '../../src/clients/file-sources.ts'
import { createDesignHosts } from '../../src/domain/design-hosts.ts'
import { payloadArchive, tempDir } from '../helpers/script.ts'
import { buildTestApp, clusterNodes, exampleDesign, joinUrl, startDesignServer, startKube } from '../helpers/servers.ts'

const FILE_BYTES = 8 * 1024 * 1024

async function startFileServer (bytes: Buffer) {
  const app = Fastify()
  app.get('/blob', async (_request, reply) => await reply.type('application/octet-stream').send(bytes))
  await app.listen({ host: '127.0.0.1', port: 0 })
  onTestFinished(async () => { await app.close() })
  const address = app.server.address()
  return `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}`
}

function designWithFile (url: string): string {
  return parseAllDocuments(exampleDesign()).flatMap((doc) => {
    const value = doc.toJS() as { schema: string, data: { files?: unknown[] } } | null
    if (value === null) return []
    if (value.schema === 'promenade/HostSystem/v1') value.data.files = [...(value.data.files ?? []), { path: '/opt/blob', url }]
    return [stringify(value)]
  }).join('---\n')
}

describe('GET /join-scripts with a large HostSystem file', () => {
  it('answers health while the payload is compressed', { timeout: 120_000 }, async () => {
    const events: string[] = []
    const blob = randomBytes(FILE_BYTES)
    const files = await startFileServer(blob)
    const spoolDir = tempDir()
    const store = await startDesignServer(designWithFile(`${files}/blob`))
    const kube = await startKube(clusterNodes())
    const fetchFromFileServer = createFileSources({
      timeoutMs: 60_000,
      attempts: 1,
      retryDelayMs: 0,
      maxBytes: 64 * 1024 * 1024,
      cacheTtlMs: 60_000,
      cacheMaxBytes: 64 * 1024 * 1024,
      hosts: createDesignHosts(new URL(files).host, files),
      spoolDir
    })
    // heard once every file is in, just before the payload is built
    const fetchFiles: FileSources = async (urls, ctx) => {
      const fetched = await fetchFromFileServer(urls, ctx)
      events.push('files fetched')
      return fetched
    }
    const app = await buildTestApp({ kubeUrl: kube.url, designHosts: [store.url], fetchFiles })
    app.addHook('onRequest', async (request) => { if (request.url === '/api/v1.0/health') events.push('health') })
    // the answer is a stream compressed as it is sent: it is over once the response has been written whole
    app.addHook('onResponse', async (request) => { if (request.url.startsWith('/api/v1.0/join-scripts')) events.push('answered') })

    const state = { done: false }
    const join = app.inject({ url: joinUrl([['design_ref', `${store.url}/site.yaml`], ['hostname', 'n1'], ['ip', '192.168.77.11']]), headers: AUTH })
      .finally(() => { state.done = true })
    while (!state.done) {
      expect((await app.inject({ url: '/api/v1.0/health' })).statusCode).toBe(204)
      await new Promise((resolve) => setImmediate(resolve))
    }
    const res = await join
    expect(res.statusCode).toBe(200)
    expect(payloadArchive(res.body).length).toBeGreaterThan(FILE_BYTES)
    const fetched = events.indexOf('files fetched')
    const answered = events.indexOf('answered')
    expect(fetched).toBeGreaterThanOrEqual(0)
    expect(answered).toBeGreaterThan(fetched)
    expect(events.slice(fetched, answered)).toContain('health')
    // the file was fetched onto disk for the join, and is gone once the answer is
    expect(readdirSync(spoolDir)).toEqual([])
  })
})
