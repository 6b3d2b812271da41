// The real Airflow restarted under the orchestrator: with a new JWT secret (the orchestrator's cached token is
// refused, it fetches a new one and the call succeeds), and stopped altogether (a 5xx naming the engine once the
// watch is stale, a refused trigger, and recovery when Airflow is back).
import { randomBytes } from 'node:crypto'
import { expect, it } from 'vitest'
import { until } from '../helpers/api.ts'
import { recordFigure, seconds } from '../helpers/figures.ts'
import { WATCH, type RealStack } from '../helpers/real-stack.ts'

interface ErrorBody { message: string, reason: string, code: string }

export function outagesScenario (real: RealStack): void {
  it('recovers on the next call after the API server restarts with a new JWT secret', async () => {
    const { api } = real
    const id = await api.create('test_site')
    await api.finished(id, 180_000)
    const restarted = Date.now()
    await real.airflow.restart({ jwtSecret: randomBytes(32).toString('base64url') })
    recordFigure('Airflow restart', seconds(Date.now() - restarted))
    const back = Date.now()
    // a step's log is always read from the engine: the first call after the restart
    const log = await api.call('GET', `/actions/${id}/steps/action_xcom/logs`)
    expect(log.status, log.text).toBe(200)
    expect(log.text).toContain('action_xcom: nothing to do beyond this line')
    // the engine refused the old token once, a new one was fetched, the call was made again
    const calls = real.proxy.between(back)
    const refused = calls.findIndex((c) => c.status === 401 || c.status === 403)
    expect(refused, JSON.stringify(calls.slice(0, 6))).toBeGreaterThanOrEqual(0)
    recordFigure('old token after the new JWT secret', `answered ${calls[refused]!.status}`)
    expect(calls.slice(refused + 1).find((c) => c.path === '/auth/token')).toMatchObject({ method: 'POST', status: 201 })
    expect(calls.filter((c) => c.status >= 500)).toEqual([])
    const next = await api.create('test_site')
    expect((await api.finished(next, 180_000)).action_lifecycle).toBe('Complete')
  })

  it('answers a 5xx naming the engine while Airflow is down, and recovers when it returns', async () => {
    const { api, stack } = real
    const id = await api.create('test_site')
    await api.finished(id, 180_000)
    await stack.stopProcess('engine')
    try {
      // once the watch is stale the read goes to the engine, which is not there
      const down = await until('GET /actions/{id} to fail while Airflow is down', async () => {
        const answer = await api.call('GET', `/actions/${id}`)
        return answer.status >= 500 ? answer : undefined
      }, WATCH.staleMs + 30_000, 500)
      expect(down.status, down.text).toBe(503)
      expect(down.json<ErrorBody>()).toMatchObject({ message: 'Downstream failure: engine' })
      const trigger = await api.call('POST', '/actions', { json: { name: 'test_site' } })
      expect(trigger.status, trigger.text).toBe(503)
      expect(trigger.json<ErrorBody>()).toMatchObject({ message: 'Unable to complete request to Airflow' })
      const list = await api.call('GET', '/workflows')
      expect(list.status, list.text).toBe(503)
      expect(list.json<ErrorBody>().message).toBe('Downstream failure: engine')
    } finally {
      await stack.startProcess('engine')
    }
    const again = await until('GET /actions/{id} to answer once Airflow is back', async () => {
      const answer = await api.call('GET', `/actions/${id}`)
      return answer.status === 200 ? answer : undefined
    }, 60_000, 500)
    expect(again.json()).toMatchObject({ id, action_lifecycle: 'Complete' })
    const next = await api.create('test_site')
    expect((await api.finished(next, 180_000)).action_lifecycle).toBe('Complete')
  })
}
