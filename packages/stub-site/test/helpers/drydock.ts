// Test helpers for the Drydock API: a design server (the store's rendered documents), a fake bootstrap service
// recording node label updates, and polling a task until a state, with a generous deadline.
import Fastify from 'fastify'
import { expect, onTestFinished } from 'vitest'
import { stringify } from 'yaml'
import { baremetalNode } from './site.ts'

/** A BaremetalNode with tags, a rack and owner_data labels. */
export function designNode (name: string, options: { tags?: string[], rack?: string, labels?: Record<string, string> } = {}) {
  const doc = baremetalNode(name, { oob: '10.23.0.1', calico: '192.168.77.1', labels: options.labels ?? {} })
  doc.data.metadata = { rack: options.rack ?? 'rack1', tags: options.tags ?? ['worker'], owner_data: options.labels ?? {} }
  return doc
}

/** Four nodes: n0 control on rack1, n1-n3 workers (n3 on rack2), each with a node-role owner_data label. */
export const SITE_NODES = [
  designNode('n0', { tags: ['control'], labels: { 'node-role': 'control' } }),
  designNode('n1', { labels: { 'node-role': 'worker' } }),
  designNode('n2', { labels: { 'node-role': 'worker' } }),
  designNode('n3', { rack: 'rack2', labels: { 'node-role': 'worker', zone: 'b' } })
]

/**
 * Serves `documents` at /api/v1.0/revisions/{n}/rendered-documents as YAML (JSON with `?json`), as Deckhand does;
 * other revisions are 404s. `designRef(n)` is the reference a caller sends.
 */
export async function startDesignServer (documents: unknown[] = SITE_NODES) {
  const app = Fastify()
  const state = { documents, json: false, requests: [] as Array<{ contextMarker: string | undefined }> }
  app.get<{ Params: { rev: string } }>('/api/v1.0/revisions/:rev/rendered-documents', async (request, reply) => {
    state.requests.push({ contextMarker: request.headers['x-context-marker'] as string | undefined })
    if (request.params.rev !== '1') return await reply.code(404).send({ status: 'Failure', code: 404, reason: 'RevisionNotFound' })
    if (state.json) return await reply.type('application/json').send(JSON.stringify(state.documents))
    await reply.type('application/x-yaml').send(state.documents.map((d) => `---\n${stringify(d)}`).join(''))
  })
  await app.listen({ host: '127.0.0.1', port: 0 })
  onTestFinished(async () => { await app.close() })
  const address = app.server.address()
  const port = typeof address === 'object' && address !== null ? address.port : 0
  const base = `http://127.0.0.1:${port}/api/v1.0`
  return { state, designRef: (rev = 1) => `deckhand+${base}/revisions/${rev}/rendered-documents`, href: (rev = 1) => `${base}/revisions/${rev}/rendered-documents` }
}

/** A bootstrap service recording `PUT /node-labels/{node}`; nodes in `failing` answer 500. */
export async function startFakeBootstrap () {
  const app = Fastify()
  const state = { puts: [] as Array<{ node: string, labels: unknown }>, failing: new Set<string>() }
  app.put<{ Params: { node: string } }>('/api/v1.0/node-labels/:node', async (request, reply) => {
    if (state.failing.has(request.params.node)) return await reply.code(500).send({ message: 'boom' })
    state.puts.push({ node: request.params.node, labels: request.body })
    return { status: 'Success' }
  })
  await app.listen({ host: '127.0.0.1', port: 0 })
  onTestFinished(async () => { await app.close() })
  const address = app.server.address()
  const port = typeof address === 'object' && address !== null ? address.port : 0
  return { state, url: `http://127.0.0.1:${port}/api/v1.0` }
}

interface Injector { inject: (options: { url: string }) => Promise<{ statusCode: number, json: () => any }> }

/** GETs the task until `done` holds (default: complete), every 10 ms, for up to 15 s; answers the last task. */
export async function pollTask (app: Injector, taskId: string, done: (task: any) => boolean = (t) => t.status === 'complete') {
  const deadline = Date.now() + 15_000
  for (;;) {
    const res = await app.inject({ url: `/api/v1.0/tasks/${taskId}` })
    expect(res.statusCode).toBe(200)
    const task = res.json()
    if (done(task)) return task
    if (Date.now() > deadline) throw new Error(`task ${taskId} did not get there in 15 s: ${JSON.stringify(task)}`)
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}

export const JSON_HEADERS = { 'content-type': 'application/json' }
