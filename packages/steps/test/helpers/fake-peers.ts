// Fake peers served over HTTP on 127.0.0.1, port 0, each speaking its own protocol as far as the steps use it, each
// recording the calls it got: Deckhand (YAML), Drydock (tasks that move queued → running → complete over a few
// reads), Armada, Promenade, Shipyard (health only) and Keystone (a token and its catalog).
import Fastify, { type FastifyInstance } from 'fastify'
import { onTestFinished } from 'vitest'
import { stringify } from 'yaml'

export interface RecordedCall {
  method: string
  /** The path below the peer's base URL, without the query. */
  path: string
  query: Record<string, string>
  headers: Record<string, string | string[] | undefined>
  body: unknown
}

export interface Fake {
  /** The base URL the steps are given. */
  url: string
  calls: RecordedCall[]
  /** The calls of one method whose path starts with `prefix`. */
  callsTo: (method: string, prefix: string) => RecordedCall[]
  /** Status the peer answers GET /health with. */
  health: number
}

export const BASE = '/api/v1.0'

/** A fastify app on 127.0.0.1:0 recording every call; bodies of any content type parsed as JSON when they are. */
export async function startFake<S extends object> (base: string, state: S, routes: (app: FastifyInstance) => void): Promise<Fake & S> {
  const app = Fastify()
  app.removeAllContentTypeParsers()
  app.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => {
    try { done(null, body === '' ? undefined : JSON.parse(body as string)) } catch { done(null, body) }
  })
  // the state object becomes the fake: a test's changes to it are what the routes read
  const fake: Fake & S = Object.assign(state, { url: '', calls: [], callsTo: () => [], health: 200 } satisfies Fake)
  fake.callsTo = (method, prefix) => fake.calls.filter((c) => c.method === method && c.path.startsWith(prefix))
  app.addHook('preHandler', async (request) => {
    const [path] = request.url.split('?')
    fake.calls.push({
      method: request.method,
      path: decodeURIComponent(path!.slice(base.length)),
      query: { ...(request.query as Record<string, string>) },
      headers: request.headers,
      body: request.body
    })
  })
  app.get(`${base}/health`, async (_request, reply) => await reply.code(fake.health).send(fake.health < 300 ? '' : 'unhealthy'))
  app.register(async (scoped) => { routes(scoped) }, { prefix: base })
  const address = await app.listen({ port: 0, host: '127.0.0.1' })
  onTestFinished(async () => { await app.close() })
  fake.url = `${address}${base}`
  return fake
}

/** A design validation's answer: a Status object with its message list. */
export interface DesignAnswer { code: number, body: unknown }
export const VALID: DesignAnswer = { code: 200, body: { kind: 'Status', status: 'Success', details: { messageList: [] } } }
export const invalid = (...messages: string[]): DesignAnswer => ({
  code: 400,
  body: { kind: 'Status', status: 'Failure', details: { messageList: messages.map((message) => ({ message, error: true, level: 'Error' })) } }
})

function validateDesign (app: FastifyInstance, answer: () => DesignAnswer): void {
  app.post('/validatedesign', async (_request, reply) => { const a = answer(); return await reply.code(a.code).send(a.body) })
}

export interface DeckhandFake extends Fake {
  documents: Array<Record<string, unknown>>
  validations: Array<{ name: string, status: string, errors?: string[] }>
}

export async function fakeDeckhand (documents: Array<Record<string, unknown>> = []): Promise<DeckhandFake> {
  const state = {
    documents,
    validations: [{ name: 'deckhand-schema-validation', status: 'success' }] as DeckhandFake['validations']
  }
  const yaml = (docs: unknown[]): string => docs.map((d) => `---\n${stringify(d)}`).join('')
  return await startFake(BASE, state, (app) => {
    app.get('/revisions/:rev/rendered-documents', async (request, reply) => {
      const query = request.query as Record<string, string>
      const docs = state.documents.filter((d) => (query.schema === undefined || d.schema === query.schema) &&
        (query['metadata.name'] === undefined || (d.metadata as { name?: string } | undefined)?.name === query['metadata.name']))
      return await reply.type('application/x-yaml').send(yaml(docs))
    })
    app.get('/revisions/:rev/validations', async (_request, reply) => await reply.type('application/x-yaml').send(yaml([{
      count: state.validations.length, results: state.validations.map(({ name, status }) => ({ name, status }))
    }])))
    app.get('/revisions/:rev/validations/detail', async (_request, reply) => await reply.type('application/x-yaml').send(yaml([{
      count: state.validations.length,
      results: state.validations.map((v) => ({ name: v.name, status: v.status, errors: (v.errors ?? []).map((message) => ({ message })) }))
    }])))
    app.post('/revisions/:rev/tags/:tag', async (_request, reply) => await reply.code(201).type('application/x-yaml').send(''))
  })
}

/** What Drydock makes of one task: its end result, or that it never completes. */
export interface TaskPlan {
  result?: 'success' | 'partial_success' | 'failure'
  successes?: string[]
  failures?: string[]
  never?: boolean
  messages?: Array<{ message: string, error: boolean }>
  /** Failed subtasks, each with its failed nodes and error message. */
  subtasks?: Array<{ action: string, failures: string[], message: string }>
}

export interface DrydockTaskRecord { id: string, action: string, nodes: string[], nodeFilter: unknown, reads: number, plan: TaskPlan }

export interface DrydockFake extends Fake {
  tasks: DrydockTaskRecord[]
  /** Decides each task's end from its action and the nodes its filter names; default: every named node succeeds. */
  plan: (action: string, nodes: string[]) => TaskPlan
  /** The nodes a POST /nodefilter selects; default: the names the filter lists. */
  nodeFilter: (filter: unknown) => string[]
  nodes: string[]
  /** Reads of a task before it is complete (queued, then running). */
  readsToComplete: number
  validation: () => DesignAnswer
  /** Overrides an answer by `METHOD path-prefix` (a 500, garbage). */
  broken: Map<string, { code: number, text: string }>
}

const namesOf = (filter: unknown): string[] =>
  ((filter as { filter_set?: Array<{ node_names?: string[] }> } | undefined)?.filter_set ?? []).flatMap((s) => s.node_names ?? [])

export async function fakeDrydock (): Promise<DrydockFake> {
  const state = {
    tasks: [] as DrydockTaskRecord[],
    plan: (_action: string, nodes: string[]): TaskPlan => ({ result: 'success', successes: nodes }),
    nodeFilter: namesOf,
    nodes: [] as string[],
    readsToComplete: 2,
    validation: () => VALID,
    broken: new Map<string, { code: number, text: string }>()
  }
  const subtasks = new Map<string, unknown>()
  const view = (t: DrydockTaskRecord): unknown => {
    const status = t.plan.never === true
      ? (t.reads === 0 ? 'queued' : 'running')
      : t.reads === 0 ? 'queued' : t.reads < state.readsToComplete ? 'running' : 'complete'
    const done = status === 'complete'
    const subIds = (t.plan.subtasks ?? []).map((_s, i) => `${t.id}-sub${i}`)
    return {
      task_id: t.id,
      action: t.action,
      status,
      subtask_id_list: done ? subIds : [],
      result: done
        ? {
            status: t.plan.result ?? 'success',
            successes: t.plan.successes ?? [],
            failures: t.plan.failures ?? [],
            details: { messageList: (t.plan.messages ?? []).map((m) => ({ ...m, context_type: 'node', context: 'n/a' })) }
          }
        : { status: 'incomplete', successes: [], failures: [] }
    }
  }
  return await startFake(BASE, state, (app) => {
    app.addHook('preHandler', async (request, reply) => {
      for (const [key, answer] of state.broken) {
        const [method, prefix] = key.split(' ')
        if (request.method === method && request.url.startsWith(`${BASE}${prefix!}`)) return reply.code(answer.code).send(answer.text)
      }
      return undefined
    })
    app.post('/tasks', async (request, reply) => {
      const body = request.body as { action: string, node_filter?: unknown }
      const nodes = namesOf(body.node_filter)
      const task: DrydockTaskRecord = {
        id: `task-${state.tasks.length + 1}`, action: body.action, nodes, nodeFilter: body.node_filter, reads: 0, plan: state.plan(body.action, nodes)
      }
      state.tasks.push(task)
      task.plan.subtasks?.forEach((s, i) => subtasks.set(`${task.id}-sub${i}`, {
        task_id: `${task.id}-sub${i}`,
        action: s.action,
        status: 'complete',
        result: { status: 'failure', failures: s.failures, details: { messageList: [{ message: s.message, error: true, context_type: 'node', context: s.failures[0] }] } }
      }))
      return await reply.code(201).send(view(task))
    })
    app.get('/tasks/:id', async (request, reply) => {
      const { id } = request.params as { id: string }
      if (subtasks.has(id)) return subtasks.get(id)
      const task = state.tasks.find((t) => t.id === id)
      if (task === undefined) return await reply.code(404).send({ message: 'no such task' })
      task.reads++
      return view(task)
    })
    app.post('/nodefilter', async (request) => state.nodeFilter((request.body as { node_filter?: unknown }).node_filter))
    app.get('/nodes', async () => state.nodes.map((hostname) => ({ hostname })))
    validateDesign(app, () => state.validation())
  })
}

export interface ArmadaFake extends Fake {
  releases: Record<string, string[]>
  applied: { install: string[], upgrade: string[], diff: unknown[], purge: string[], protected: string[] }
  tests: Record<string, { result: string, message: string }>
  validation: () => DesignAnswer
}

export async function fakeArmada (): Promise<ArmadaFake> {
  const state = {
    releases: { ucp: ['ucp-deckhand', 'ucp-shipyard'] } as Record<string, string[]>,
    applied: { install: [] as string[], upgrade: [] as string[], diff: [] as unknown[], purge: [] as string[], protected: [] as string[] },
    tests: {} as Record<string, { result: string, message: string }>,
    validation: () => VALID
  }
  return await startFake(BASE, state, (app) => {
    app.get('/releases', async () => ({ releases: state.releases }))
    app.post('/apply', async () => ({ message: state.applied }))
    app.get('/test/:release', async (request) => {
      const { release } = request.params as { release: string }
      return state.tests[release] ?? { result: 'PASSED', message: `${release} tests passed` }
    })
    validateDesign(app, () => state.validation())
  })
}

export interface PromenadeFake extends Fake { validation: () => DesignAnswer }

export async function fakePromenade (): Promise<PromenadeFake> {
  const state = { validation: () => VALID }
  return await startFake(BASE, state, (app) => {
    app.put('/node-labels/:node', async () => ({ status: 'Success' }))
    validateDesign(app, () => state.validation())
  })
}

export const fakeShipyard = async (): Promise<Fake> => await startFake(BASE, {}, () => {})

/** Keystone v3: a token for any password, and a catalog of `type → { interface: url }`. */
export async function fakeKeystone (catalog: Record<string, Record<string, string>>, token = 'token-from-keystone'): Promise<Fake> {
  return await startFake('/v3', {}, (app) => {
    app.post('/auth/tokens', async (_request, reply) => await reply.code(201).header('x-subject-token', token).send({
      token: {
        expires_at: new Date(Date.now() + 3_600_000).toISOString(),
        catalog: Object.entries(catalog).map(([type, endpoints]) => ({
          type, endpoints: Object.entries(endpoints).map(([iface, url]) => ({ interface: iface, region_id: 'RegionOne', url }))
        }))
      }
    }))
  })
}
