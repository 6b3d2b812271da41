import { describe, expect, it } from 'vitest'
import { Value } from 'typebox/value'
import { TaskSchema } from '../../src/schemas/drydock.ts'
import { JSON_HEADERS, pollTask, startDesignServer, startFakeBootstrap } from '../helpers/drydock.ts'
import { buildTestApp } from '../helpers/site.ts'

type App = Awaited<ReturnType<typeof buildTestApp>>

async function siteApp (env: Record<string, string> = {}) {
  const bootstrap = await startFakeBootstrap()
  const app = await buildTestApp({ SITE_TASK_MS: '5', BOOTSTRAP_URL: bootstrap.url, ...env })
  const design = await startDesignServer()
  return { app, design, bootstrap }
}

async function createTask (app: App, payload: unknown) {
  return await app.inject({ method: 'POST', url: '/api/v1.0/tasks', headers: JSON_HEADERS, payload: JSON.stringify(payload) })
}

async function nodeStates (app: App) {
  const nodes = (await app.inject({ url: '/api/v1.0/nodes' })).json() as Array<{ hostname: string, status_name: string, power_state: string }>
  return Object.fromEntries(nodes.map((n) => [n.hostname, `${n.status_name}/${n.power_state}`]))
}

const names = (...nodes: string[]) => ({ filter_set_type: 'union', filter_set: [{ filter_type: 'union', node_names: nodes }] })

describe('POST /api/v1.0/tasks', () => {
  it('answers 201 with the queued task, in Task.to_dict\'s shape, and its Location', async () => {
    const { app, design } = await siteApp()
    const res = await createTask(app, { action: 'verify_site', design_ref: design.designRef(), node_filter: null })
    expect(res.statusCode).toBe(201)
    const task = res.json()
    expect(Value.Check(TaskSchema, task)).toBe(true)
    expect(res.headers.location).toBe(`/api/v1.0/tasks/${task.task_id as string}`)
    expect(task).toMatchObject({
      kind: 'Task',
      apiVersion: 'v1',
      task_id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
      action: 'verify_site',
      design_ref: design.designRef(),
      node_filter: null,
      parent_task_id: null,
      status: 'queued',
      subtask_id_list: [],
      created: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{6}\+00:00$/),
      created_by: null,
      terminated: null,
      terminated_by: null,
      terminate: false,
      retry: 0,
      result: {
        kind: 'Status',
        apiVersion: 'v1.0',
        metadata: {},
        message: null,
        reason: null,
        status: 'incomplete',
        successes: [],
        failures: [],
        links: [],
        details: { errorCount: 0, messageList: [] }
      }
    })
  })

  it('answers 400 with Drydock\'s message for an unknown or missing action and a missing design_ref', async () => {
    const { app, design } = await siteApp()
    const cases: Array<[unknown, string]> = [
      [{ action: 'launch_rockets', design_ref: design.designRef() }, 'Unsupported action launch_rockets'],
      [{ design_ref: design.designRef() }, 'Unsupported action None'],
      [{ action: 'deploy_nodes' }, 'Task creation requires fields design_ref, action']
    ]
    for (const [payload, message] of cases) {
      const res = await createTask(app, payload)
      expect(res.statusCode).toBe(400)
      expect(res.json()).toMatchObject({ type: 'error', message, retry: false, status: 'Failure', code: '400 Bad Request' })
    }
    expect((await app.inject({ url: '/api/v1.0/tasks' })).json()).toEqual([])
  })
})

describe('GET /api/v1.0/tasks/{task_id}', () => {
  it('answers 404 with Drydock\'s message for an unknown id, a UUID or not', async () => {
    const { app } = await siteApp()
    for (const id of ['6b3a5c0e-1f7a-4d6e-9c1b-2a3d4e5f6a7b', 'nope']) {
      const res = await app.inject({ url: `/api/v1.0/tasks/${id}` })
      expect(res.statusCode).toBe(404)
      expect(res.json()).toMatchObject({ type: 'error', message: `Task ${id} does not exist`, retry: false, code: '404 Not Found' })
    }
  })

  it('runs verify_site requested → queued → running → complete with a success', async () => {
    const { app, design } = await siteApp()
    const created = (await createTask(app, { action: 'verify_site', design_ref: design.designRef() })).json()
    const task = await pollTask(app, created.task_id)
    expect(task.result).toMatchObject({ status: 'success', details: { errorCount: 0 } })
    expect(task.result.details.messageList[0]).toMatchObject({ message: 'Site design read: 4 node(s)', error: false, context_type: 'task' })
    expect(task.updated).not.toBeNull()
  })

  it('fails a task whose design cannot be read, with an error message', async () => {
    const { app, design } = await siteApp()
    const created = (await createTask(app, { action: 'prepare_site', design_ref: design.designRef(7) })).json()
    const task = await pollTask(app, created.task_id)
    expect(task.result.status).toBe('failure')
    expect(task.result.details.errorCount).toBe(1)
    expect(task.result.details.messageList[0]).toMatchObject({ error: true, context_type: 'NA', message: expect.stringContaining('Unable to run prepare_site') })
  })
})

describe('GET /api/v1.0/tasks/{task_id} query options', () => {
  it('layers=2 answers the task and its subtasks by id; builddata adds build_data; subtaskerrors the failed subtasks', async () => {
    const { app, design } = await siteApp({ SITE_FAIL_NODES: 'n2' })
    const parent = await pollTask(app, (await createTask(app, { action: 'deploy_nodes', design_ref: design.designRef(), node_filter: names('n1', 'n2') })).json().task_id)
    const [first, second] = parent.subtask_id_list as string[]

    const layered = (await app.inject({ url: `/api/v1.0/tasks/${parent.task_id as string}?layers=2&builddata=true` })).json()
    expect(Object.keys(layered).sort()).toEqual([parent.task_id, first, second, 'init_task_id'].sort())
    expect(layered.init_task_id).toBe(parent.task_id)
    expect(layered[parent.task_id]).toMatchObject({ task_id: parent.task_id, build_data: [] })
    expect(layered[first ?? '']).toMatchObject({ action: 'deploy_node', parent_task_id: parent.task_id, build_data: [] })

    // layers=1 is the task alone in the same keyed shape; -1 every layer
    expect(Object.keys((await app.inject({ url: `/api/v1.0/tasks/${parent.task_id as string}?layers=1` })).json())).toEqual(['init_task_id', parent.task_id])
    expect(Object.keys((await app.inject({ url: `/api/v1.0/tasks/${parent.task_id as string}?layers=-1` })).json())).toHaveLength(4)

    const errors = (await app.inject({ url: `/api/v1.0/tasks/${parent.task_id as string}?subtaskerrors=true` })).json()
    expect(errors.task_id).toBe(parent.task_id)
    expect(Object.keys(errors.subtask_errors)).toEqual([second])
    expect(errors.subtask_errors[second ?? '']).toMatchObject({ task_id: second, status: 'failure', failures: ['n2'], details: { errorCount: 1 } })
    // without options: the task alone, no build data, no subtask errors
    const plain = (await app.inject({ url: `/api/v1.0/tasks/${parent.task_id as string}?builddata=false` })).json()
    expect(plain).not.toHaveProperty('build_data')
    expect(plain).not.toHaveProperty('subtask_errors')
  })

  it('runs validate_design as a task: failure with the DD001 messages', async () => {
    const { app } = await siteApp()
    const design = await startDesignServer([{ schema: 'drydock/BaremetalNode/v1', metadata: { name: 'n1' }, data: { labels: { a: 'b' } } }])
    const task = await pollTask(app, (await createTask(app, { action: 'validate_design', design_ref: design.designRef() })).json().task_id)
    expect(task.result).toMatchObject({ status: 'failure', details: { errorCount: 1 } })
    expect(task.result.details.messageList[0]).toMatchObject({ error: true, context_type: 'document', context: 'n1', message: expect.stringContaining("'labels' was unexpected") })
  })
})

describe('node life cycle', () => {
  it('prepare_nodes, deploy_nodes, destroy_nodes and deploy again move the nodes through MAAS states', async () => {
    const { app, design } = await siteApp()
    const run = async (action: string, filter: unknown = null) =>
      await pollTask(app, (await createTask(app, { action, design_ref: design.designRef(), node_filter: filter })).json().task_id)

    const prepared = await run('prepare_nodes', names('n1', 'n2'))
    expect(prepared.result).toMatchObject({ status: 'success', successes: ['n1', 'n2'], failures: [] })
    expect(await nodeStates(app)).toEqual({ n1: 'Allocated/off', n2: 'Allocated/off' })

    const deployed = await run('deploy_nodes')
    expect(deployed.result).toMatchObject({ status: 'success', successes: ['n0', 'n1', 'n2', 'n3'] })
    expect(deployed.subtask_id_list).toHaveLength(4)
    expect(Object.values(await nodeStates(app))).toEqual(Array(4).fill('Deployed/on'))

    const destroyed = await run('destroy_nodes', names('n2'))
    expect(destroyed.result.successes).toEqual(['n2'])
    expect(await nodeStates(app)).toMatchObject({ n1: 'Deployed/on', n2: 'Ready/off' })

    await run('deploy_nodes', names('n2'))
    expect(await nodeStates(app)).toMatchObject({ n2: 'Deployed/on' })
  })

  it('gives each node its own subtask, GET-able, naming its parent and the node', async () => {
    const { app, design } = await siteApp()
    const parent = await pollTask(app, (await createTask(app, { action: 'deploy_nodes', design_ref: design.designRef(), node_filter: names('n3') })).json().task_id)
    const [subtaskId] = parent.subtask_id_list as string[]
    expect(parent.result.details.messageList[0]).toMatchObject({ message: `Started subtask ${subtaskId ?? ''} for action deploy_node`, context: parent.task_id })
    const sub = (await app.inject({ url: `/api/v1.0/tasks/${subtaskId ?? ''}` })).json()
    expect(sub).toMatchObject({
      action: 'deploy_node',
      parent_task_id: parent.task_id,
      status: 'complete',
      node_filter: names('n3'),
      result: { status: 'success', successes: ['n3'], failures: [] }
    })
    expect(sub.result.details.messageList[0]).toMatchObject({ context_type: 'node', context: 'n3', message: 'Node n3 now Deployed, power on' })
    const all = (await app.inject({ url: '/api/v1.0/tasks' })).json() as Array<{ task_id: string }>
    expect(all.map((t) => t.task_id)).toEqual([parent.task_id, subtaskId])
  })

  it('verify_nodes reports each node without moving it', async () => {
    const { app, design } = await siteApp()
    const task = await pollTask(app, (await createTask(app, { action: 'verify_nodes', design_ref: design.designRef(), node_filter: names('n0') })).json().task_id)
    expect(task.result).toMatchObject({ status: 'success', successes: ['n0'] })
    expect(await nodeStates(app)).toEqual({ n0: 'Ready/off' })
  })

  it('relabel_nodes sends each node\'s owner_data to the bootstrap service', async () => {
    const { app, design, bootstrap } = await siteApp()
    const task = await pollTask(app, (await createTask(app, { action: 'relabel_nodes', design_ref: design.designRef(), node_filter: names('n1', 'n3') })).json().task_id)
    expect(task.result).toMatchObject({ status: 'success', successes: ['n1', 'n3'] })
    expect(bootstrap.state.puts.sort((a, b) => a.node.localeCompare(b.node))).toEqual([
      { node: 'n1', labels: { 'node-role': 'worker' } },
      { node: 'n3', labels: { 'node-role': 'worker', zone: 'b' } }
    ])
  })

  it('relabel_nodes fails the nodes the bootstrap service refuses, with partial_success', async () => {
    const { app, design, bootstrap } = await siteApp()
    bootstrap.state.failing.add('n2')
    const task = await pollTask(app, (await createTask(app, { action: 'relabel_nodes', design_ref: design.designRef(), node_filter: names('n1', 'n2') })).json().task_id)
    expect(task.result).toMatchObject({ status: 'partial_success', successes: ['n1'], failures: ['n2'] })
  })

  it('fails a task whose node filter Drydock cannot apply', async () => {
    const { app, design } = await siteApp()
    const task = await pollTask(app, (await createTask(app, { action: 'deploy_nodes', design_ref: design.designRef(), node_filter: 'n1' })).json().task_id)
    expect(task.result.status).toBe('failure')
    expect(task.result.details.messageList[0].message).toContain("Invalid node_filter, must be a dictionary with keys 'filter_set_type' and 'filter_set'.")
  })
})
