// Test helpers for the Armada stand-in: armada documents as a site design writes them, and a design host serving
// them as Deckhand serves rendered documents (a YAML stream), changeable between calls.
import Fastify from 'fastify'
import { onTestFinished } from 'vitest'
import { stringify } from 'yaml'

export const API = '/armada/api/v1.0'

export function chart (name: string, data: Record<string, unknown> = {}) {
  return {
    schema: 'armada/Chart/v1',
    metadata: { schema: 'metadata/Document/v1', name, layeringDefinition: { abstract: false, layer: 'global' }, storagePolicy: 'cleartext' },
    data: {
      chart_name: name,
      release: name,
      namespace: 'ucp',
      values: {},
      dependencies: [],
      source: { type: 'tar', location: `https://charts.example.org/${name}-1.0.0.tgz`, subpath: name },
      ...data
    }
  }
}

export function chartGroup (name: string, charts: string[], data: Record<string, unknown> = {}) {
  return {
    schema: 'armada/ChartGroup/v1',
    metadata: { schema: 'metadata/Document/v1', name, layeringDefinition: { abstract: false, layer: 'global' }, storagePolicy: 'cleartext' },
    data: { description: name, sequenced: false, chart_group: charts, ...data }
  }
}

export function manifest (name: string, groups: string[], prefix = 'airship') {
  return {
    schema: 'armada/Manifest/v1',
    metadata: { schema: 'metadata/Document/v1', name, layeringDefinition: { abstract: false, layer: 'global' }, storagePolicy: 'cleartext' },
    data: { release_prefix: prefix, chart_groups: groups }
  }
}

/** A design with one manifest `full-site`: group ucp (keystone, shipyard) and group kubernetes (calico, coredns). */
export function siteDesign () {
  return [
    manifest('full-site', ['kubernetes', 'ucp']),
    chartGroup('kubernetes', ['calico', 'coredns']),
    chartGroup('ucp', ['keystone', 'shipyard'], { sequenced: true }),
    chart('calico', { namespace: 'kube-system', values: { mtu: 1500 } }),
    chart('coredns', { namespace: 'kube-system' }),
    chart('keystone'),
    chart('shipyard', { values: { replicas: 1 } })
  ]
}

export const toYaml = (documents: unknown[]): string => documents.map((d) => `---\n${stringify(d)}`).join('')

/**
 * A design host answering GET /api/v1.0/revisions/{n}/rendered-documents with `revisions[n]` as YAML (404 for an
 * unknown revision); `tokens` records the X-Auth-Token of each call.
 */
export async function startDesignHost (revisions: Record<number, unknown[]>) {
  const app = Fastify()
  const tokens: Array<string | undefined> = []
  app.get<{ Params: { id: string } }>('/api/v1.0/revisions/:id/rendered-documents', async (request, reply) => {
    tokens.push(request.headers['x-auth-token'] as string | undefined)
    const documents = revisions[Number(request.params.id)]
    if (documents === undefined) return await reply.code(404).type('application/x-yaml').send('status: Failure\ncode: 404\n')
    return await reply.type('application/x-yaml').send(toYaml(documents))
  })
  await app.listen({ host: '127.0.0.1', port: 0 })
  onTestFinished(async () => { await app.close() })
  const address = app.server.address()
  const port = typeof address === 'object' && address !== null ? address.port : 0
  const base = `http://127.0.0.1:${port}/api/v1.0`
  return { base, revisions, tokens, href: (revision: number) => `deckhand+${base}/revisions/${revision}/rendered-documents` }
}
