// Test helpers: an app or a listening site with its config, a temp dir, and a tiny fake Deckhand; all cleaned up.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import Fastify from 'fastify'
import { onTestFinished } from 'vitest'
import { stringify } from 'yaml'
import { buildApp, createDeps, loadConfig, startSite, type RunningSite } from '../../src/index.ts'

export const EXAMPLE_NODES_FILE = fileURLToPath(new URL('../../nodes.example.yaml', import.meta.url))

export function testConfig (env: Record<string, string> = {}) {
  return loadConfig({ HOST: '127.0.0.1', PORT: '0', ...env })
}

/** An app for inject(); closed when the test ends. */
export async function buildTestApp (env: Record<string, string> = {}) {
  const app = buildApp(createDeps(testConfig(env), { logger: false }))
  onTestFinished(async () => { await app.close() })
  await app.ready()
  return app
}

/** A listening site on 127.0.0.1, port 0; closed when the test ends (closing twice is harmless). */
export async function startTestSite (env: Record<string, string> = {}): Promise<RunningSite> {
  const site = await startSite(testConfig(env), { logger: false })
  onTestFinished(async () => { await site.close() })
  return site
}

export function tempDir (): string {
  const dir = mkdtempSync(join(tmpdir(), 'stub-site-'))
  onTestFinished(() => { rmSync(dir, { recursive: true, force: true }) })
  return dir
}

export interface FakeRevision { id: number, tags: string[], documents: unknown[] }

/**
 * A fake Deckhand serving GET /api/v1.0/revisions and GET /api/v1.0/revisions/{id}/documents as YAML
 * (Deckhand's paths): `revisions` can be changed between calls, `tokens` records X-Auth-Token headers.
 */
export async function startFakeStore (revisions: FakeRevision[]) {
  const app = Fastify()
  const tokens: Array<string | undefined> = []
  const queries: Array<Record<string, unknown>> = []
  app.addHook('onRequest', async (request) => { tokens.push(request.headers['x-auth-token'] as string | undefined) })
  app.get('/api/v1.0/revisions', async (_request, reply) => {
    const results = revisions.map((r) => ({ id: r.id, createdAt: '2026-05-01T10:00:00.000000', buckets: ['site'], tags: [...r.tags].sort() }))
    await reply.type('application/x-yaml').send(stringify({ count: results.length, results }))
  })
  app.get<{ Params: { id: string }, Querystring: Record<string, unknown> }>('/api/v1.0/revisions/:id/documents', async (request, reply) => {
    queries.push(request.query)
    const revision = revisions.find((r) => r.id === Number(request.params.id))
    if (revision === undefined) {
      await reply.code(404).type('application/x-yaml').send(stringify({ status: 'Failure', code: 404, reason: 'RevisionNotFound' }))
      return
    }
    const schema = request.query.schema
    const documents = revision.documents.filter((d) => (d as { schema?: string }).schema === schema)
    await reply.type('application/x-yaml').send(documents.map((d) => stringify(d)).map((y) => `---\n${y}`).join(''))
  })
  await app.listen({ host: '127.0.0.1', port: 0 })
  onTestFinished(async () => { await app.close() })
  const address = app.server.address()
  const port = typeof address === 'object' && address !== null ? address.port : 0
  return { url: `http://127.0.0.1:${port}/api/v1.0`, revisions, tokens, queries, close: async () => { await app.close() } }
}

/** A drydock/BaremetalNode/v1 document as a site design writes it. */
export function baremetalNode (
  name: string,
  options: { oob?: string, pxe?: string, calico?: string, labels?: Record<string, unknown>, abstract?: boolean } = {}
) {
  const addressing = [
    ...(options.oob === undefined ? [] : [{ network: 'oob', address: options.oob }]),
    ...(options.pxe === undefined ? [] : [{ network: 'pxe', address: options.pxe }]),
    ...(options.calico === undefined ? [] : [{ network: 'calico', address: options.calico }])
  ]
  return {
    schema: 'drydock/BaremetalNode/v1',
    metadata: {
      schema: 'metadata/Document/v1',
      name,
      storagePolicy: 'cleartext',
      layeringDefinition: { abstract: options.abstract ?? false, layer: 'site' },
      replacement: false
    },
    data: {
      host_profile: 'cp',
      oob: { type: 'ipmi', network: 'oob', account: 'root', credential: 'secret' },
      addressing,
      metadata: { rack: 'rack1', tags: ['masters'], owner_data: options.labels ?? {} }
    },
    status: { bucket: 'site', revision: 1 }
  }
}
