// Pause, unpause and stop on a running action on the real Airflow, with the 409 rules: the action is made reliably
// running by a step that hangs until Airflow stops its try (the stack's injection file), so no step of the test
// races the workflow. A stop fails the run, ends the hanging try and frees its slot.
import { expect, it } from 'vitest'
import type { Action } from '../helpers/api.ts'
import type { RealStack } from '../helpers/real-stack.ts'

const HANGING = 'armada_test_releases'

/** The action Processing with its hanging step running: nothing moves until the test acts. */
export const hanging = (a: Action): boolean =>
  a.action_lifecycle === 'Processing' && a.steps.find((s) => s.id === HANGING)?.state === 'running'

export function controlScenario (real: RealStack): void {
  it('pauses, unpauses and stops a running action, refusing each verb in a state it does not apply to (409)', async () => {
    const { api } = real
    await real.injecting({ hang: `test_site/${HANGING}` }, async () => {
      const id = await api.create('test_site')
      await api.actionUntil(id, `to run its hanging ${HANGING}`, hanging, 120_000)
      const control = async (verb: string) => await api.call('POST', `/actions/${id}/control/${verb}`)

      const notPaused = await control('unpause')
      expect(notPaused.status, notPaused.text).toBe(409)
      expect(notPaused.json()).toMatchObject({ message: 'Unable to unpause action', reason: 'The action is not paused' })

      const pause = await control('pause')
      expect(pause.status, pause.text).toBe(202)
      // the orchestrator reads its own write at once: the DAG is paused, its run still running
      expect(await api.action(id)).toMatchObject({ action_lifecycle: 'Paused', dag_status: 'running' })
      const again = await control('pause')
      expect(again.status, again.text).toBe(409)
      expect(again.json()).toMatchObject({ message: 'Unable to pause action', reason: 'The action is already paused' })
      // the engine says so too (read from Airflow itself, to check the orchestrator's write landed)
      expect(await real.airflowGet('/api/v2/dags/test_site')).toMatchObject({ dag_id: 'test_site', is_paused: true })

      const unpause = await control('unpause')
      expect(unpause.status, unpause.text).toBe(202)
      expect((await api.action(id)).action_lifecycle).toBe('Processing')
      expect(await real.airflowGet('/api/v2/dags/test_site')).toMatchObject({ is_paused: false })

      const stop = await control('stop')
      expect(stop.status, stop.text).toBe(202)
      const stopped = await api.actionUntil(id, `to fail with ${HANGING} ended`, (a) =>
        a.action_lifecycle === 'Failed' && a.steps.find((s) => s.id === HANGING)?.state === 'failed', 120_000)
      expect(stopped.dag_status).toBe('failed')
      expect(stopped.steps.map((s) => [s.id, s.state])).toEqual([
        ['action_xcom', 'success'], ['preflight.ucp_preflight_check', 'success'], ['deployment_configuration', 'success'], [HANGING, 'failed']
      ])
      expect(stopped.command_audit.map((a) => a.command)).toEqual(['invoke', 'pause', 'unpause', 'stop'])
      expect(await api.log(id, HANGING)).toContain('Injected hang')

      for (const verb of ['stop', 'pause', 'unpause']) {
        const refused = await control(verb)
        expect(refused.status, `${verb}: ${refused.text}`).toBe(409)
        expect(refused.json<{ message: string }>().message).toBe(`Unable to ${verb} action`)
      }
      expect((await control('stop')).json()).toMatchObject({ reason: 'dag_run state must be running or queued, but is failed' })
      const unknown = await control('resume')
      expect(unknown.status).toBe(404)
      expect(unknown.json()).toMatchObject({ message: 'Control not supported' })
    })
  })
}
