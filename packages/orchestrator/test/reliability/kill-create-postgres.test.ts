// One of two orchestrators on one PostgreSQL database killed (SIGKILL) in the middle of an action's creation: its
// trigger of the workflow run held by a proxy in front of the engine until it is dead, then landing in the engine
// (the run starts after all) or lost. The action is saved before its trigger is sent (the held trigger's run id is
// a saved action's). The rules held afterwards, seen through the other orchestrator and through the killed one
// restarted on the same database: no engine run without its action, no action left pending (the landed one
// started, the lost one failed to start, each settled by the reconciler), the dead one's site-action lock in force
// until its lease and no longer, and the next site action starts exactly one run.
import { describe, expect, it } from 'vitest'
import { GLOBAL_YAML, SITE_YAML } from '../helpers/stack.ts'
import { call, POSTGRES, twoOrchestrators, type TwoOrchestrators } from './two-on-postgres.ts'

const LEASE_S = 8
const YAML = 'application/x-yaml'
const JSON_TYPE = 'application/json'
const SETTLED = new Set(['Processing', 'Complete', 'Failed'])

/** Every action as `origin` lists it, once none is Pending any more (each has run, runs or failed). */
async function settledActions (origin: string): Promise<Array<{ id: string, name: string, action_lifecycle: string }>> {
  const deadline = Date.now() + 90_000
  for (;;) {
    const list = await call(origin, 'GET', '/actions')
    expect(list.status, list.text).toBe(200)
    const actions = list.body as Array<{ id: string, name: string, action_lifecycle: string }>
    if (actions.every((a) => SETTLED.has(a.action_lifecycle))) return actions
    if (Date.now() > deadline) throw new Error(`actions still pending 90 s after the kill: ${JSON.stringify(actions.filter((a) => !SETTLED.has(a.action_lifecycle)))}`)
    await new Promise((resolve) => setTimeout(resolve, 500))
  }
}

/** Waits until no run of `dagId` is queued or running in the engine. */
async function runsEnded (w: TwoOrchestrators, dagId: string): Promise<Array<{ dag_run_id: string, state: string }>> {
  const deadline = Date.now() + 60_000
  for (;;) {
    const runs = await w.runs(dagId)
    if (runs.every((r) => r.state !== 'queued' && r.state !== 'running')) return runs
    if (Date.now() > deadline) throw new Error(`runs of ${dagId} still in progress: ${JSON.stringify(runs)}`)
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
}

describe.skipIf(POSTGRES.skip)('two orchestrators on PostgreSQL, one killed mid-create', () => {
  it.each(['land', 'lose'] as const)('its trigger held, then %s: no run without its action, no action pending forever, the lock free at its lease', async (fate) => {
    // the reconciler settles an unconfirmed start every second; a run still absent two engine timeouts (2 × 2 s)
    // after its trigger was sent is a start that failed
    const w = await twoOrchestrators({ leaseS: LEASE_S, orchestratorEnv: { ACTION_RECONCILE_INTERVAL_MS: '1000', ENGINE_TIMEOUT_MS: '2000' } })
    expect((await call(w.a.origin, 'POST', '/configdocs/global', GLOBAL_YAML, YAML)).status).toBe(201)
    expect((await call(w.a.origin, 'POST', '/configdocs/site?buffermode=append', SITE_YAML, YAML)).status).toBe(201)
    expect((await call(w.a.origin, 'POST', '/commitconfigdocs')).status).toBe(200)

    // b's create stops at the engine's trigger, inside the site-action lock; b is killed there
    w.proxies.engine.set((r) => r.method === 'POST' && /\/dags\/deploy_site\/dagRuns$/.test(r.path) ? 'hold' : 'pass')
    const pending = call(w.b.origin, 'POST', '/actions', '{"name": "deploy_site"}', JSON_TYPE).catch((error: unknown) => error)
    const held = await w.proxies.engine.held()
    const triggeredId = String((JSON.parse(held.body) as { dag_run_id?: unknown }).dag_run_id)
    const [lock, ...others] = await w.heldLocks('site_action_start')
    expect(lock).toBeDefined()
    expect(others).toEqual([])
    // saved before its run is triggered: the run id sent is the action's
    expect((await w.actionRows()).map((a) => a.id)).toEqual([triggeredId])
    await w.b.kill()
    await held.callerGone
    expect(await pending).toBeInstanceOf(Error)
    w.proxies.engine.set(() => 'pass')
    if (fate === 'land') expect(await held.land()).toBeLessThan(300)
    else held.lose()

    // the engine's runs, once they ended, each belong to an action; no action is left pending
    const runs = await runsEnded(w, 'deploy_site')
    expect(runs.map((r) => r.dag_run_id)).toEqual(fate === 'land' ? [triggeredId] : [])
    const restarted = await w.startB()
    for (const origin of [w.a.origin, restarted.origin]) {
      const actions = await settledActions(origin)
      for (const run of runs) expect(actions.map((a) => a.id), `run ${run.dag_run_id} has an action`).toContain(run.dag_run_id)
      // an action the killed one saved without a run (lost trigger) has failed, or been started after all
      const rerun = await w.runs('deploy_site')
      for (const action of actions.filter((a) => a.action_lifecycle !== 'Failed')) {
        expect(rerun.map((r) => r.dag_run_id), `action ${action.id} has a run`).toContain(action.id)
      }
      const killed = await call(origin, 'GET', `/actions/${triggeredId}`)
      expect(killed.status, killed.text).toBe(200)
      expect(killed.body).toMatchObject(fate === 'land'
        ? { start_status: 'started', action_lifecycle: expect.stringMatching(/^(Processing|Complete)$/) }
        : { start_status: 'failed_to_start', action_lifecycle: 'Failed' })
    }

    // the next site action: it waits for the dead one's lock (its lease) at most, then starts exactly one run
    const expiresAt = Date.parse(String(lock?.expires_at))
    await runsEnded(w, 'deploy_site')
    const created = await call(w.a.origin, 'POST', '/actions?allow-intermediate-commits=true', '{"name": "update_software"}', JSON_TYPE)
    expect(created.status, created.text).toBe(201)
    console.log(`killed mid-create (trigger ${fate === 'land' ? 'landed' : 'lost'}): the next site action answered ` +
      `${((created.endedAt - expiresAt) / 1000).toFixed(1)} s after the dead one's lease ended (lease ${LEASE_S} s)`)
    expect(created.endedAt).toBeGreaterThanOrEqual(expiresAt)
    expect((await w.runs('update_software')).map((r) => r.dag_run_id)).toEqual([String(created.body.id)])
    const listed = (await call(restarted.origin, 'GET', '/actions')).body as Array<{ id: string }>
    expect(listed.map((a) => a.id)).toContain(String(created.body.id))
    expect(await w.locksInForce()).toEqual([])
    expect(await w.advisoryLocks()).toBe(0)
  }, 180_000)
})
