// HostSystem files fetched from `url` and `tar_url`: fetched once per TTL, retried on
// 5xx and broken connections, a missing file or member is a clear error, never a 500.
import { execFileSync } from 'node:child_process'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import Fastify from 'fastify'
import { onTestFinished, describe, expect, it } from 'vitest'
import { parseAllDocuments, stringify } from 'yaml'
import { AUTH } from '@slipway/common/testing'
import { exampleDesign, joinUrl, setupJoin } from '../helpers/servers.ts'
import { payloadOf, tempDir } from '../helpers/script.ts'

/** A file server: /tool, a GNU-tar tarball at /bundle.tgz, /flaky failing `failures` times with 503, 404 elsewhere. */
async function startFileServer (failures = 2) {
  const dir = tempDir()
  mkdirSync(join(dir, 'bundle/bin'), { recursive: true })
  writeFileSync(join(dir, 'bundle/bin/helm'), '#!/bin/sh\necho helm from the tarball\n')
  execFileSync('tar', ['-czf', join(dir, 'bundle.tgz'), '-C', join(dir, 'bundle'), '.'])
  const hits = new Map<string, number>()
  let flaky = failures
  const app = Fastify()
  app.addHook('onRequest', async (request) => { hits.set(request.url, (hits.get(request.url) ?? 0) + 1) })
  app.get('/tool', async () => 'tool bytes\n')
  app.get('/bundle.tgz', async (_request, reply) => await reply.type('application/gzip').send(readFileSync(join(dir, 'bundle.tgz'))))
  app.get('/flaky', async (_request, reply) => {
    if (flaky-- > 0) return await reply.code(503).send('busy')
    return 'finally\n'
  })
  await app.listen({ host: '127.0.0.1', port: 0 })
  onTestFinished(async () => { await app.close() })
  const address = app.server.address()
  return { url: `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}`, hits }
}

/** The example design with `files` appended to its HostSystem document. */
function designWithFiles (files: unknown[]): string {
  return parseAllDocuments(exampleDesign()).flatMap((doc) => {
    const value = doc.toJS() as { schema: string, data: { files?: unknown[] } } | null
    if (value === null) return []
    if (value.schema === 'promenade/HostSystem/v1') value.data.files = [...(value.data.files ?? []), ...files]
    return [stringify(value)]
  }).join('---\n')
}

const N1 = (href: string): Array<[string, string]> => [
  ['design_ref', href], ['hostname', 'n1'], ['ip', '192.168.77.11'], ['domain', 'example.local'],
  ['labels.dynamic', 'node-role.kubernetes.io/worker=']
]

describe('GET /join-scripts with url and tar_url files', () => {
  it('puts the fetched file and the tarball member in the payload, fetching each URL once across joins', async () => {
    const files = await startFileServer()
    const { app, href } = await setupJoin(designWithFiles([
      { path: '/opt/tool', mode: 0o755, url: `${files.url}/tool` },
      { path: '/usr/local/bin/helm', mode: 0o755, tar_url: `${files.url}/bundle.tgz`, tar_path: 'bin/helm' },
      { path: '/opt/flaky', url: `${files.url}/flaky` }
    ]), { fileHosts: [files.url] })
    for (let i = 0; i < 2; i++) {
      const res = await app.inject({ method: 'GET', url: joinUrl(N1(href)), headers: AUTH })
      expect(res.statusCode, res.body).toBe(200)
      const read = payloadOf(res.body)
      expect(read('opt/tool')).toBe('tool bytes\n')
      expect(read('usr/local/bin/helm')).toBe('#!/bin/sh\necho helm from the tarball\n')
      expect(read('opt/flaky')).toBe('finally\n')
    }
    expect(files.hits.get('/tool')).toBe(1)
    expect(files.hits.get('/bundle.tgz')).toBe(1)
    // two 503s, then the answer: three attempts, and the cache serves the second join
    expect(files.hits.get('/flaky')).toBe(3)
  })

  it('answers 502 naming the URL when a file stays unavailable', async () => {
    const files = await startFileServer(10)
    const { app, href } = await setupJoin(designWithFiles([{ path: '/opt/flaky', url: `${files.url}/flaky` }]), { fileHosts: [files.url] })
    const res = await app.inject({ method: 'GET', url: joinUrl(N1(href)), headers: AUTH })
    expect(res.statusCode).toBe(502)
    expect(res.json()).toMatchObject({ message: 'Downstream failure: file source', details: { errorType: 'DownstreamError' } })
    expect(res.json().reason).toContain(`${files.url}/flaky`)
    expect(res.json().reason).toContain('3 attempts')
    expect(files.hits.get('/flaky')).toBe(3)
  })

  it('answers 502 at once for a 404, without retrying', async () => {
    const files = await startFileServer()
    const { app, href } = await setupJoin(designWithFiles([{ path: '/opt/gone', url: `${files.url}/gone` }]), { fileHosts: [files.url] })
    const res = await app.inject({ method: 'GET', url: joinUrl(N1(href)), headers: AUTH })
    expect(res.statusCode).toBe(502)
    expect(res.json().message).toBe('Downstream failure: file source')
    expect(res.json().reason).toBe(`${files.url}/gone answered 404`)
    expect(files.hits.get('/gone')).toBe(1)
  })

  it('answers 400 naming the document for a missing tar member, a non-http URL, two sources or a bad path', async () => {
    const files = await startFileServer()
    const cases: Array<[unknown, string]> = [
      [{ path: '/opt/x', tar_url: `${files.url}/bundle.tgz`, tar_path: 'bin/nothing' }, 'has no file bin/nothing'],
      [{ path: '/opt/x', tar_url: `${files.url}/tool`, tar_path: 'bin/helm' }, 'not a tar archive'],
      [{ path: '/opt/x', url: 'file:///etc/shadow' }, 'must be an http(s) URL'],
      [{ path: '/opt/x', content: 'a', url: `${files.url}/tool` }, 'needs exactly one of'],
      [{ path: '/opt/../etc/passwd', content: 'a' }, "without '..'"]
    ]
    for (const [file, message] of cases) {
      const { app, href } = await setupJoin(designWithFiles([file]), { fileHosts: [files.url] })
      const res = await app.inject({ method: 'GET', url: joinUrl(N1(href)), headers: AUTH })
      expect(res.statusCode, JSON.stringify(file)).toBe(400)
      expect(res.json().message).toContain('host-system')
      expect(res.json().message, JSON.stringify(file)).toContain(message)
    }
  })
})
