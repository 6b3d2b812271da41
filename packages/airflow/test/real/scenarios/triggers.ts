// Triggers on the real Airflow: two POST /actions at once — of a site action, one runs and the other is refused by
// the in-progress rule (409, the action saved as Failed with its validation); of test_site, which may run beside
// others, both run, each its own engine run at its own logical date (Airflow keeps one run per DAG and date) —
// and a trigger while the scheduler is down: accepted and Pending, and run to Complete once the scheduler returns.
import { expect, it } from 'vitest'
import type { Action, Answer } from '../helpers/api.ts'
import type { RealStack } from '../helpers/real-stack.ts'

interface Refused {
  id: string
  action_lifecycle: string
  message: string
  validations: Array<{ validation_name: string, details: string }>
}

const notYetRun = (a: Action): boolean => a.steps.every((s) => s.state === null)

export function triggersScenario (real: RealStack): void {
  it('runs one of two site actions triggered at once and refuses the other (409, in progress)', async () => {
    const { api } = real
    const both = await Promise.all([0, 1].map(async () => await api.submit('update_software')))
    const statuses = both.map((a) => a.status).sort()
    expect(statuses, both.map((a) => a.text).join('\n')).toEqual([201, 409])
    const accepted = both.find((a) => a.status === 201)!.json<{ id: string }>()
    const refused = both.find((a) => a.status === 409)!.json<Refused>()
    expect(refused).toMatchObject({ action_lifecycle: 'Failed', message: 'Unable to start action', reason: 'Another site action is in progress' })
    expect(refused.validations).toEqual([expect.objectContaining({ validation_name: 'Another site action is in progress' })])
    expect(refused.validations[0]!.details).toContain(`update_software/${accepted.id}`)
    // the refused action is kept, never ran, and says why
    expect(await api.action(refused.id)).toMatchObject({ action_lifecycle: 'Failed', dag_status: null, steps: [] })
    const done = await api.finished(accepted.id, 300_000)
    expect(done.action_lifecycle, real.tail()).toBe('Complete')
  })

  it('runs both of two test_site actions triggered at once, each its own engine run', async () => {
    const { api } = real
    const both: Answer[] = await Promise.all([0, 1].map(async () => await api.submit('test_site')))
    expect(both.map((a) => a.status), both.map((a) => a.text).join('\n')).toEqual([201, 201])
    const [first, second] = both.map((a) => a.json<{ id: string }>())
    expect(first!.id).not.toBe(second!.id)
    for (const id of [first!.id, second!.id]) expect((await api.finished(id, 180_000)).action_lifecycle, id).toBe('Complete')
    const workflows = (await api.call('GET', '/workflows')).json<Array<{ run_id: string, workflow_id: string }>>()
    // each run at its own logical date (to the microsecond in the workflow id)
    const ids = workflows.filter((w) => w.run_id === first!.id || w.run_id === second!.id).map((w) => w.workflow_id)
    expect(ids).toHaveLength(2)
    expect(ids[0]).not.toBe(ids[1])
  })

  it('accepts a trigger while the scheduler is down, Pending, and runs it once the scheduler returns', async () => {
    const { api } = real
    const airflow = real.airflow
    await airflow.stopProcess('scheduler')
    try {
      const id = await api.create('test_site')
      const waiting = await api.action(id)
      expect(waiting.action_lifecycle).toBe('Pending')
      expect(waiting.dag_status).toBe('queued')
      expect(notYetRun(waiting)).toBe(true)
      await airflow.startProcess('scheduler')
      const done = await api.finished(id, 180_000)
      expect(done.action_lifecycle, real.tail()).toBe('Complete')
    } finally {
      await airflow.startProcess('scheduler')
    }
  })
}
