// An action whose run the engine does not have (the engine switched, stand-in and Airflow, on the same orchestrator
// database, or its data replaced): what the orchestrator kept of the run when it ended is shown, and without that,
// why there is no run — never a silent "Pending, 0 of 0 steps". Over the fakes, the run taken out of the fake engine.
import { describe, expect, it } from 'vitest'
import type { EngineRun } from '../../../src/clients/engine.ts'
import { encodeSummary } from '../../../src/domain/engine/run-summaries.ts'
import { STEP_ORDER } from '../../../src/domain/catalog.ts'
import { actionUseCases, freshCtx, type ActionUseCases } from '../../helpers/action-use-cases.ts'

/** A started test_site action, its run then gone from the engine; answers its id and the run as it was. */
async function startedThenGone (u: ActionUseCases): Promise<{ id: string, run: EngineRun }> {
  const id = (await u.create({ name: 'test_site', parameters: {} }, false, freshCtx())).body.id
  const at = u.engine.triggered.findIndex((r) => r.dag_run_id === id)
  const run = u.engine.triggered[at]!
  u.engine.triggered.splice(at, 1)
  return { id, run }
}

describe('an action whose run the engine does not have', () => {
  it('says why there is no run when nothing of it was kept, one action and the list alike', async () => {
    const u = actionUseCases()
    const { id } = await startedThenGone(u)
    const reason = `The engine has no run ${id} of test_site: its runs are not in this engine's database (the engine was ` +
      'switched or its data replaced, or the run was deleted), and the orchestrator kept no summary of it'
    expect(await u.queries.get(id, 1, freshCtx())).toMatchObject({
      dag_status: null, action_lifecycle: 'Pending', start_status: 'started', start_reason: reason, steps: []
    })
    expect((await u.list.list(1, freshCtx())).find((a) => a.id === id)).toMatchObject({ start_status: 'started', start_reason: reason })
  })

  it('shows the run and its steps as they were when it ended, from the summary the orchestrator kept', async () => {
    const u = actionUseCases()
    const { id, run } = await startedThenGone(u)
    const order = STEP_ORDER.test_site!
    const states = order.map((_, i) => i === order.length - 1 ? 'failed' : 'success')
    const steps = order.map((taskId, i) => ({ dag_id: 'test_site', dag_run_id: id, task_id: taskId, map_index: -1, state: states[i]! }))
    await u.repos.runSummaries!.put([encodeSummary({ ...run, state: 'success' }, steps)])
    const one = await u.queries.get(id, 1, freshCtx())
    // a success with a failed step is Failed, as when the engine had the run
    expect(one).toMatchObject({ dag_status: 'success', action_lifecycle: 'Failed', start_status: 'started' })
    expect(one.start_reason).toMatch(new RegExp(`^The engine has no run ${id} of test_site any more .*: its state and steps are as the orchestrator kept them when the run ended$`))
    expect(one.steps.map((s) => [s.id, s.state])).toEqual(order.map((taskId, i) => [taskId, states[i]]))
    const listed = (await u.list.list(1, freshCtx())).find((a) => a.id === id)
    expect(listed).toMatchObject({ dag_status: 'success', action_lifecycle: 'Failed' })
    expect(listed?.steps.map((s) => s.state)).toEqual(states)
  })

  it('leaves an action whose run the engine has as it was: no reason, the engine\'s state', async () => {
    const u = actionUseCases()
    const id = (await u.create({ name: 'test_site', parameters: {} }, false, freshCtx())).body.id
    expect(await u.queries.get(id, 1, freshCtx())).toMatchObject({ dag_status: 'queued', action_lifecycle: 'Pending', start_reason: null })
  })
})
