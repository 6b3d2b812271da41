// Hostile input against every bootstrap route, generated with fast-check: malformed and huge bodies, alias
// bombs, wrong content types, traversal and shell metacharacters in names and labels. Nothing may answer
// with a 5xx, crash, or answer an error without the error body.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { AUTH, isErrorBody } from '@slipway/common/testing'
import { buildTestApp, clusterNodes, exampleDesign, startDesignServer, startKube } from '../helpers/servers.ts'

const RUNS = Number(process.env.FUZZ_RUNS ?? 5000)

const nasty = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.constantFrom('../../etc/passwd', '%2e%2e%2f', '$(reboot)', '`id`', "'; rm -rf / #", 'a\nb', 'a=b,c=d', '\u0000', 'n1;ls', '💥', 'x'.repeat(300), '')
)
const aliasBomb = 'a: &a ["x","x","x","x","x","x","x","x","x"]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\ne: [*d,*d,*d,*d,*d,*d,*d,*d,*d]\n'
const body = fc.oneof(
  fc.json(),
  fc.string({ maxLength: 200 }),
  fc.constantFrom('{"href":', '[]', 'null', '{"a":null}', aliasBomb, '{"href": "http://127.0.0.1:1/x"}', '{"a": {"b": 1}}', 'x'.repeat(70_000)),
  fc.dictionary(nasty, fc.oneof(nasty, fc.constant(null), fc.integer())).map((d) => JSON.stringify(d))
)
const contentType = fc.constantFrom('application/json', 'application/json; charset=utf-8', 'application/x-yaml', 'text/plain', 'multipart/form-data', '', 'application/xml')

describe('fuzzing the bootstrap service', () => {
  it(`answers ${RUNS} generated bad requests with 4xx error bodies, never 5xx`, async () => {
    const store = await startDesignServer(exampleDesign())
    const kube = await startKube(clusterNodes())
    const app = await buildTestApp({ kubeUrl: kube.url, designHosts: [store.url] })
    const designRef = fc.oneof(fc.constant(`${store.url}/site.yaml`), nasty)
    const request = fc.oneof(
      fc.record({
        method: fc.constant('GET'),
        url: fc.tuple(
          designRef, nasty, nasty, fc.array(nasty, { maxLength: 3 }), fc.array(nasty, { maxLength: 3 }), fc.option(nasty)
        ).map(([ref, hostname, ip, dynamic, fixed, leave]) => {
          const q = new URLSearchParams([['design_ref', ref], ['hostname', hostname], ['ip', ip], ...dynamic.map((l): [string, string] => ['labels.dynamic', l]), ...fixed.map((l): [string, string] => ['static.labels', l])])
          if (leave !== null) q.append('leave_kubectl', leave)
          return `/api/v1.0/join-scripts?${q.toString()}`
        }),
        body: fc.constant(undefined),
        type: fc.constant(undefined)
      }),
      fc.record({ method: fc.constant('POST'), url: fc.constant('/api/v1.0/validatedesign'), body, type: contentType }),
      fc.record({ method: fc.constant('PUT'), url: nasty.map((name) => `/api/v1.0/node-labels/${encodeURIComponent(name)}`), body, type: contentType }),
      fc.record({ method: fc.constantFrom('GET', 'DELETE', 'PATCH', 'POST'), url: nasty.map((p) => `/api/v1.0/${encodeURIComponent(p)}`), body: fc.constant(undefined), type: fc.constant(undefined) })
    )
    let answered = 0
    await fc.assert(fc.asyncProperty(request, async (r) => {
      const headers: Record<string, string> = { ...AUTH }
      if (r.type !== undefined && r.type !== '') headers['content-type'] = r.type
      const res = await app.inject({ method: r.method as 'GET', url: r.url, headers, payload: r.body })
      answered++
      expect(res.statusCode, `${r.method} ${r.url}`).toBeLessThan(500)
      if (res.statusCode >= 400 && r.url.startsWith('/api/v1.0/validatedesign') === false) expect(isErrorBody(res.json()), res.body).toBe(true)
      if (res.statusCode >= 400 && r.url.startsWith('/api/v1.0/validatedesign')) expect(res.json()).toMatchObject({ kind: 'Status', status: 'Failure' })
    }), { numRuns: RUNS })
    console.log(`bootstrap fuzz: ${answered} requests, 0 answers in the 5xx range`)
  }, 300_000)
})
