// No engine run without its action (issue 25): POST /actions saves the action before it triggers the run. The
// engine's answer to the trigger held past the client's timeout (a proxy forwards the trigger and keeps the answer),
// the answer lost and the look-up failing too, the trigger lost on its way, the trigger refused: in each case the
// action is there, the engine has at most one run for it, the same request sent again starts no second run, and
// the reconciler settles what is left pending. Runs the engine has without an action are reported.
import { describe, expect, it } from 'vitest'
import { AUTH, isErrorBody } from '@slipway/common/testing'
import { buildTestStack, GLOBAL_YAML, SITE_YAML, type TestStackOptions } from '../helpers/stack.ts'
import { isTrigger, startHoldingProxy, type Decision } from '../helpers/holding-proxy.ts'
import { reconcileLines } from '../../src/domain/actions/reconcile.ts'
import { createEngineClient } from '../../src/clients/engine.ts'

const TIMEOUT_MS = 1000
const MARKER = '5c0b7e6e-2f4e-4c53-9a77-3b1f0d2a9e41'
const CTX = { contextMarker: 'test', user: 'test' }

/** A stack whose engine sits behind a holding proxy; `rule.decide` says what becomes of each engine request. */
async function heldStack (options: TestStackOptions = {}) {
  const rule = { decide: (_method: string, _path: string): Decision => 'pass' }
  let proxy: Awaited<ReturnType<typeof startHoldingProxy>> | undefined
  const stack = await buildTestStack({
    timeoutMs: TIMEOUT_MS,
    // the engine alone: no peers, so the site steps skip their work and the runs are about starting them only
    engineEnv: { ENGINE_TASK_MS: '20', DECKHAND_URL: 'none', DRYDOCK_URL: 'none', ARMADA_URL: 'none', KUBE_API_URL: 'none', ...options.engineEnv },
    ...options,
    wrap: async (component, url) => {
      if (component !== 'engine') return url
      proxy = await startHoldingProxy(url, (method, path) => rule.decide(method, path))
      return proxy.url
    }
  })
  const inject = async (method: string, url: string, payload?: unknown, headers: Record<string, string> = {}) =>
    await stack.app.inject({
      method: method as 'GET',
      url: `/api/v1.0${url}`,
      headers: { ...AUTH, ...(payload === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      payload: payload === undefined ? undefined : JSON.stringify(payload)
    })
  return { ...stack, rule, exchanges: proxy!.exchanges, inject }
}
type HeldStack = Awaited<ReturnType<typeof heldStack>>

/** The engine's runs of `dagId`, read past the proxy. */
async function runsOf (s: HeldStack, dagId: string) {
  const direct = createEngineClient({ baseUrl: s.engine.url, username: 'admin', password: 'admin', timeoutMs: 10_000 })
  return await direct.runs({ dagIds: [dagId] }, {})
}

async function waitForLifecycle (s: HeldStack, id: string, lifecycle: string): Promise<Record<string, unknown>> {
  const deadline = Date.now() + 30_000
  for (;;) {
    const action = (await s.inject('GET', `/actions/${id}`)).json()
    if (action.action_lifecycle === lifecycle) return action
    if (Date.now() > deadline) throw new Error(`action ${id} stayed ${String(action.action_lifecycle)}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

/** The trigger goes through and is done by the engine, but its answer never comes back; then `after` decides. */
function loseTriggerAnswer (s: HeldStack, after: (method: string, path: string) => Decision = () => 'pass'): void {
  let triggered = false
  s.rule.decide = (method, path) => {
    if (!triggered && isTrigger(method, path)) { triggered = true; return 'hold' }
    return triggered ? after(method, path) : 'pass'
  }
}

describe('POST /actions when the engine\'s answer to the trigger is late or lost', () => {
  it('answers 201 once the run is found by id after the client\'s timeout: the action is saved with its run, one run', async () => {
    const s = await heldStack()
    loseTriggerAnswer(s)
    const res = await s.inject('POST', '/actions', { name: 'test_site' })
    expect(res.statusCode, res.body).toBe(201)
    const id = String(res.json().id)
    expect(res.json()).toMatchObject({ name: 'test_site', dag_status: 'SCHEDULED' })
    expect(res.json().dag_execution_date).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/)
    // the trigger was done by the engine and its answer held; the run was then read by id
    expect(s.exchanges.filter((e) => isTrigger(e.method, e.path)).map((e) => [e.decision, e.status])).toEqual([['hold', 200]])
    expect((await runsOf(s, 'test_site')).map((r) => r.dag_run_id)).toEqual([id])
    const action = await waitForLifecycle(s, id, 'Complete')
    expect(action).toMatchObject({ start_status: 'started', start_reason: null, command_audit: [{ command: 'invoke' }] })
    expect(action.notes).toEqual([expect.objectContaining({ note_val: 'Configdoc revision null' })])
    expect((await s.repos.actions.get(id))?.start_state).toBe('started')
  }, 60_000)

  it('answers 503 naming the saved action when the look-up fails too; the same request again is that action, never a second run', async () => {
    const s = await heldStack()
    // after the held trigger, every engine request is lost until the test lets them through
    let lost = true
    loseTriggerAnswer(s, () => lost ? 'drop' : 'pass')
    const headers = { 'x-context-marker': MARKER }
    const first = await s.inject('POST', '/actions', { name: 'test_site', parameters: { b: 1, a: 2 } }, headers)
    expect(first.statusCode, first.body).toBe(503)
    expect(isErrorBody(first.json())).toBe(true)
    expect(first.json()).toMatchObject({ message: 'Unable to complete request to Airflow', retry: true })
    const [saved] = await s.repos.actions.list()
    expect(saved).toMatchObject({ name: 'test_site', start_state: 'pending', context_marker: MARKER })
    const id = String(saved?.id)
    expect(first.json().reason).toContain(`Action ${id} is saved, but the engine has not confirmed its run`)
    expect(first.json().details.messageList).toEqual(expect.arrayContaining([expect.objectContaining({ action_id: id, start_status: 'trigger_pending', error: false })]))
    expect((await runsOf(s, 'test_site')).map((r) => r.dag_run_id)).toEqual([id])

    lost = false
    // the same request again (parameters in another order): the saved action, triggered again with its own run id
    const again = await s.inject('POST', '/actions', { name: 'test_site', parameters: { a: 2, b: 1 } }, headers)
    expect(again.statusCode, again.body).toBe(201)
    // said to be a replay, with the run's state as the engine has it now
    expect(again.json()).toMatchObject({ id, name: 'test_site', parameters: { a: 2, b: 1 }, context_marker: MARKER, replayed: true, start_status: 'started' })
    expect(['queued', 'running', 'success']).toContain(again.json().dag_status)
    // the engine refused the second trigger as a duplicate run id (409): "triggered already", the run is read instead
    expect(s.exchanges.filter((e) => isTrigger(e.method, e.path)).map((e) => [e.decision, e.status])).toEqual([['hold', 200], ['pass', 409]])
    expect((await runsOf(s, 'test_site')).map((r) => r.dag_run_id)).toEqual([id])
    expect((await s.repos.actions.list()).map((a) => a.id)).toEqual([id])
    expect((await s.repos.actions.get(id))?.start_state).toBe('started')
    // and once more, now that it has started: answered as it was, still one run
    const third = await s.inject('POST', '/actions', { name: 'test_site', parameters: { a: 2, b: 1 } }, headers)
    expect(third.statusCode).toBe(201)
    const { dag_status: _then, action_lifecycle: _was, ...same } = again.json()
    expect(third.json()).toMatchObject({ ...same, replayed: true })
    expect(await runsOf(s, 'test_site')).toHaveLength(1)
    // another request (other parameters) with the same marker is a new action
    const other = await s.inject('POST', '/actions', { name: 'test_site', parameters: { a: 3 } }, headers)
    expect(other.statusCode).toBe(201)
    expect(other.json().id).not.toBe(id)
    const action = await waitForLifecycle(s, id, 'Complete')
    expect(action.command_audit).toEqual([expect.objectContaining({ command: 'invoke' })])
  }, 60_000)

  it('leaves the start pending when the look-up fails; the reconciler then finds the run and the action proceeds', async () => {
    const s = await heldStack()
    let lost = true
    loseTriggerAnswer(s, () => lost ? 'drop' : 'pass')
    expect((await s.inject('POST', '/actions', { name: 'test_site' })).statusCode).toBe(503)
    const [saved] = await s.repos.actions.list()
    const id = String(saved?.id)
    lost = false
    // what the database says until reconciled: pending; what the engine says wins in the entity
    expect((await s.repos.actions.get(id))?.start_state).toBe('pending')
    expect((await s.inject('GET', `/actions/${id}`)).json()).toMatchObject({ id, start_status: 'started' })
    const report = await s.actions.reconcile(CTX)
    expect(report).toMatchObject({ started: [id], failed: [], pending: [], newOrphans: [], orphans: 0, errors: [] })
    expect((await s.repos.actions.get(id))?.start_state).toBe('started')
    expect(s.actions.reconcileStatus()).toEqual({ pending: 0, orphans: 0 })
    expect(reconcileLines(report)).toEqual([{ level: 'info', details: { actionId: id }, message: 'action start confirmed: the engine has its run' }])
    await waitForLifecycle(s, id, 'Complete')
  }, 60_000)
})

describe('POST /actions when the trigger does not reach the engine, or is refused', () => {
  it('keeps a lost trigger\'s action pending (GET says so), then failed to start once the grace is over and the engine has no run', async () => {
    const s = await heldStack({ actionStarts: { startGraceMs: 0 } })
    s.rule.decide = (method, path) => isTrigger(method, path) ? 'drop' : 'pass'
    const res = await s.inject('POST', '/actions', { name: 'test_site' })
    expect(res.statusCode, res.body).toBe(503)
    const [saved] = await s.repos.actions.list()
    const id = String(saved?.id)
    const pending = (await s.inject('GET', `/actions/${id}`)).json()
    expect(pending).toMatchObject({ id, action_lifecycle: 'Pending', dag_status: null, start_status: 'trigger_pending', steps: [] })
    expect(pending.start_reason).toMatch(/^The engine did not confirm the trigger: The engine did not answer POST .* within 1000 ms$/)
    expect(await runsOf(s, 'test_site')).toEqual([])
    const report = await s.actions.reconcile(CTX)
    expect(report).toMatchObject({ started: [], failed: [id], pending: [] })
    const failed = (await s.inject('GET', `/actions/${id}`)).json()
    expect(failed).toMatchObject({ id, action_lifecycle: 'Failed', dag_status: null, start_status: 'failed_to_start', steps: [] })
    expect(failed.start_reason).toBe('The engine has no run for this action 0 s after its trigger was sent: the trigger did not reach it')
    expect((await s.inject('GET', '/actions')).json()).toEqual([expect.objectContaining({ id, action_lifecycle: 'Failed', start_status: 'failed_to_start' })])
    expect(reconcileLines(report)).toEqual([{ level: 'warn', details: { actionId: id }, message: 'action failed to start: the engine has no run for it' }])
  }, 60_000)

  it('saves the action as failed to start at once when the engine refuses the trigger, and says so in the 503', async () => {
    const s = await heldStack({ engineEnv: { ENGINE_IMPORT_ERROR_DAGS: 'test_site' } })
    const res = await s.inject('POST', '/actions', { name: 'test_site' })
    expect(res.statusCode, res.body).toBe(503)
    const [saved] = await s.repos.actions.list()
    const id = String(saved?.id)
    expect(res.json()).toMatchObject({ message: 'Unable to complete request to Airflow', retry: false })
    expect(res.json().reason).toContain(`Action ${id} is saved as failed to start: the engine has no run for it.`)
    const action = (await s.inject('GET', `/actions/${id}`)).json()
    expect(action).toMatchObject({ action_lifecycle: 'Failed', start_status: 'failed_to_start', command_audit: [{ command: 'invoke' }] })
    expect(action.start_reason).toMatch(/^The engine refused the trigger: The engine answered POST \/api\/v2\/dags\/test_site\/dagRuns with 400/)
    expect(await runsOf(s, 'test_site')).toEqual([])
    // a failed start is not answered again: the same request is a new action
    expect((await s.repos.actions.listStartPending())).toEqual([])
  }, 60_000)

  it('holds back the next site action while a site action\'s start is unconfirmed', async () => {
    const s = await heldStack({ actionStarts: { startGraceMs: 600_000 } })
    const yaml = { 'content-type': 'application/x-yaml' }
    expect((await s.app.inject({ method: 'POST', url: '/api/v1.0/configdocs/global', headers: { ...AUTH, ...yaml }, payload: GLOBAL_YAML })).statusCode).toBe(201)
    expect((await s.app.inject({ method: 'POST', url: '/api/v1.0/configdocs/site?buffermode=append', headers: { ...AUTH, ...yaml }, payload: SITE_YAML })).statusCode).toBe(201)
    expect((await s.inject('POST', '/commitconfigdocs')).statusCode).toBe(200)
    s.rule.decide = (method, path) => isTrigger(method, path) ? 'drop' : 'pass'
    expect((await s.inject('POST', '/actions', { name: 'deploy_site' })).statusCode).toBe(503)
    const [pending] = await s.repos.actions.list()
    s.rule.decide = () => 'pass'
    const next = await s.inject('POST', '/actions', { name: 'update_site' })
    expect(next.statusCode, next.body).toBe(409)
    expect(next.json()).toMatchObject({ reason: 'Another site action is in progress', action_lifecycle: 'Failed' })
    expect(next.json().details.messageList[0].message).toContain(`Action ${String(pending?.id)} (deploy_site) is waiting for the engine to confirm its run`)
    expect(await runsOf(s, 'update_site')).toEqual([])
  }, 60_000)
})

describe('runs in the engine without an action', () => {
  it('are reported by the reconciler, each once, and counted while they last', async () => {
    const s = await heldStack()
    const created = await s.inject('POST', '/actions', { name: 'test_site' })
    expect(created.statusCode).toBe(201)
    const orphan = await s.engineClient.trigger('test_site', 'manual__by_hand', {})
    const first = await s.actions.reconcile(CTX)
    expect(first.newOrphans.map((o) => o.run.dag_run_id)).toEqual(['manual__by_hand'])
    expect(first.orphans).toBe(1)
    expect(s.actions.reconcileStatus()).toEqual({ pending: 0, orphans: 1 })
    const [line] = reconcileLines(first)
    expect(line).toMatchObject({ level: 'warn', details: { dagId: 'test_site', runId: 'manual__by_hand', logicalDate: orphan.logical_date } })
    expect(line?.message).toMatch(/^engine run without an action/)
    // seen again: still counted, not logged again
    const second = await s.actions.reconcile(CTX)
    expect(second).toMatchObject({ newOrphans: [], orphans: 1 })
    expect(reconcileLines(second)).toEqual([])
    // the action's own run is never one of them
    expect((await s.inject('GET', '/actions')).json().map((a: { id: string }) => a.id)).toEqual([created.json().id])
  }, 60_000)
})
