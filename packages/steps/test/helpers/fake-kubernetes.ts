// A fake Kubernetes API server on 127.0.0.1, port 0: nodes (read, patched, deleted), the pods on a node and their
// eviction (a chosen pod refused with 429 a few times first), and ConfigMaps (a merge patch, 404 until created).
import type { FastifyInstance } from 'fastify'
import { startFake, type Fake } from './fake-peers.ts'

export interface FakePod { namespace: string, name: string, node: string, daemonSet?: boolean }

export interface KubernetesFake extends Fake {
  nodes: Map<string, Record<string, unknown>>
  pods: FakePod[]
  /** Pods (`namespace/name`) whose eviction is refused with 429 this many more times. */
  refusals: Map<string, number>
  configMaps: Map<string, Record<string, string>>
}

const notFound = (what: string): unknown => ({ kind: 'Status', status: 'Failure', message: `${what} not found`, code: 404 })

/** A Ready node of that name. */
export const readyNode = (name: string): Record<string, unknown> => ({
  metadata: { name, labels: { 'kubernetes.io/hostname': name } },
  spec: {},
  status: { conditions: [{ type: 'Ready', status: 'True' }] }
})

export async function fakeKubernetes (nodes: string[] = []): Promise<KubernetesFake> {
  const state = {
    nodes: new Map(nodes.map((n) => [n, readyNode(n)])),
    pods: [] as FakePod[],
    refusals: new Map<string, number>(),
    configMaps: new Map<string, Record<string, string>>()
  }
  const routes = (app: FastifyInstance): void => {
    app.get('/api/v1/nodes/:name', async (request, reply) => {
      const { name } = request.params as { name: string }
      const node = state.nodes.get(name)
      return node === undefined ? await reply.code(404).send(notFound(`nodes "${name}"`)) : node
    })
    app.patch('/api/v1/nodes/:name', async (request, reply) => {
      const { name } = request.params as { name: string }
      const node = state.nodes.get(name)
      if (node === undefined) return await reply.code(404).send(notFound(`nodes "${name}"`))
      const patch = request.body as { spec?: Record<string, unknown> }
      node.spec = { ...(node.spec as Record<string, unknown>), ...patch.spec }
      return node
    })
    app.delete('/api/v1/nodes/:name', async (request, reply) => {
      const { name } = request.params as { name: string }
      if (!state.nodes.delete(name)) return await reply.code(404).send(notFound(`nodes "${name}"`))
      return { kind: 'Status', status: 'Success' }
    })
    app.get('/api/v1/pods', async (request) => {
      const selector = (request.query as { fieldSelector?: string }).fieldSelector ?? ''
      const node = selector.replace(/^spec\.nodeName=/, '')
      return {
        kind: 'PodList',
        items: state.pods.filter((p) => p.node === node).map((p) => ({
          metadata: {
            name: p.name,
            namespace: p.namespace,
            ...(p.daemonSet === true ? { ownerReferences: [{ kind: 'DaemonSet', name: 'ds' }] } : {})
          },
          spec: { nodeName: p.node }
        }))
      }
    })
    app.post('/api/v1/namespaces/:ns/pods/:name/eviction', async (request, reply) => {
      const { ns, name } = request.params as { ns: string, name: string }
      const key = `${ns}/${name}`
      const left = state.refusals.get(key) ?? 0
      if (left > 0) {
        state.refusals.set(key, left - 1)
        return await reply.code(429).send({ kind: 'Status', status: 'Failure', message: 'Cannot evict pod as it would violate the pod\'s disruption budget.' })
      }
      const index = state.pods.findIndex((p) => p.namespace === ns && p.name === name)
      if (index < 0) return await reply.code(404).send(notFound(`pods "${name}"`))
      state.pods.splice(index, 1)
      return await reply.code(201).send({ kind: 'Status', status: 'Success' })
    })
    app.patch('/api/v1/namespaces/:ns/configmaps/:name', async (request, reply) => {
      const { ns, name } = request.params as { ns: string, name: string }
      const map = state.configMaps.get(`${ns}/${name}`)
      if (map === undefined) return await reply.code(404).send(notFound(`configmaps "${name}"`))
      Object.assign(map, (request.body as { data?: Record<string, string> }).data)
      return { metadata: { name, namespace: ns }, data: map }
    })
    app.post('/api/v1/namespaces/:ns/configmaps', async (request, reply) => {
      const { ns } = request.params as { ns: string }
      const body = request.body as { metadata: { name: string }, data: Record<string, string> }
      state.configMaps.set(`${ns}/${body.metadata.name}`, { ...body.data })
      return await reply.code(201).send(body)
    })
  }
  return await startFake('', state, routes)
}
