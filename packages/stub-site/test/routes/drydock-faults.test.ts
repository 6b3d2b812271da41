import { describe, expect, it } from 'vitest'
import { JSON_HEADERS, pollTask, startDesignServer } from '../helpers/drydock.ts'
import { buildTestApp } from '../helpers/site.ts'

type App = Awaited<ReturnType<typeof buildTestApp>>

async function start (app: App, designRef: string, action: string, nodes?: string[]) {
  const nodeFilter = nodes === undefined ? null : { filter_set_type: 'union', filter_set: [{ filter_type: 'union', node_names: nodes }] }
  const payload = JSON.stringify({ action, design_ref: designRef, node_filter: nodeFilter })
  const res = await app.inject({ method: 'POST', url: '/api/v1.0/tasks', headers: JSON_HEADERS, payload })
  expect(res.statusCode).toBe(201)
  return res.json().task_id as string
}

async function putFaults (app: App, payload: unknown) {
  return await app.inject({ method: 'PUT', url: '/_stub/task-faults', headers: JSON_HEADERS, payload: JSON.stringify(payload) })
}

describe('SITE_FAIL_NODES', () => {
  it('fails the named nodes\' subtasks: partial_success, the failed machine left Failed deployment', async () => {
    const app = await buildTestApp({ SITE_TASK_MS: '5', SITE_FAIL_NODES: 'n2, deploy_nodes:n3' })
    const design = await startDesignServer()
    const task = await pollTask(app, await start(app, design.designRef(), 'deploy_nodes'))
    expect(task.result).toMatchObject({ status: 'partial_success', successes: ['n0', 'n1'], failures: ['n2', 'n3'] })
    const failed = (await app.inject({ url: `/api/v1.0/tasks/${task.task_id as string}?subtaskerrors=true` })).json()
    type Result = { task_id: string, details: { messageList: Array<{ message: string, context: string }> } }
    const errors = Object.values(failed.subtask_errors) as Result[]
    expect(errors.map((e) => e.details.messageList[0]?.context).sort()).toEqual(['n2', 'n3'])
    expect(errors[0]?.details.messageList[0]?.message).toMatch(/^deploy_node failed on node n[23] \(fault set by SITE_FAIL_NODES\)$/)
    const nodes = (await app.inject({ url: '/api/v1.0/nodes' })).json() as Array<{ hostname: string, status_name: string }>
    expect(nodes.find((n) => n.hostname === 'n3')?.status_name).toBe('Failed deployment')

    // an action:node entry touches that action only; a bare node every node-level action
    const prepared = await pollTask(app, await start(app, design.designRef(), 'verify_nodes', ['n2', 'n3']))
    expect(prepared.result).toMatchObject({ status: 'partial_success', successes: ['n3'], failures: ['n2'] })
  })

  it('failure when every node fails; cleared at run time, the nodes deploy', async () => {
    const app = await buildTestApp({ SITE_TASK_MS: '5', SITE_FAIL_NODES: 'n1' })
    const design = await startDesignServer()
    const failed = await pollTask(app, await start(app, design.designRef(), 'deploy_nodes', ['n1']))
    expect(failed.result).toMatchObject({ status: 'failure', successes: [], failures: ['n1'] })
    expect((await putFaults(app, { fail_nodes: [] })).json()).toEqual({ fail_nodes: [], stuck_tasks: [] })
    const retried = await pollTask(app, await start(app, design.designRef(), 'deploy_nodes', ['n1']))
    expect(retried.result).toMatchObject({ status: 'success', successes: ['n1'] })
  })
})

describe('SITE_STUCK_TASKS', () => {
  it('holds the action\'s tasks in running while set; other actions complete; released, it completes', async () => {
    const app = await buildTestApp({ SITE_TASK_MS: '5', SITE_STUCK_TASKS: 'deploy_nodes' })
    const design = await startDesignServer()
    const stuckId = await start(app, design.designRef(), 'deploy_nodes', ['n1'])
    await pollTask(app, stuckId, (t) => t.status === 'running')
    // another action completes meanwhile: the held task has had many phases' time and is still running
    await pollTask(app, await start(app, design.designRef(), 'verify_nodes', ['n2']))
    await pollTask(app, await start(app, design.designRef(), 'verify_site'))
    expect((await app.inject({ url: `/api/v1.0/tasks/${stuckId}` })).json()).toMatchObject({ status: 'running', result: { status: 'incomplete' } })
    expect((await app.inject({ url: '/_stub/task-faults' })).json()).toEqual({ fail_nodes: [], stuck_tasks: ['deploy_nodes'] })
    await putFaults(app, { stuck_tasks: [] })
    const done = await pollTask(app, stuckId)
    expect(done.result.status).toBe('success')
  })
})

describe('PUT /_stub/task-faults', () => {
  it('answers 400 for an unknown action or a bad action:node entry', async () => {
    const app = await buildTestApp()
    const stuck = await putFaults(app, { stuck_tasks: ['fly'] })
    expect(stuck.statusCode).toBe(400)
    const fail = await putFaults(app, { fail_nodes: ['verify_site:n1'] })
    expect(fail.statusCode).toBe(400)
    expect(fail.json()).toMatchObject({ status: 'Failure', message: 'Invalid task fault' })
    expect((await app.inject({ url: '/_stub/task-faults' })).json()).toEqual({ fail_nodes: [], stuck_tasks: [] })
  })
})

describe('fault modes on the task routes', () => {
  it('error mode answers the chosen 5xx on every Drydock route', async () => {
    const app = await buildTestApp({ SITE_FAULT: 'error', SITE_FAULT_STATUS: '503' })
    for (const request of [
      { url: '/api/v1.0/tasks' },
      { url: '/api/v1.0/tasks/6b3a5c0e-1f7a-4d6e-9c1b-2a3d4e5f6a7b' },
      { method: 'POST' as const, url: '/api/v1.0/tasks', headers: JSON_HEADERS, payload: '{}' },
      { method: 'POST' as const, url: '/api/v1.0/nodefilter', headers: JSON_HEADERS, payload: '{}' },
      { method: 'POST' as const, url: '/api/v1.0/validatedesign', headers: JSON_HEADERS, payload: '{}' }
    ]) {
      const res = await app.inject(request)
      expect(res.statusCode).toBe(503)
      expect(res.json()).toMatchObject({ type: 'error', message: 'Injected fault', retry: true })
    }
  })

  it('answers 401 on the task routes without an accepted token', async () => {
    const app = await buildTestApp({ SITE_AUTH_TOKENS: 'one' })
    const res = await app.inject({ url: '/api/v1.0/tasks' })
    expect(res.statusCode).toBe(401)
    expect(res.headers['www-authenticate']).toBe('Bearer realm="stub-site"')
    expect(res.json()).toMatchObject({ status: 'Failure', message: 'Unauthenticated', code: '401 Unauthorized' })
    expect((await app.inject({ url: '/api/v1.0/tasks', headers: { 'x-auth-token': 'one' } })).statusCode).toBe(200)
  })
})
