// A fake document store and bootstrap service on 127.0.0.1:0 for the step tests: the paths the steps call (and the
// revision list the site reads to follow the store), each call recorded with its headers; answers set per test.
import { createServer, type IncomingMessage } from 'node:http'
import { onTestFinished } from 'vitest'

export interface RecordedCall { method: string, path: string, body: unknown, headers: IncomingMessage['headers'] }

export interface FakeTargets {
  /** Base URLs as STORE_URL and BOOTSTRAP_URL take them. */
  storeUrl: string
  bootstrapUrl: string
  calls: RecordedCall[]
  labels: Map<string, Record<string, string>>
  tags: Array<{ revision: number, tag: string }>
  options: {
    designValid: boolean
    validationStatus: string
    /** The rendered documents, as a YAML stream. */
    documents: string
    /** Status answered by the paths named here (`GET /store/health`), instead of their usual answer. */
    fail: Record<string, number>
  }
}

export async function startFakeTargets (): Promise<FakeTargets> {
  const targets: FakeTargets = {
    storeUrl: '',
    bootstrapUrl: '',
    calls: [],
    labels: new Map(),
    tags: [],
    options: { designValid: true, validationStatus: 'success', documents: '', fail: {} }
  }
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8')
      let body: unknown = text === '' ? undefined : text
      try { body = text === '' ? undefined : JSON.parse(text) } catch {}
      const method = req.method ?? 'GET'
      const path = req.url ?? '/'
      const json = (status: number, value: unknown): void => { res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value)) }
      const yaml = (status: number, value: string): void => { res.writeHead(status, { 'content-type': 'application/x-yaml' }).end(value) }
      // the site reads the revision list to follow the committed design: nothing is committed here
      if (method === 'GET' && path === '/store/revisions') return yaml(200, 'count: 0\nresults: []\n')
      targets.calls.push({ method, path, body, headers: req.headers })
      const failing = targets.options.fail[`${method} ${path}`]
      if (failing !== undefined) return json(failing, { message: 'told to fail' })
      let m: RegExpExecArray | null
      if (method === 'GET' && (path === '/store/health' || path === '/bootstrap/health')) { res.writeHead(204).end(); return }
      if (method === 'GET' && /^\/store\/revisions\/\d+\/validations$/.test(path)) {
        return yaml(200, `count: 1\nresults:\n- {name: deckhand-schema-validation, status: ${targets.options.validationStatus}}\n`)
      }
      if (method === 'GET' && /^\/store\/revisions\/\d+\/rendered-documents$/.test(path)) return yaml(200, targets.options.documents)
      if (method === 'POST' && (m = /^\/store\/revisions\/(\d+)\/tags\/([^/]+)$/.exec(path)) !== null) {
        targets.tags.push({ revision: Number(m[1]), tag: decodeURIComponent(m[2]!) })
        return yaml(201, `${decodeURIComponent(m[2]!)}: {}\n`)
      }
      if (method === 'POST' && path === '/bootstrap/validatedesign') {
        return targets.options.designValid
          ? json(200, { kind: 'Status', status: 'Success', details: { errorCount: 0, messageList: [] } })
          : json(400, { kind: 'Status', status: 'Failure', details: { errorCount: 1, messageList: [{ message: 'There are 0 Docker documents. However, there should be one.', error: true }] } })
      }
      if (method === 'PUT' && (m = /^\/bootstrap\/node-labels\/([^/]+)$/.exec(path)) !== null) {
        targets.labels.set(decodeURIComponent(m[1]!), body as Record<string, string>)
        return json(200, { status: 'Success' })
      }
      json(404, { message: `no route ${method} ${path}` })
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  onTestFinished(() => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()) }))
  const address = server.address()
  const root = `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}`
  targets.storeUrl = `${root}/store`
  targets.bootstrapUrl = `${root}/bootstrap`
  return targets
}
