import { describe, expect, it } from 'vitest'
import { buildTestApp, tempDir } from '../helpers/site.ts'
import { API, chart, chartGroup, manifest, siteDesign, startDesignHost, toYaml } from '../helpers/armada.ts'

type App = Awaited<ReturnType<typeof buildTestApp>>

function apply (app: App, body: unknown, query = '') {
  return app.inject({
    method: 'POST',
    url: `${API}/apply${query}`,
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify(body)
  })
}

const EMPTY = { install: [], upgrade: [], diff: [], purge: [], protected: [] }

describe('POST /armada/api/v1.0/apply with a manifest reference', () => {
  it('installs every chart of the manifest first, upgrades a changed one with its diff next, then does nothing', async () => {
    const app = await buildTestApp()
    const host = await startDesignHost({ 1: siteDesign() })
    const first = await apply(app, { hrefs: [host.href(1)], overrides: [] }, '?target_manifest=full-site&timeout=600')
    expect(first.statusCode).toBe(200)
    expect(first.headers['content-type']).toMatch(/^application\/json/)
    expect(first.json()).toEqual({
      message: { ...EMPTY, install: ['airship-calico', 'airship-coredns', 'airship-keystone', 'airship-shipyard'] }
    })

    const changed = siteDesign()
    ;(changed[6]!.data as Record<string, unknown>).values = { replicas: 2 }
    host.revisions[2] = changed
    const second = await apply(app, { hrefs: [host.href(2)] }, '?target_manifest=full-site')
    expect(second.statusCode).toBe(200)
    expect(second.json().message).toEqual({
      ...EMPTY,
      upgrade: ['airship-shipyard'],
      diff: [{ shipyard: "{'values_changed': {\"root['values']['replicas']\": {'new_value': 2, 'old_value': 1}}}" }]
    })

    const third = await apply(app, { hrefs: [host.href(2)] }, '?target_manifest=full-site')
    expect(third.json()).toEqual({ message: EMPTY })

    const releases = await app.inject({ url: `${API}/releases` })
    expect(releases.json()).toEqual({
      releases: { 'kube-system': ['airship-calico', 'airship-coredns'], ucp: ['airship-keystone', 'airship-shipyard'] }
    })
  })

  it('upgrades a chart whose source changed, and one whose new values come from an override', async () => {
    const app = await buildTestApp()
    const host = await startDesignHost({ 1: siteDesign() })
    await apply(app, { hrefs: [host.href(1)] })
    const moved = siteDesign()
    ;(moved[3]!.data as Record<string, unknown>).source = { type: 'git', location: 'https://opendev.org/openstack/openstack-helm-infra', subpath: 'calico', reference: 'v2' }
    host.revisions[2] = moved
    const res = await apply(app, { hrefs: [host.href(2)], overrides: ['chart:keystone:values.replicas=3'] })
    expect(res.statusCode).toBe(200)
    expect(res.json().message.upgrade).toEqual(['airship-calico', 'airship-keystone'])
    expect(res.json().message.diff.map((d: Record<string, string>) => Object.keys(d)[0])).toEqual(['calico', 'keystone'])
    expect(res.json().message.diff[1].keystone).toContain("root['values']['replicas']")
  })

  it('takes one href as a string, and the only manifest when no target is named', async () => {
    const app = await buildTestApp()
    const host = await startDesignHost({ 1: siteDesign() })
    const res = await apply(app, { hrefs: host.href(1) })
    expect(res.statusCode).toBe(200)
    expect(res.json().message.install).toHaveLength(4)
  })

  it('applies only the target manifest of several, with its own release prefix', async () => {
    const app = await buildTestApp()
    const host = await startDesignHost({ 1: [...siteDesign(), manifest('ucp-only', ['ucp'], 'ucp')] })
    const res = await apply(app, { hrefs: [host.href(1)] }, '?target_manifest=ucp-only')
    expect(res.json().message.install).toEqual(['ucp-keystone', 'ucp-shipyard'])
  })

  it('answers 400 with Armada\'s error body when several manifests are there and none is targeted', async () => {
    const app = await buildTestApp()
    const host = await startDesignHost({ 1: [...siteDesign(), manifest('ucp-only', ['ucp'], 'ucp')] })
    const res = await apply(app, { hrefs: [host.href(1)] })
    expect(res.statusCode).toBe(400)
    expect(res.json()).toEqual({ type: 'error', retry: false, message: expect.stringContaining('Multiple manifests are not supported') })
  })

  it('answers 400 for an unknown target manifest', async () => {
    const app = await buildTestApp()
    const host = await startDesignHost({ 1: siteDesign() })
    const res = await apply(app, { hrefs: [host.href(1)] }, '?target_manifest=nope')
    expect(res.statusCode).toBe(400)
    expect(res.json().message).toMatch(/^An error occurred while generating the manifest: Documents must be a list/)
  })

  it('answers 500 "Failed to apply manifest" for a manifest naming a missing chart group, and installs nothing', async () => {
    const app = await buildTestApp()
    const host = await startDesignHost({ 1: [...siteDesign().slice(1), manifest('full-site', ['kubernetes', 'missing'])] })
    const res = await apply(app, { hrefs: [host.href(1)] })
    expect(res.statusCode).toBe(500)
    expect(res.json()).toEqual({
      type: 'error',
      retry: false,
      message: 'Failed to apply manifest: Armada manifest(s) failed validation. Details: An error occurred while building chart group: Could not build armada/ChartGroup/v1 named "missing".'
    })
    expect((await app.inject({ url: `${API}/releases` })).json()).toEqual({ releases: {} })
  })

  it('answers 400 when the body has no hrefs, 415 for another content type, 400 for bad JSON', async () => {
    const app = await buildTestApp()
    const none = await apply(app, { overrides: [] })
    expect(none.statusCode).toBe(400)
    expect(none.json()).toEqual({ type: 'error', message: "Request did not contain 'hrefs'.", retry: false })
    const text = await app.inject({ method: 'POST', url: `${API}/apply`, headers: { 'content-type': 'text/plain' }, payload: 'x' })
    expect(text.statusCode).toBe(415)
    expect(text.json()).toMatchObject({ type: 'error', message: 'Request must be in application/x-yaml or application/json' })
    const bad = await app.inject({ method: 'POST', url: `${API}/apply`, headers: { 'content-type': 'application/json' }, payload: '{' })
    expect(bad.statusCode).toBe(400)
  })

  it('answers 500 with retry when the design cannot be read (unknown revision, host down)', async () => {
    const app = await buildTestApp()
    const host = await startDesignHost({})
    const missing = await apply(app, { hrefs: [host.href(9)] })
    expect(missing.statusCode).toBe(500)
    expect(missing.json()).toMatchObject({
      status: 'Failure',
      retry: true,
      message: `Unhandled Exception raised: Unable to resolve path ${host.href(9)}`
    })
    const down = await apply(app, { hrefs: ['deckhand+http://127.0.0.1:1/api/v1.0/revisions/1/rendered-documents'] })
    expect(down.statusCode).toBe(500)
  })

  it('answers 400 for a bad boolean option, as falcon does', async () => {
    const app = await buildTestApp()
    const res = await apply(app, { hrefs: ['deckhand+http://127.0.0.1:1/x'] }, '?dry_run=maybe')
    expect(res.statusCode).toBe(400)
  })
})

describe('POST /armada/api/v1.0/apply with a YAML manifest body', () => {
  it('installs from the documents sent, a stream or one list of documents', async () => {
    const app = await buildTestApp()
    const res = await app.inject({ method: 'POST', url: `${API}/apply`, headers: { 'content-type': 'application/x-yaml' }, payload: toYaml(siteDesign()) })
    expect(res.statusCode).toBe(200)
    expect(res.json().message.install).toHaveLength(4)
    const list = await app.inject({
      method: 'POST',
      url: `${API}/apply`,
      headers: { 'content-type': 'application/x-yaml' },
      payload: JSON.stringify(siteDesign())
    })
    expect(list.json()).toEqual({ message: EMPTY })
  })

  it('answers 400 for YAML that does not parse', async () => {
    const app = await buildTestApp()
    const res = await app.inject({ method: 'POST', url: `${API}/apply`, headers: { 'content-type': 'application/x-yaml' }, payload: 'a: [' })
    expect(res.statusCode).toBe(400)
    expect(res.json()).toEqual({ type: 'error', message: 'Documents must be valid YAML.', retry: false })
  })
})

describe('apply options', () => {
  const yaml = { 'content-type': 'application/x-yaml' }

  it('dry_run reports the installs without making them', async () => {
    const app = await buildTestApp()
    const res = await app.inject({ method: 'POST', url: `${API}/apply?dry_run=true`, headers: yaml, payload: toYaml(siteDesign()) })
    expect(res.json().message.install).toHaveLength(4)
    expect((await app.inject({ url: `${API}/releases` })).json()).toEqual({ releases: {} })
  })

  it('enable_chart_cleanup purges the prefix\'s releases the manifest no longer names', async () => {
    const app = await buildTestApp()
    await app.inject({ method: 'POST', url: `${API}/apply`, headers: yaml, payload: toYaml(siteDesign()) })
    const smaller = [manifest('full-site', ['ucp']), chartGroup('ucp', ['keystone', 'shipyard']), chart('keystone'), chart('shipyard', { values: { replicas: 1 } })]
    const res = await app.inject({ method: 'POST', url: `${API}/apply?enable_chart_cleanup=true`, headers: yaml, payload: toYaml(smaller) })
    expect(res.json().message).toEqual({ ...EMPTY, purge: ['airship-calico', 'airship-coredns'] })
    expect((await app.inject({ url: `${API}/releases` })).json()).toEqual({ releases: { ucp: ['airship-keystone', 'airship-shipyard'] } })
  })
})

describe('failing applies (ARMADA_FAIL_APPLY, PUT /_stub/armada/faults)', () => {
  const yaml = { 'content-type': 'application/x-yaml' }

  it('fails every release with ARMADA_FAIL_APPLY=1: the first group fails and the next is not applied', async () => {
    const app = await buildTestApp({ ARMADA_FAIL_APPLY: '1' })
    const res = await app.inject({ method: 'POST', url: `${API}/apply`, headers: yaml, payload: toYaml(siteDesign()) })
    expect(res.statusCode).toBe(500)
    expect(res.json()).toEqual({ type: 'error', retry: false, message: "Failed to apply manifest: Exception deploying charts: ['calico', 'coredns']" })
    const kept = (await app.inject({ url: '/_stub/armada/releases' })).json()
    expect(kept.map((r: { name: string, status: string }) => [r.name, r.status])).toEqual([['airship-calico', 'failed'], ['airship-coredns', 'failed']])
  })

  it('fails a named release; once the fault is cleared the failed release is purged and installed again', async () => {
    const app = await buildTestApp({ ARMADA_FAIL_APPLY: 'airship-shipyard' })
    const failed = await app.inject({ method: 'POST', url: `${API}/apply`, headers: yaml, payload: toYaml(siteDesign()) })
    expect(failed.statusCode).toBe(500)
    expect(failed.json().message).toBe("Failed to apply manifest: Exception deploying charts: ['shipyard']")
    const cleared = await app.inject({ method: 'PUT', url: '/_stub/armada/faults', payload: { fail_apply: [], fail_tests: [] } })
    expect(cleared.json()).toEqual({ fail_apply: [], fail_tests: [] })
    const again = await app.inject({ method: 'POST', url: `${API}/apply`, headers: yaml, payload: toYaml(siteDesign()) })
    expect(again.statusCode).toBe(200)
    expect(again.json().message).toEqual({ ...EMPTY, install: ['airship-shipyard'], purge: ['airship-shipyard'] })
  })

  it('fails an apply whose release tests fail after the deploy (ARMADA_FAIL_TESTS), and passes once they pass', async () => {
    const app = await buildTestApp({ ARMADA_FAIL_TESTS: 'coredns' })
    const res = await app.inject({ method: 'POST', url: `${API}/apply`, headers: yaml, payload: toYaml(siteDesign()) })
    expect(res.statusCode).toBe(500)
    expect(res.json().message).toBe("Failed to apply manifest: Exception deploying charts: ['coredns']")
    await app.inject({ method: 'PUT', url: '/_stub/armada/faults', payload: { fail_apply: [], fail_tests: [] } })
    // the release stayed deployed: nothing to install, its tests run again and pass
    const again = await app.inject({ method: 'POST', url: `${API}/apply`, headers: yaml, payload: toYaml(siteDesign()) })
    expect(again.statusCode).toBe(200)
    expect(again.json().message.install).toEqual(['airship-keystone', 'airship-shipyard'])
  })

  it('keeps a protected failed release for the operator when it may continue', async () => {
    const app = await buildTestApp({ ARMADA_FAIL_APPLY: 'keystone' })
    const design = siteDesign()
    ;(design[5]!.data as Record<string, unknown>).protected = { continue_processing: true }
    await app.inject({ method: 'POST', url: `${API}/apply`, headers: yaml, payload: toYaml(design) })
    await app.inject({ method: 'PUT', url: '/_stub/armada/faults', payload: { fail_apply: [], fail_tests: [] } })
    const res = await app.inject({ method: 'POST', url: `${API}/apply`, headers: yaml, payload: toYaml(design) })
    expect(res.json().message).toEqual({ ...EMPTY, install: ['airship-shipyard'], protected: ['airship-keystone'] })
  })
})

describe('persistence', () => {
  it('keeps the installed releases in SITE_DATA_DIR/armada-state.json across restarts', async () => {
    const dir = tempDir()
    const first = await buildTestApp({ SITE_DATA_DIR: dir })
    await first.inject({ method: 'POST', url: `${API}/apply`, headers: { 'content-type': 'application/x-yaml' }, payload: toYaml(siteDesign()) })
    await first.close()
    const second = await buildTestApp({ SITE_DATA_DIR: dir })
    expect(Object.values((await second.inject({ url: `${API}/releases` })).json().releases).flat()).toHaveLength(4)
    const res = await second.inject({ method: 'POST', url: `${API}/apply`, headers: { 'content-type': 'application/x-yaml' }, payload: toYaml(siteDesign()) })
    expect(res.json().message.install).toEqual([])
  })
})
