// Controlling an action over the fakes: when pause, unpause and stop are allowed (the run's state and its DAG's pause
// flag), what each does in the engine, the audit of each accepted control, and the 404s and 409s of the others.
import { describe, expect, it } from 'vitest'
import { actionUseCases, freshCtx, type ActionUseCases } from '../../helpers/action-use-cases.ts'

/** A started test_site action whose run is `state` (the fake engine's runs stay queued until told). */
async function started (u: ActionUseCases, state = 'running'): Promise<string> {
  const id = (await u.create({ name: 'test_site', parameters: {} }, false, freshCtx())).body.id
  const at = u.engine.triggered.findIndex((r) => r.dag_run_id === id)
  u.engine.triggered[at] = { ...u.engine.triggered[at]!, state }
  return id
}

const isPaused = async (u: ActionUseCases): Promise<boolean> => (await u.engine.client.dag('test_site', {})).is_paused
const commands = async (u: ActionUseCases, id: string): Promise<string[]> => (await u.repos.audit.listFor(id)).map((a) => a.command)
const runState = (u: ActionUseCases, id: string): string | undefined => u.engine.triggered.find((r) => r.dag_run_id === id)?.state

describe('control', () => {
  it('pauses a running action\'s DAG and unpauses it; each once, each audited', async () => {
    const u = actionUseCases()
    const id = await started(u)
    await expect(u.control(id, 'unpause', freshCtx())).rejects.toMatchObject({
      statusCode: 409, message: 'Unable to unpause action', reason: 'The action is not paused'
    })
    await u.control(id, 'pause', freshCtx())
    expect(await isPaused(u)).toBe(true)
    await expect(u.control(id, 'pause', freshCtx())).rejects.toMatchObject({
      statusCode: 409, message: 'Unable to pause action', reason: 'The action is already paused'
    })
    await u.control(id, 'unpause', freshCtx())
    expect(await isPaused(u)).toBe(false)
    expect(await commands(u, id)).toEqual(['invoke', 'pause', 'unpause'])
  })

  it('pauses only a running run: a queued one is refused, naming its state', async () => {
    const u = actionUseCases()
    const id = await started(u, 'queued')
    await expect(u.control(id, 'pause', freshCtx())).rejects.toMatchObject({
      statusCode: 409, reason: 'dag_run state must be running, but is queued'
    })
    expect(await isPaused(u)).toBe(false)
  })

  it('stops a queued or running run (failed), unpausing its DAG; an ended run can be neither stopped nor unpaused', async () => {
    const u = actionUseCases()
    const id = await started(u)
    await u.control(id, 'pause', freshCtx())
    await u.control(id, 'stop', freshCtx())
    expect(runState(u, id)).toBe('failed')
    expect(await isPaused(u)).toBe(false)
    await expect(u.control(id, 'stop', freshCtx())).rejects.toMatchObject({
      statusCode: 409, message: 'Unable to stop action', reason: 'dag_run state must be running or queued, but is failed'
    })
    await u.engine.client.setPaused('test_site', true, {})
    await expect(u.control(id, 'unpause', freshCtx())).rejects.toMatchObject({
      reason: 'dag_run state must be queued or running, but is failed'
    })
    const queued = await started(u, 'queued')
    await u.control(queued, 'stop', freshCtx())
    expect(runState(u, queued)).toBe('failed')
    expect(await commands(u, id)).toEqual(['invoke', 'pause', 'stop'])
  })

  it('answers 404 for an unknown action before an unknown verb, and 409 for an action that never ran', async () => {
    const u = actionUseCases()
    await expect(u.control('01ARZ3NDEKTSV4RRFFQ69G5FAV', 'reboot', freshCtx())).rejects.toMatchObject({ statusCode: 404, message: 'Action not found' })
    const id = await started(u)
    await expect(u.control(id, 'reboot', freshCtx())).rejects.toMatchObject({ statusCode: 404, message: 'Control not supported' })
    const refused = (await u.create({ name: 'deploy_site', parameters: {} }, false, freshCtx())).body.id
    for (const verb of ['pause', 'unpause', 'stop']) {
      await expect(u.control(refused, verb, freshCtx())).rejects.toMatchObject({
        statusCode: 409, message: `Unable to ${verb} action`, reason: 'dag_run does not exist'
      })
    }
    expect(await commands(u, refused)).toEqual(['invoke'])
  })
})
