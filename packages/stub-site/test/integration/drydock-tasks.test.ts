import { request } from 'undici'
import { describe, expect, it } from 'vitest'
import { startDesignServer, startFakeBootstrap } from '../helpers/drydock.ts'
import { startTestSite } from '../helpers/site.ts'

describe('Drydock tasks over HTTP', () => {
  it('deploys the design\'s nodes with the default phase pause, a caller polling until complete', async () => {
    const bootstrap = await startFakeBootstrap()
    const site = await startTestSite({ BOOTSTRAP_URL: bootstrap.url, SITE_AUTH_TOKENS: 'tok' })
    const design = await startDesignServer()
    const headers = { 'x-auth-token': 'tok', 'content-type': 'application/json', 'x-context-marker': '0d2c6a5e-7c1b-4f3a-9e8d-1a2b3c4d5e6f' }
    const created = await request(`${site.url}/api/v1.0/tasks`, {
      method: 'POST', headers, body: JSON.stringify({ action: 'deploy_nodes', design_ref: design.designRef(), node_filter: null })
    })
    expect(created.statusCode).toBe(201)
    const answer = await created.body.json() as { task_id: string, status: string }
    expect(answer.status).toBe('queued')
    const taskId = answer.task_id
    const deadline = Date.now() + 15_000
    let task: { status: string, result: { status: string, successes: string[] } } | undefined
    while (Date.now() < deadline) {
      const res = await request(`${site.url}/api/v1.0/tasks/${taskId}`, { headers })
      task = await res.body.json() as typeof task
      if (task?.status === 'complete') break
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
    expect(task).toMatchObject({ status: 'complete', result: { status: 'success', successes: ['n0', 'n1', 'n2', 'n3'] } })
    const nodes = await (await request(`${site.url}/api/v1.0/nodes`, { headers })).body.json() as Array<{ status_name: string, power_state: string }>
    expect(nodes.map((n) => `${n.status_name}/${n.power_state}`)).toEqual(Array(4).fill('Deployed/on'))
    // the design was read with the caller's context marker
    expect(design.state.requests.at(-1)?.contextMarker).toBe('0d2c6a5e-7c1b-4f3a-9e8d-1a2b3c4d5e6f')
  })
})
