// Fake side-effect targets on 127.0.0.1:0 speaking the paths stub-site, the bootstrap service and the store
// offer the engine; they record every call so tests can assert what the workflows did.
import { createServer, type IncomingMessage } from 'node:http'
import { onTestFinished } from 'vitest'

export interface RecordedCall { method: string, path: string, body: unknown, headers: IncomingMessage['headers'] }

export interface FakeTargets {
  siteUrl: string
  bootstrapUrl: string
  storeUrl: string
  calls: RecordedCall[]
  nodes: Map<string, { hostname: string, status_name: string, power_state: string }>
  /** Every status a node went through, in order. */
  history: Map<string, string[]>
  labels: Map<string, Record<string, string>>
  tags: Array<{ revision: number, tag: string }>
  options: { designValid: boolean, validationStatus: string, documents: string }
}

export async function startTargets (hostnames: string[] = ['n1', 'n2']): Promise<FakeTargets> {
  const targets: FakeTargets = {
    siteUrl: '',
    bootstrapUrl: '',
    storeUrl: '',
    calls: [],
    nodes: new Map(hostnames.map((h) => [h, { hostname: h, status_name: 'Ready', power_state: 'off' }])),
    history: new Map(hostnames.map((h) => [h, ['Ready']])),
    labels: new Map(),
    tags: [],
    options: { designValid: true, validationStatus: 'success', documents: '' }
  }
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8')
      let body: unknown = text
      try { body = text === '' ? undefined : JSON.parse(text) } catch {}
      const path = req.url ?? '/'
      targets.calls.push({ method: req.method ?? 'GET', path, body, headers: req.headers })
      const json = (status: number, value: unknown): void => { res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value)) }
      let m: RegExpExecArray | null
      if (req.method === 'GET' && path === '/site/api/v1.0/nodes') return json(200, [...targets.nodes.values()])
      if (req.method === 'PUT' && (m = /^\/site\/_stub\/nodes\/([^/]+)\/state$/.exec(path)) !== null) {
        const node = targets.nodes.get(decodeURIComponent(m[1]!))
        if (node === undefined) return json(404, { message: 'unknown node' })
        const change = body as { status_name?: string, power_state?: string }
        if (change.status_name !== undefined) {
          node.status_name = change.status_name
          targets.history.get(node.hostname)!.push(change.status_name)
        }
        if (change.power_state !== undefined) node.power_state = change.power_state
        return json(200, node)
      }
      if (req.method === 'GET' && (path === '/bootstrap/health' || path === '/store/health')) { res.writeHead(204).end(); return }
      if (req.method === 'PUT' && (m = /^\/bootstrap\/node-labels\/([^/]+)$/.exec(path)) !== null) {
        targets.labels.set(decodeURIComponent(m[1]!), body as Record<string, string>)
        return json(200, { status: 'Success' })
      }
      if (req.method === 'POST' && path === '/bootstrap/validatedesign') {
        return targets.options.designValid
          ? json(200, { kind: 'Status', status: 'Success', details: { errorCount: 0, messageList: [] } })
          : json(400, { kind: 'Status', status: 'Failure', details: { errorCount: 1, messageList: [{ message: 'There are 0 Docker documents. However, there should be one.', error: true }] } })
      }
      if (req.method === 'GET' && (m = /^\/store\/revisions\/(\d+)\/validations$/.exec(path)) !== null) {
        return json(200, { count: 1, results: [{ name: 'deckhand-schema-validation', status: targets.options.validationStatus }] })
      }
      if (req.method === 'GET' && /^\/store\/revisions\/\d+\/rendered-documents$/.test(path)) {
        res.writeHead(200, { 'content-type': 'application/x-yaml' }).end(targets.options.documents)
        return
      }
      if (req.method === 'POST' && (m = /^\/store\/revisions\/(\d+)\/tags\/([^/]+)$/.exec(path)) !== null) {
        targets.tags.push({ revision: Number(m[1]), tag: decodeURIComponent(m[2]!) })
        return json(201, { [decodeURIComponent(m[2]!)]: {} })
      }
      json(404, { message: `no route ${req.method} ${path}` })
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  onTestFinished(() => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()) }))
  const address = server.address()
  const root = `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}`
  targets.siteUrl = `${root}/site`
  targets.bootstrapUrl = `${root}/bootstrap`
  targets.storeUrl = `${root}/store`
  return targets
}
