import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { buildTestApp, startTestSite } from '../helpers/site.ts'
import { API, chart, chartGroup, manifest, siteDesign, startDesignHost, toYaml } from '../helpers/armada.ts'

type App = Awaited<ReturnType<typeof buildTestApp>>

const YAML = { 'content-type': 'application/x-yaml' }

async function installed (env: Record<string, string> = {}): Promise<App> {
  const app = await buildTestApp(env)
  const res = await app.inject({ method: 'POST', url: `${API}/apply`, headers: YAML, payload: toYaml(siteDesign()) })
  expect(res.statusCode).toBe(200)
  return app
}

function validate (app: App, href: string) {
  return app.inject({
    method: 'POST',
    url: `${API}/validatedesign`,
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify({ rel: 'design', href, type: 'application/x-yaml' })
  })
}

describe('GET /armada/api/v1.0/health', () => {
  it('answers 204 with no body, without a token', async () => {
    const app = await buildTestApp({ SITE_AUTH_TOKENS: 't1' })
    const res = await app.inject({ url: `${API}/health` })
    expect(res.statusCode).toBe(204)
    expect(res.body).toBe('')
  })
})

describe('GET /armada/api/v1.0/releases', () => {
  it('answers no releases before any apply', async () => {
    const app = await buildTestApp()
    const res = await app.inject({ url: `${API}/releases` })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({ releases: {} })
  })

  it('needs a token when SITE_AUTH_TOKENS is set (401 with the service error body)', async () => {
    const app = await buildTestApp({ SITE_AUTH_TOKENS: 't1' })
    const res = await app.inject({ url: `${API}/releases` })
    expect(res.statusCode).toBe(401)
    expect(res.json()).toMatchObject({ status: 'Failure', code: '401 Unauthorized' })
    expect((await app.inject({ url: `${API}/releases`, headers: { 'x-auth-token': 't1' } })).statusCode).toBe(200)
  })

  it('plays the site fault: 503 in the error mode', async () => {
    const app = await buildTestApp({ SITE_FAULT: 'error', SITE_FAULT_STATUS: '503' })
    const res = await app.inject({ url: `${API}/releases` })
    expect(res.statusCode).toBe(503)
    expect(res.json()).toMatchObject({ message: 'Injected fault', retry: true })
  })
})

describe('GET /armada/api/v1.0/test/{release}', () => {
  it('answers PASSED for an installed release', async () => {
    const app = await installed()
    const res = await app.inject({ url: `${API}/test/airship-shipyard?cleanup=true` })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({ result: 'PASSED: airship-shipyard', message: 'MESSAGE: Test Pass' })
  })

  it('answers FAILED (still 200) for a release whose tests fail, as set at run time', async () => {
    const app = await installed()
    const set = await app.inject({ method: 'PUT', url: '/_stub/armada/faults', payload: { fail_apply: [], fail_tests: ['airship-keystone'] } })
    expect(set.statusCode).toBe(200)
    expect((await app.inject({ url: `${API}/test/airship-keystone` })).json()).toEqual({
      result: 'FAILED: airship-keystone', message: 'MESSAGE: Test Fail'
    })
    expect((await app.inject({ url: `${API}/test/airship-shipyard` })).json().result).toBe('PASSED: airship-shipyard')
  })

  it('fails every release with ARMADA_FAIL_TESTS=*', async () => {
    const app = await buildTestApp({ ARMADA_FAIL_TESTS: '*' })
    const design = siteDesign().map((d) => d.schema === 'armada/ChartGroup/v1' ? { ...d, data: { ...d.data, test_charts: false } } : d)
    await app.inject({ method: 'POST', url: `${API}/apply`, headers: YAML, payload: toYaml(design) })
    expect((await app.inject({ url: `${API}/test/airship-calico` })).json().result).toBe('FAILED: airship-calico')
  })

  it('answers 500 with Armada\'s error body for an unknown release', async () => {
    const app = await buildTestApp()
    const res = await app.inject({ url: `${API}/test/ghost` })
    expect(res.statusCode).toBe(500)
    expect(res.json()).toEqual({ type: 'error', message: 'Failed to test ghost: release: "ghost" not found', retry: false })
  })

  it('takes the namespace too (GET /test/{namespace}/{release}), and a release of another namespace is unknown', async () => {
    const app = await installed()
    expect((await app.inject({ url: `${API}/test/ucp/airship-shipyard` })).json().result).toBe('PASSED: airship-shipyard')
    expect((await app.inject({ url: `${API}/test/kube-system/airship-shipyard` })).statusCode).toBe(500)
  })
})

describe('POST /armada/api/v1.0/tests', () => {
  it('tests the manifest\'s installed releases and skips the others', async () => {
    const app = await buildTestApp({ ARMADA_FAIL_TESTS: 'calico' })
    const first = [manifest('full-site', ['ucp']), chartGroup('ucp', ['keystone']), chart('keystone')]
    await app.inject({ method: 'POST', url: `${API}/apply`, headers: YAML, payload: toYaml(first) })
    const res = await app.inject({ method: 'POST', url: `${API}/tests?target_manifest=full-site`, headers: YAML, payload: toYaml(siteDesign()) })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({
      tests: { passed: ['airship-keystone'], skipped: ['airship-calico', 'airship-coredns', 'airship-shipyard'], failed: [] }
    })
  })

  it('answers 400 with the validation Status for invalid documents', async () => {
    const app = await buildTestApp()
    const bad = [manifest('full-site', ['missing']), chartGroup('ucp', ['keystone']), chart('keystone')]
    const res = await app.inject({ method: 'POST', url: `${API}/tests`, headers: YAML, payload: toYaml(bad) })
    expect(res.statusCode).toBe(400)
    expect(res.json()).toMatchObject({
      kind: 'Status',
      status: 'Failure',
      code: 400,
      message: 'Failed to validate documents or generate Armada Manifest from documents.',
      details: { errorCount: 1 }
    })
  })

  it('answers 400 with Armada\'s error body for YAML that does not parse', async () => {
    const app = await buildTestApp()
    const res = await app.inject({ method: 'POST', url: `${API}/tests`, headers: YAML, payload: 'a: [' })
    expect(res.statusCode).toBe(400)
    expect(res.json()).toEqual({ type: 'error', message: 'Documents must be valid YAML.', retry: false })
  })
})

describe('POST /armada/api/v1.0/validatedesign', () => {
  it('answers 200 Success for a design whose armada documents are valid, over HTTP', async () => {
    const site = await startTestSite()
    const host = await startDesignHost({ 1: siteDesign() })
    const res = await fetch(`${site.url}${API}/validatedesign`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ rel: 'design', href: host.href(1), type: 'application/x-yaml' })
    })
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({
      kind: 'Status',
      apiVersion: 'v1.0',
      metadata: {},
      reason: 'Validation',
      details: { errorCount: 0, messageList: [] },
      status: 'Success',
      message: 'Armada validations succeeded',
      code: 200
    })
  })

  const refusals: Array<[string, unknown[], string]> = [
    ['a manifest naming a missing chart group', [manifest('full-site', ['nope']), chartGroup('ucp', ['keystone']), chart('keystone')],
      'An error occurred while building chart group: Could not build armada/ChartGroup/v1 named "nope".'],
    ['a chart group naming a missing chart', [manifest('full-site', ['ucp']), chartGroup('ucp', ['keystone', 'nope']), chart('keystone')],
      'An error occurred while building chart group: Could not build chart group ucp in armada/ChartGroup/v1.'],
    ['a chart without its release', [manifest('full-site', ['ucp']), chartGroup('ucp', ['keystone']),
      { ...chart('keystone'), data: { ...chart('keystone').data, release: undefined } }],
    "Invalid document [armada/Chart/v1] keystone: 'release' is a required property."],
    ['a manifest without its release_prefix', [{ ...manifest('full-site', ['ucp']), data: { chart_groups: ['ucp'] } }, chartGroup('ucp', ['keystone']), chart('keystone')],
      "Invalid document [armada/Manifest/v1] full-site: 'release_prefix' is a required property."],
    ['a chart source without its location', [manifest('full-site', ['ucp']), chartGroup('ucp', ['keystone']),
      chart('keystone', { source: { type: 'tar', subpath: 'keystone' } })],
    "Invalid document [armada/Chart/v1] keystone: 'location' is a required property."],
    ['a chart field of the wrong type', [manifest('full-site', ['ucp']), chartGroup('ucp', ['keystone']), chart('keystone', { values: 'x' })],
      "Invalid document [armada/Chart/v1] keystone: 'x' is not of type 'object'."],
    ['a field the schema does not have', [manifest('full-site', ['ucp']), chartGroup('ucp', ['keystone'], { extra: 1 }), chart('keystone')],
      "Invalid document [armada/ChartGroup/v1] ucp: Additional properties are not allowed ('extra' was unexpected)."]
  ]

  for (const [what, documents, message] of refusals) {
    it(`answers 400 Failure for ${what}`, async () => {
      const app = await buildTestApp()
      const host = await startDesignHost({ 1: documents })
      const res = await validate(app, host.href(1))
      expect(res.statusCode).toBe(400)
      const body = res.json()
      expect(body).toMatchObject({ kind: 'Status', status: 'Failure', message: 'Armada validations failed', code: 400, details: { errorCount: 1 } })
      expect(body.details.messageList[0]).toMatchObject({ message, error: true, level: 'Error', kind: 'ValidationMessage' })
    })
  }

  it('validates a YAML body sent directly', async () => {
    const app = await buildTestApp()
    const res = await app.inject({ method: 'POST', url: `${API}/validatedesign`, headers: YAML, payload: toYaml(siteDesign()) })
    expect(res.statusCode).toBe(200)
    expect(res.json().status).toBe('Success')
  })

  it('answers 400 "Failed to validate Armada Manifest" without an href, or when the design cannot be read', async () => {
    const app = await buildTestApp()
    const none = await app.inject({ method: 'POST', url: `${API}/validatedesign`, headers: { 'content-type': 'application/json' }, payload: '{}' })
    expect(none.statusCode).toBe(400)
    expect(none.json()).toEqual({ type: 'error', message: 'Failed to validate Armada Manifest', retry: false })
    const host = await startDesignHost({})
    const unreadable = await validate(app, host.href(4))
    expect(unreadable.statusCode).toBe(400)
    expect(unreadable.json().message).toBe('Failed to validate Armada Manifest')
  })

  it('sends SERVICE_TOKEN only to the store\'s host', async () => {
    const host = await startDesignHost({ 1: siteDesign() })
    const app = await buildTestApp({ STORE_URL: host.base, SERVICE_TOKEN: 'svc' })
    await validate(app, host.href(1))
    const other = await buildTestApp({ STORE_URL: 'http://127.0.0.1:1/api/v1.0', SERVICE_TOKEN: 'svc' })
    await validate(other, host.href(1))
    expect(host.tokens).toEqual(['svc', undefined])
  })
})

describe('/_stub/armada control routes', () => {
  it('GET /faults answers the settings read from ARMADA_FAIL_APPLY and ARMADA_FAIL_TESTS', async () => {
    const app = await buildTestApp({ ARMADA_FAIL_APPLY: 'a, b', ARMADA_FAIL_TESTS: 'true' })
    expect((await app.inject({ url: '/_stub/armada/faults' })).json()).toEqual({ fail_apply: ['a', 'b'], fail_tests: ['*'] })
  })

  it('PUT /faults refuses a setting that is not a list of names with 400', async () => {
    const app = await buildTestApp()
    const res = await app.inject({ method: 'PUT', url: '/_stub/armada/faults', payload: { fail_apply: 'all', fail_tests: [] } })
    expect(res.statusCode).toBe(400)
    expect(res.json()).toMatchObject({ status: 'Failure', code: '400 Bad Request' })
  })

  it('GET /releases answers the kept releases; DELETE /releases forgets them', async () => {
    const app = await installed()
    const kept = (await app.inject({ url: '/_stub/armada/releases' })).json()
    expect(kept[0]).toMatchObject({ name: 'airship-calico', namespace: 'kube-system', chart: 'calico', revision: 1, status: 'deployed', test_passed: true })
    expect((await app.inject({ method: 'DELETE', url: '/_stub/armada/releases' })).statusCode).toBe(204)
    expect((await app.inject({ url: `${API}/releases` })).json()).toEqual({ releases: {} })
  })
})

describe('the example site (examples/site/global.yaml)', () => {
  it('validates, and its manifest full-site installs the five releases, the shipyard one named so', async () => {
    const text = readFileSync(fileURLToPath(new URL('../../../../examples/site/global.yaml', import.meta.url)), 'utf8')
    const app = await buildTestApp()
    const valid = await app.inject({ method: 'POST', url: `${API}/validatedesign`, headers: YAML, payload: text })
    expect(valid.json()).toMatchObject({ status: 'Success', details: { errorCount: 0 } })
    const res = await app.inject({ method: 'POST', url: `${API}/apply?target_manifest=full-site`, headers: YAML, payload: text })
    expect(res.statusCode).toBe(200)
    expect(res.json().message.install).toEqual([
      'airship-kubernetes-calico', 'airship-kubernetes-coredns', 'airship-kubernetes-ingress', 'airship-ucp-keystone', 'airship-ucp-shipyard'
    ])
    expect((await app.inject({ url: `${API}/releases` })).json().releases).toEqual({
      'kube-system': ['airship-kubernetes-calico', 'airship-kubernetes-coredns', 'airship-kubernetes-ingress'],
      ucp: ['airship-ucp-keystone', 'airship-ucp-shipyard']
    })
  })
})
