// The console's controls held to the orchestrator's own rule: for each run state and pause flag, the controls the
// console offers for the action as GET /actions/{id} answers it are exactly those the control use case accepts.
import { describe, expect, it } from 'vitest'
import { controlsFor } from '../../console/action-state.js'
import { actionUseCases, freshCtx } from '../helpers/action-use-cases.ts'

/** A test_site action whose run is `state`, its workflow paused or not, over fresh fakes. */
async function actionIn (state, paused) {
  const u = actionUseCases()
  const id = (await u.create({ name: 'test_site', parameters: {} }, false, freshCtx())).body.id
  const at = u.engine.triggered.findIndex((r) => r.dag_run_id === id)
  u.engine.triggered[at] = { ...u.engine.triggered[at], state }
  await u.engine.client.setPaused('test_site', paused, {})
  return { u, id }
}

describe('the controls the console offers', () => {
  for (const state of ['queued', 'running', 'success', 'failed']) {
    for (const paused of [false, true]) {
      it(`are those the orchestrator accepts for a ${state} run of a${paused ? ' paused' : 'n unpaused'} workflow`, async () => {
        const { u, id } = await actionIn(state, paused)
        const offered = controlsFor(await u.queries.get(id, 1, freshCtx()))
        const accepted = {}
        for (const verb of ['pause', 'unpause', 'stop']) {
          const own = await actionIn(state, paused)
          accepted[verb] = await own.u.control(own.id, verb, freshCtx()).then(() => true, (error) => {
            expect(error.statusCode).toBe(409)
            return false
          })
        }
        expect(offered).toEqual(accepted)
      })
    }
  }
})
