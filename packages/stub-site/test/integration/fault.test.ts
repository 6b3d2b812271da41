import { request } from 'undici'
import { describe, expect, it } from 'vitest'
import { failureStatus } from '../helpers/kube.ts'
import { EXAMPLE_NODES_FILE, startTestSite } from '../helpers/site.ts'

async function setFault (url: string, fault: unknown) {
  const res = await request(`${url}/_stub/fault`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(fault) })
  expect(res.statusCode).toBe(200)
  await res.body.dump()
}

describe('fault injection', () => {
  it('error mode: the Drydock route answers the chosen 5xx with the error body', async () => {
    const site = await startTestSite({ SITE_NODES_FILE: EXAMPLE_NODES_FILE })
    await setFault(site.url, { mode: 'error', status: 503 })
    const res = await request(`${site.url}/api/v1.0/nodes`)
    expect(res.statusCode).toBe(503)
    expect(await res.body.json()).toMatchObject({
      kind: 'status', status: 'Failure', message: 'Injected fault', reason: 'stub-site is told to fail (fault mode error, status 503)', code: '503 Service Unavailable', retry: true
    })
  })

  it('error mode from SITE_FAULT: Kubernetes routes answer a Kubernetes Status; health and control routes still work', async () => {
    const site = await startTestSite({ SITE_NODES_FILE: EXAMPLE_NODES_FILE, SITE_FAULT: 'error' })
    const res = await request(`${site.url}/api/v1/nodes/rack1-n01`)
    expect(res.statusCode).toBe(500)
    expect(await res.body.json()).toEqual(failureStatus(500, 'InternalError', 'stub-site is told to fail (fault mode error, status 500)'))
    const patch = await request(`${site.url}/api/v1/nodes/rack1-n01`, { method: 'PATCH', headers: { 'content-type': 'application/merge-patch+json' }, body: '{"metadata":{"labels":{"a":"b"}}}' })
    expect(patch.statusCode).toBe(500)
    await patch.body.dump()
    const health = await request(`${site.url}/api/v1.0/health`)
    expect(health.statusCode).toBe(204)
    await health.body.dump()
    await setFault(site.url, { mode: 'none' })
    const healed = await request(`${site.url}/api/v1/nodes/rack1-n01`)
    expect(healed.statusCode).toBe(200)
    // the failed patch changed nothing
    expect((await healed.body.json() as { metadata: { labels: Record<string, string> } }).metadata.labels).not.toHaveProperty('a')
  })

  it('hang mode: no answer until the caller gives up; the site closes promptly with requests hanging', async () => {
    const site = await startTestSite({ SITE_NODES_FILE: EXAMPLE_NODES_FILE })
    await setFault(site.url, { mode: 'hang' })
    const started0 = Date.now()
    await expect(request(`${site.url}/api/v1.0/nodes`, { signal: AbortSignal.timeout(300) })).rejects.toMatchObject({ name: 'TimeoutError' })
    await expect(request(`${site.url}/api/v1/nodes`, { signal: AbortSignal.timeout(300) })).rejects.toMatchObject({ name: 'TimeoutError' })
    expect(Date.now() - started0).toBeGreaterThanOrEqual(550)
    await setFault(site.url, { mode: 'none' })
    const res = await request(`${site.url}/api/v1.0/nodes`)
    expect(res.statusCode).toBe(200)
    expect(await res.body.json()).toHaveLength(4)

    await setFault(site.url, { mode: 'hang' })
    // the site is closed once the request has reached it (not after a fixed wait it may not have reached it in)
    const arrived = new Promise((resolve) => { site.app.server.once('request', resolve) })
    const pending = request(`${site.url}/api/v1/nodes/rack1-n01`).then((r) => r.statusCode, (error: { code?: string }) => error.code)
    await arrived
    await new Promise((resolve) => setImmediate(resolve))
    const started = Date.now()
    await site.close()
    // promptly: not the minutes a hanging request could hold it, with room for a busy machine
    expect(Date.now() - started).toBeLessThan(5000)
    expect(await pending).toBe('UND_ERR_SOCKET')
  })
})
