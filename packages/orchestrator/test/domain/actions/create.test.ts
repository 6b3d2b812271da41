// Creating an action over the fakes: refusals before anything is written, a refused action saved with its failure,
// a new action saved then triggered with its id as run id, the same request sent again answered with the action it
// made (a replay), and one site action in progress at a time.
import { describe, expect, it } from 'vitest'
import { DownstreamError } from '@slipway/common'
import { actionUseCases, callerCtx, freshCtx } from '../../helpers/action-use-cases.ts'
import { fakeEngine } from '../../helpers/fakes.ts'

describe('create', () => {
  it('saves a new action, triggers its run with the action id as run id, and answers the 201 body: SCHEDULED, no replay', async () => {
    const u = actionUseCases()
    const result = await u.create({ name: 'test_site', parameters: { release: 'ingress' } }, false, freshCtx())
    expect(result.created).toBe(true)
    expect(result.body).toMatchObject({ name: 'test_site', dag_id: 'test_site', dag_status: 'SCHEDULED', parameters: { release: 'ingress' } })
    expect(result.body).not.toHaveProperty('replayed')
    expect(u.engine.triggered.map((r) => r.dag_run_id)).toEqual([result.body.id])
    expect(await u.repos.actions.get(result.body.id)).toMatchObject({ start_state: 'started', validation_failed: false })
  })

  it.each([
    [{ name: 'launch_rockets', parameters: {} }, 'Unable to start action'],
    [{ name: 'constructor', parameters: {} }, 'Unable to start action'],
    [{ name: 'redeploy_server', parameters: {} }, 'Invalid target_nodes parameter'],
    [{ name: 'relabel_nodes', parameters: { target_nodes: ['n1,n3'] } }, 'Invalid target_nodes parameter']
  ])('refuses %j with 400 before anything is saved or triggered', async (input, message) => {
    const u = actionUseCases()
    await expect(u.create(input, false, freshCtx())).rejects.toMatchObject({ statusCode: 400, message })
    expect(await u.repos.actions.list()).toEqual([])
    expect(u.engine.triggered).toEqual([])
  })

  it('saves an action a pre-run check refuses, with its failure, and answers it Failed; its run never starts', async () => {
    const u = actionUseCases()
    const result = await u.create({ name: 'deploy_site', parameters: {} }, false, freshCtx())
    expect(result.created).toBe(false)
    expect(result.body).toMatchObject({ dag_status: null, action_lifecycle: 'Failed', reason: 'No committed configdocs' })
    expect(u.engine.triggered).toEqual([])
    expect(await u.repos.actions.get(result.body.id)).toMatchObject({ start_state: 'refused', validation_failed: true, tags_done: true })
    expect(await u.repos.validationFailures.listFor(result.body.id)).toMatchObject([{ validation_name: 'No committed configdocs' }])
  })

  it('refuses a site action while another one\'s run is queued, naming that action', async () => {
    const u = actionUseCases()
    await u.commitSite()
    const first = await u.create({ name: 'deploy_site', parameters: {} }, false, freshCtx())
    expect(first.created).toBe(true)
    const second = await u.create({ name: 'update_site', parameters: {} }, false, freshCtx())
    expect(second.created).toBe(false)
    expect(second.body).toMatchObject({ reason: 'Another site action is in progress' })
    const validations = 'validations' in second.body ? second.body.validations : []
    expect(validations[0]?.details).toContain(`stop its action (POST /api/v1.0/actions/${first.body.id}/control/stop)`)
    // test_site is no site action: it runs beside it
    expect((await u.create({ name: 'test_site', parameters: {} }, false, freshCtx())).created).toBe(true)
  })
})

describe('create sent again with the same X-Context-Marker', () => {
  it('answers the same caller\'s same request with the action it made, whatever the order of its parameters\' keys', async () => {
    const u = actionUseCases()
    const first = await u.create({ name: 'test_site', parameters: { b: 1, a: { y: 2, x: 1 } } }, false, callerCtx())
    const again = await u.create({ name: 'test_site', parameters: { a: { x: 1, y: 2 }, b: 1 } }, false, callerCtx())
    expect(again.body).toEqual({ ...first.body, dag_status: 'queued', replayed: true, action_lifecycle: 'Pending', start_status: 'started' })
    expect(u.engine.triggered).toHaveLength(1)
    // other parameters, another flag or another caller (another project) is another request
    const others = [
      await u.create({ name: 'test_site', parameters: { b: 2 } }, false, callerCtx()),
      await u.create({ name: 'test_site', parameters: { b: 1, a: { y: 2, x: 1 } } }, true, callerCtx()),
      await u.create({ name: 'test_site', parameters: { b: 1, a: { y: 2, x: 1 } } }, false, callerCtx({ projectId: 'p-other' }))
    ]
    expect(others.map((o) => 'replayed' in o.body)).toEqual([false, false, false])
    expect(u.engine.triggered).toHaveLength(4)
  })

  it('runs a caller\'s requests of one marker one at a time: sent twice at once, one action and one run', async () => {
    const u = actionUseCases()
    const [a, b] = await Promise.all([0, 1].map(async () => await u.create({ name: 'test_site', parameters: {} }, false, callerCtx())))
    expect(a?.body.id).toBe(b?.body.id)
    expect(u.engine.triggered).toHaveLength(1)
  })

  it('triggers a start left pending again, with the same run id, and answers it started', async () => {
    const engine = fakeEngine()
    const trigger = engine.client.trigger
    let lose = true
    engine.client.trigger = async (...args) => {
      if (lose) throw new DownstreamError('engine', 'socket hang up', { failure: 'unreachable' })
      return await trigger(...args)
    }
    const u = actionUseCases({ engine })
    await expect(u.create({ name: 'test_site', parameters: {} }, false, callerCtx())).rejects.toMatchObject({ statusCode: 503, retry: true })
    const [saved] = await u.repos.actions.list()
    expect(saved).toMatchObject({ start_state: 'pending' })
    lose = false
    const again = await u.create({ name: 'test_site', parameters: {} }, false, callerCtx())
    expect(again.body).toMatchObject({ id: saved?.id, replayed: true, start_status: 'started', action_lifecycle: 'Pending' })
    expect(u.engine.triggered.map((r) => r.dag_run_id)).toEqual([saved?.id])
  })

  it('makes a new action for a request whose marker this service gave (the caller sent none)', async () => {
    const u = actionUseCases()
    const ctx = freshCtx()
    const first = await u.create({ name: 'test_site', parameters: {} }, false, ctx)
    const second = await u.create({ name: 'test_site', parameters: {} }, false, ctx)
    expect(second.body.id).not.toBe(first.body.id)
    expect(second.body).not.toHaveProperty('replayed')
  })
})
