// HostSystem files are fetched only from the file hosts (issue 25, fault 10): FILE_HOSTS, by default the design hosts;
// a design naming any other host is refused with 400 before any file of it is fetched. Upstream Promenade fetches
// from any host: a deliberate difference.
import Fastify from 'fastify'
import { describe, expect, it, onTestFinished } from 'vitest'
import { parseAllDocuments, stringify } from 'yaml'
import { ConfigError } from '@slipway/common'
import { AUTH } from '@slipway/common/testing'
import { loadConfig } from '../../src/config.ts'
import { createDeps } from '../../src/deps.ts'
import { buildTestApp, clusterNodes, exampleDesign, joinUrl, setupJoin, startDesignServer, startKube, UNREACHABLE_STORE } from '../helpers/servers.ts'

/** A file server answering every path; records the paths asked for. */
async function startFileServer () {
  const seen: string[] = []
  const app = Fastify()
  app.get('/*', async (request) => { seen.push(request.url); return `bytes of ${request.url}\n` })
  await app.listen({ host: '127.0.0.1', port: 0 })
  onTestFinished(async () => { await app.close() })
  const address = app.server.address()
  return { url: `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}`, seen }
}

function designWithFiles (files: unknown[]): string {
  return parseAllDocuments(exampleDesign()).flatMap((doc) => {
    const value = doc.toJS() as { schema: string, data: { files?: unknown[] } } | null
    if (value === null) return []
    if (value.schema === 'promenade/HostSystem/v1') value.data.files = [...(value.data.files ?? []), ...files]
    return [stringify(value)]
  }).join('---\n')
}

const N1 = (href: string): Array<[string, string]> => [['design_ref', href], ['hostname', 'n1'], ['ip', '192.168.77.11']]

const REFUSED = (host: string): string => `A HostSystem file url or tar_url names ${host}, which is not one of this service's file hosts (FILE_HOSTS)`

describe('HostSystem files from the file hosts only', () => {
  it('refuses a design naming a file on another host with 400, fetching none of its files', async () => {
    const allowed = await startFileServer()
    const other = await startFileServer()
    const { app, href } = await setupJoin(designWithFiles([
      { path: '/opt/first', url: `${allowed.url}/first` },
      { path: '/opt/elsewhere', url: `${other.url}/elsewhere` },
      { path: '/opt/bundle', tar_url: `${other.url}/bundle.tgz`, tar_path: 'bin/tool' }
    ]), { fileHosts: [allowed.url] })
    const res = await app.inject({ url: joinUrl(N1(href)), headers: AUTH })
    expect(res.statusCode).toBe(400)
    const otherHost = new URL(other.url).host
    expect(res.json()).toMatchObject({ message: REFUSED(otherHost), reason: REFUSED(otherHost), code: '400 Bad Request', details: { errorType: 'InvalidFormatError' } })
    expect(allowed.seen).toEqual([])
    expect(other.seen).toEqual([])
  })

  it('fetches from the design hosts when FILE_HOSTS is not set, and from nowhere else', async () => {
    const store = await startDesignServer('placeholder')
    const other = await startFileServer()
    const kube = await startKube(clusterNodes())
    // the design server serves its design at /site.yaml: as a HostSystem file, its bytes land in the payload
    const design = designWithFiles([{ path: '/opt/from-design-host', url: `${store.url}/site.yaml` }])
    const served = await startDesignServer(design)
    const app = await buildTestApp({ kubeUrl: kube.url, designHosts: [served.url, store.url, UNREACHABLE_STORE] })
    const ok = await app.inject({ url: joinUrl(N1(`${served.url}/site.yaml`)), headers: AUTH })
    expect(ok.statusCode, ok.body).toBe(200)

    const elsewhere = await startDesignServer(designWithFiles([{ path: '/opt/x', url: `${other.url}/x` }]))
    const app2 = await buildTestApp({ kubeUrl: kube.url, designHosts: [elsewhere.url] })
    const refused = await app2.inject({ url: joinUrl(N1(`${elsewhere.url}/site.yaml`)), headers: AUTH })
    expect(refused.statusCode).toBe(400)
    expect(refused.json().message).toBe(REFUSED(new URL(other.url).host))
    expect(other.seen).toEqual([])
  })

  it('reads FILE_HOSTS as comma-separated host[:port], by default the design hosts, and stops the service on a bad entry', () => {
    expect(loadConfig({}).FILE_HOSTS).toBe('')
    const error = (() => { try { createDeps(loadConfig({ FILE_HOSTS: 'files.example:8080, http://bad/' })); return undefined } catch (e) { return e } })()
    expect(error).toBeInstanceOf(ConfigError)
    expect((error as ConfigError).problems).toEqual([expect.stringMatching(/^FILE_HOSTS: "http:\/\/bad\/" is not host\[:port\]$/)])
    expect(() => createDeps(loadConfig({ FILE_HOSTS: 'files.example:8080,mirror.example' }))).not.toThrow()
  })
})
