// Reading one action over the fakes: the entity with its validations and audit, a validation, a step and a step's
// log, each read's own 404 wording, and the same answer handed out again while nothing it is made from changed.
import { describe, expect, it } from 'vitest'
import { NotFoundError } from '@slipway/common'
import type { EngineTask } from '../../../src/clients/engine.ts'
import { actionUseCases, freshCtx } from '../../helpers/action-use-cases.ts'
import { fakeEngine } from '../../helpers/fakes.ts'

const MISSING = '01ARZ3NDEKTSV4RRFFQ69G5FAV'

/** The use cases over an engine whose runs have `armada_test_releases` on its second try; the first try's log is gone. */
function withSteps () {
  const engine = fakeEngine()
  engine.client.tasks = async (dagId, runId) => [{
    dag_id: dagId, dag_run_id: runId, task_id: 'armada_test_releases', map_index: -1, state: 'running', try_number: 2, max_tries: 3
  } as unknown as EngineTask]
  engine.client.log = async (dagId, runId, taskId, tryNumber) => {
    if (tryNumber === 1) throw new NotFoundError('Not found in the workflow engine', 'no log')
    return `${dagId}/${taskId} try ${tryNumber}`
  }
  return actionUseCases({ engine })
}

describe('queries', () => {
  it('answers a refused action Failed and refused, with its validation and audit; its validation by id', async () => {
    const u = actionUseCases()
    const refused = await u.create({ name: 'deploy_site', parameters: {} }, false, freshCtx())
    const action = await u.queries.get(refused.body.id, 1, freshCtx())
    expect(action).toMatchObject({ action_lifecycle: 'Failed', start_status: 'refused', start_reason: null, dag_status: null, steps: [] })
    expect(action.command_audit.map((a) => a.command)).toEqual(['invoke'])
    expect(action.notes.map((n) => n.note_val)).toEqual(['Configdoc revision null'])
    expect((await u.queries.get(refused.body.id, 0, freshCtx())).notes).toEqual([])
    const [validation] = action.validations
    expect(await u.queries.validation(refused.body.id, String(validation?.id))).toEqual(validation)
    await expect(u.queries.validation(refused.body.id, MISSING)).rejects.toMatchObject({ statusCode: 404, message: 'Validation not found' })
    await expect(u.queries.validation(MISSING, MISSING)).rejects.toMatchObject({ statusCode: 404, message: 'Action not found' })
    await expect(u.queries.get(MISSING, 1, freshCtx())).rejects.toMatchObject({ statusCode: 404, message: 'Action not found' })
  })

  it('hands out the same answer while the action and its run are unchanged, and a new one once the run changes', async () => {
    const u = actionUseCases()
    const id = (await u.create({ name: 'test_site', parameters: {} }, false, freshCtx())).body.id
    const first = await u.queries.get(id, 1, freshCtx())
    expect(first).toMatchObject({ dag_status: 'queued', action_lifecycle: 'Pending', start_status: 'started' })
    expect(await u.queries.get(id, 1, freshCtx())).toBe(first)
    await u.engine.client.setRunState('test_site', id, 'success', {})
    expect(await u.queries.get(id, 1, freshCtx())).toMatchObject({ dag_status: 'success', action_lifecycle: 'Complete' })
  })

  it('answers a step by its id or bare name, and 404 Step not found otherwise', async () => {
    const u = withSteps()
    const id = (await u.create({ name: 'test_site', parameters: {} }, false, freshCtx())).body.id
    expect(await u.queries.step(id, 'armada_test_releases', 1, freshCtx())).toMatchObject({
      task_id: 'armada_test_releases', index: 4, state: 'running', try_number: 2, run_id: id, notes: []
    })
    await expect(u.queries.step(id, 'nope', 1, freshCtx())).rejects.toMatchObject({ statusCode: 404, message: 'Step not found' })
  })

  it('answers a step\'s log of a try made, its 404s worded as Shipyard words them', async () => {
    const u = withSteps()
    const id = (await u.create({ name: 'test_site', parameters: {} }, false, freshCtx())).body.id
    expect(await u.queries.log(id, 'armada_test_releases', undefined, freshCtx())).toBe('test_site/armada_test_releases try 2')
    await expect(u.queries.log(id, 'armada_test_releases', 1, freshCtx())).rejects.toMatchObject({
      statusCode: 404, message: 'Log retrieval error'
    })
    await expect(u.queries.log(id, 'armada_test_releases', 3, freshCtx())).rejects.toMatchObject({
      message: 'Step Not Found!', reason: 'Step armada_test_releases has no try 3 (tries: 2)'
    })
    await expect(u.queries.log(id, 'nope', undefined, freshCtx())).rejects.toMatchObject({ message: 'Step Not Found!' })
    await expect(u.queries.log(MISSING, 'nope', undefined, freshCtx())).rejects.toMatchObject({ message: 'Action Not Found!' })
    const refused = (await u.create({ name: 'deploy_site', parameters: {} }, false, freshCtx())).body.id
    await expect(u.queries.log(refused, 'action_xcom', undefined, freshCtx())).rejects.toMatchObject({ message: 'Steps Not Found!' })
  })
})
