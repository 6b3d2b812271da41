import { describe, expect, it } from 'vitest'
import { fastConfiguration, REVISION, recordingIo, run, startSite, stepCall } from '../helpers/site.ts'

const namesFilter = (names: string[]) => ({ filter_set_type: 'union', filter_set: [{ filter_type: 'union', node_names: names }] })

describe.each(['verify_site', 'prepare_site'] as const)('%s', (kind) => {
  it('creates the Drydock task for the whole site and reads it until it completes', async () => {
    const site = await startSite()
    site.drydock.readsToComplete = 3
    const { error, io } = await run(kind, stepCall(), site.deps)
    expect(error).toBeUndefined()
    const [create] = site.drydock.callsTo('POST', '/tasks')
    expect(create!.body).toEqual({ action: kind, design_ref: `deckhand+${site.deckhand.url}/revisions/${REVISION}/rendered-documents` })
    expect(create!.headers['x-context-marker']).toBe('marker-1')
    expect(site.drydock.callsTo('GET', '/tasks/task-1')).toHaveLength(3)
    expect(io.text()).toContain(`info Drydock ${kind} task task-1 created`)
    expect(io.text()).toContain('info Drydock task task-1 is running')
    expect(io.text()).toContain(`info Drydock ${kind} task task-1 ended complete/success`)
  })

  it('fails naming the task when it never completes within the configured timeout', async () => {
    const site = await startSite()
    site.drydock.plan = () => ({ never: true })
    const timeoutKey = kind === 'verify_site' ? 'physical_provisioner.verify_timeout' : 'physical_provisioner.prepare_site_timeout'
    const call = stepCall({ xcom: { deployment_configuration: fastConfiguration({ [timeoutKey]: 0.3 }) } })
    const { error, io } = await run(kind, call, site.deps)
    expect(error?.message).toBe(`Drydock ${kind} task task-1 timed out after 0.3 s`)
    expect(io.lines).toContainEqual({ event: `Drydock ${kind} task task-1 did not complete within 0.3 s (still running)`, level: 'error' })
    expect(site.drydock.callsTo('GET', '/tasks/task-1').length).toBeGreaterThan(1)
  })

  it('fails when the task ends in failure, with its failed subtasks in the log', async () => {
    const site = await startSite()
    site.drydock.plan = () => ({ result: 'failure', subtasks: [{ action: 'verify_node', failures: ['n2'], message: 'IPMI unreachable' }] })
    const { error, io } = await run(kind, stepCall(), site.deps)
    expect(error?.message).toBe(`Drydock ${kind} task task-1 ended complete/failure`)
    expect(io.lines).toContainEqual({ event: 'Subtask task-1-sub0 (verify_node) ended complete/failure, failed nodes: n2', level: 'warning' })
    expect(io.lines).toContainEqual({ event: ' - node:n2: IPMI unreachable', level: 'error' })
  })
})

describe('a peer answering badly', () => {
  it('fails the step naming the peer and the status of a 500', async () => {
    const site = await startSite()
    site.drydock.broken.set('POST /tasks', { code: 500, text: 'Traceback: boom' })
    const { error } = await run('verify_site', stepCall(), site.deps)
    expect(error?.message).toBe('DownstreamError: Downstream failure: drydock (The drydock answered POST /tasks with 500)')
  })

  it('fails the step naming the peer of an unreadable answer', async () => {
    const site = await startSite()
    site.drydock.broken.set('GET /tasks/', { code: 200, text: '<html>not a task</html>' })
    const { error } = await run('prepare_site', stepCall(), site.deps)
    expect(error?.message).toBe('DownstreamError: Downstream failure: drydock (The drydock answered GET /tasks/task-1 with unreadable JSON)')
  })
})

describe('a stop', () => {
  it('ends a step waiting between polls at once', async () => {
    const site = await startSite()
    site.drydock.plan = () => ({ never: true })
    const io = recordingIo()
    const call = stepCall({
      xcom: { deployment_configuration: fastConfiguration({ 'physical_provisioner.verify_interval': 600, 'physical_provisioner.verify_timeout': 3600 }) }
    })
    const running = run('verify_site', call, site.deps, io)
    // the first read is logged: the step is now waiting its 600 s before the next
    await expect.poll(() => io.lines.some((l) => l.event === 'Drydock task task-1 is running')).toBe(true)
    io.stop()
    const { error } = await running
    expect(error?.message).toBe('The step was stopped')
    expect(site.drydock.callsTo('GET', '/tasks/task-1')).toHaveLength(1)
  })
})

describe('relabel_nodes', () => {
  it('runs Drydock\'s relabel_nodes task on the target nodes', async () => {
    const site = await startSite()
    const call = stepCall({ dagId: 'relabel_nodes', parameters: { target_nodes: 'n1, n2' } })
    const { error, io } = await run('relabel_nodes', call, site.deps)
    expect(error).toBeUndefined()
    expect(site.drydock.callsTo('POST', '/tasks')[0]!.body).toMatchObject({ action: 'relabel_nodes', node_filter: namesFilter(['n1', 'n2']) })
    expect(io.text()).toContain('Relabelled n1, n2')
  })

  it('fails naming the nodes not relabelled', async () => {
    const site = await startSite()
    site.drydock.plan = () => ({ result: 'partial_success', successes: ['n1'], failures: ['n2'] })
    const { error } = await run('relabel_nodes', stepCall({ dagId: 'relabel_nodes', parameters: { target_nodes: ['n1', 'n2'] } }), site.deps)
    expect(error?.message).toBe('Drydock relabel_nodes task task-1 ended partial_success; not relabelled: n2')
  })

  it('fails when the action names no target node', async () => {
    const site = await startSite()
    const { error } = await run('relabel_nodes', stepCall({ dagId: 'relabel_nodes' }), site.deps)
    expect(error?.message).toBe('relabel_nodes acts on the nodes named in parameters.target_nodes, which names none (got nothing)')
    expect(site.drydock.calls).toHaveLength(0)
  })
})

describe('verify_nodes_exist', () => {
  it('fails naming the nodes of the strategy Drydock does not know', async () => {
    const site = await startSite()
    site.drydock.nodes = ['n1']
    const { error } = await run('verify_nodes_exist', stepCall({ dagId: 'redeploy_server', parameters: { target_nodes: 'n1,n2' } }), site.deps)
    expect(error?.message).toBe('Nodes of the target nodes (n1, n2) that Drydock does not know: n2')
  })
})
