// The Armada stand-in in the stack, called as Shipyard's Armada operators call Armada: validate the committed example
// site, apply its manifest from the store's rendered documents, list and test the releases, apply again.
import { readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { runningStack } from './helpers/running-stack.ts'

const SITE = resolve(import.meta.dirname, '../../../examples/site')
const running = runningStack({ name: 'armada', adminToken: 'armada-admin-token', callTimeoutMs: 20_000, env: {} })
const { call } = running

describe('the Armada stand-in, on the committed example site', () => {
  let designRef = ''
  // the site takes the service token, as the workflow steps send it
  async function armada (path: string, options: { json?: unknown } = {}) {
    const token = readFileSync(join(running.dataDir, 'service-token'), 'utf8').trim()
    const headers: Record<string, string> = { 'x-auth-token': token }
    if (options.json !== undefined) headers['content-type'] = 'application/json'
    const response = await fetch(`${running.stack.urls.site}/armada/api/v1.0${path}`, {
      method: options.json === undefined ? 'GET' : 'POST',
      headers,
      body: options.json === undefined ? undefined : JSON.stringify(options.json),
      signal: AbortSignal.timeout(20_000)
    })
    const text = await response.text()
    return { status: response.status, json: () => JSON.parse(text) as Record<string, any> }
  }

  it('commits the example, whose rendered design the stand-in validates (Success)', async () => {
    expect((await call('POST', '/configdocs/global', { body: readFileSync(join(SITE, 'global.yaml'), 'utf8'), type: 'application/x-yaml' })).status).toBe(201)
    expect((await call('POST', '/configdocs/site?buffermode=append', { body: readFileSync(join(SITE, 'site.yaml'), 'utf8'), type: 'application/x-yaml' })).status).toBe(201)
    expect((await call('POST', '/commitconfigdocs')).json()).toMatchObject({ status: 'Success' })
    const store = `${running.stack.urls.store}/api/v1.0`
    const token = readFileSync(join(running.dataDir, 'service-token'), 'utf8').trim()
    const list = parse(await (await fetch(`${store}/revisions`, { headers: { 'x-auth-token': token } })).text()) as { results: Array<{ id: number, tags: string[] }> }
    const committed = Math.max(...list.results.filter((r) => r.tags.includes('committed')).map((r) => r.id))
    designRef = `deckhand+${store}/revisions/${committed}/rendered-documents`
    const validated = await armada('/validatedesign', { json: { rel: 'design', href: designRef, type: 'application/x-yaml' } })
    expect(validated.status).toBe(200)
    expect(validated.json()).toMatchObject({ status: 'Success', details: { errorCount: 0 } })
  })

  it('applies full-site from the store: five installs, then nothing to do; the releases list and test', async () => {
    const first = await armada('/apply?target_manifest=full-site&timeout=600', { json: { hrefs: [designRef], overrides: [] } })
    expect(first.status).toBe(200)
    expect(first.json().message).toMatchObject({ install: expect.arrayContaining(['airship-ucp-shipyard']), upgrade: [] })
    expect((first.json().message as { install: string[] }).install).toHaveLength(5)
    const again = await armada('/apply?target_manifest=full-site', { json: { hrefs: [designRef], overrides: [] } })
    expect(again.json()).toEqual({ message: { install: [], upgrade: [], diff: [], purge: [], protected: [] } })
    const releases = (await armada('/releases')).json().releases as Record<string, string[]>
    expect(releases.ucp).toEqual(['airship-ucp-keystone', 'airship-ucp-shipyard'])
    expect((await armada('/test/airship-ucp-shipyard')).json()).toEqual({ result: 'PASSED: airship-ucp-shipyard', message: 'MESSAGE: Test Pass' })
  })

  it('upgrades the shipyard release when an override changes its values', async () => {
    const res = await armada('/apply?target_manifest=full-site', {
      json: { hrefs: [designRef], overrides: ['chart:ucp-shipyard:values.pod.replicas.shipyard.api=3'] }
    })
    expect(res.status).toBe(200)
    expect(res.json().message).toMatchObject({ install: [], upgrade: ['airship-ucp-shipyard'] })
  })
})
