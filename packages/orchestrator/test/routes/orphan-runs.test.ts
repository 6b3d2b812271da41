// Runs of the action workflows that belong to no action, matched on workflow and run id: a run named after an action
// of another workflow, or after an action a pre-run validation refused (it never ran), is no action's, as is one
// started by hand. Each is reported by the reconciler, listed by GET /workflows?orphans=true (an extension) with why,
// named with the way to clear it when it blocks a site action, and stopped by POST /workflows/{id}/control/stop.
import { describe, expect, it } from 'vitest'
import { AUTH } from '@slipway/common/testing'
import { buildTestApp, type TestApp } from '../helpers/test-app.ts'
import { GLOBAL_YAML, SITE_YAML } from '../helpers/example-site.ts'
import { reconcileLines } from '../../src/domain/actions/reconcile.ts'
import { workflowOf } from '../../src/domain/steps.ts'
import type { EngineRun } from '../../src/clients/engine.ts'

const CTX = { contextMarker: 'test', user: 'test' }
const NO_ACTION = 'No action has its run id: it was started in the engine by hand, by another orchestrator on another database, or ' +
  'before actions were saved first'

async function call (t: TestApp, method: 'GET' | 'POST', url: string, body?: unknown) {
  return await t.app.inject({
    method,
    url: `/api/v1.0${url}`,
    headers: body === undefined ? AUTH : { ...AUTH, 'content-type': 'application/json' },
    payload: body === undefined ? undefined : JSON.stringify(body)
  })
}

async function commitSite (t: TestApp): Promise<void> {
  const yaml = { ...AUTH, 'content-type': 'application/x-yaml' }
  for (const [name, text, mode] of [['global', GLOBAL_YAML, ''], ['site', SITE_YAML, '?buffermode=append']]) {
    const res = await t.app.inject({ method: 'POST', url: `/api/v1.0/configdocs/${name}${mode}`, headers: yaml, payload: text })
    expect(res.statusCode, res.body).toBe(201)
  }
  expect((await call(t, 'POST', '/commitconfigdocs')).statusCode).toBe(200)
}

const runIn = (t: TestApp, dagId: string, runId: string): EngineRun | undefined =>
  t.engine.triggered.find((r) => r.dag_id === dagId && r.dag_run_id === runId)

describe('runs of the action workflows that belong to no action', () => {
  it('are matched on workflow and run id: one named after another workflow\'s action or a refused action is reported and listed', async () => {
    const t = await buildTestApp()
    const own = await call(t, 'POST', '/actions', { name: 'test_site' })
    expect(own.statusCode).toBe(201)
    const ownId = String(own.json().id)
    // nothing is committed: deploy_site is refused and never runs
    const refused = await call(t, 'POST', '/actions', { name: 'deploy_site' })
    expect(refused.statusCode).toBe(409)
    const refusedId = String(refused.json().id)
    // runs the orchestrator did not start, named after those actions, and one by hand
    await t.engine.client.trigger('deploy_site', ownId, {})
    await t.engine.client.trigger('deploy_site', refusedId, {})
    await t.engine.client.trigger('test_site', 'manual__by_hand', {})

    const report = await t.deps.actions.reconcile(CTX)
    const reasons = {
      [`deploy_site/${ownId}`]: `Its run id is action ${ownId}'s, whose workflow is test_site, not deploy_site`,
      [`deploy_site/${refusedId}`]: `Its run id is action ${refusedId}'s, which a pre-run validation refused: that action never ran`,
      'test_site/manual__by_hand': NO_ACTION
    }
    expect(Object.fromEntries(report.newOrphans.map(({ run, reason }) => [`${run.dag_id}/${run.dag_run_id}`, reason]))).toEqual(reasons)
    expect(report).toMatchObject({ orphans: 3, started: [], errors: [] })
    expect(t.deps.actions.reconcileStatus()).toEqual({ pending: 0, orphans: 3 })
    const lines = reconcileLines(report).filter((l) => l.message.startsWith('engine run without an action'))
    expect(lines.map((l) => [l.details.dagId, l.details.runId, l.details.reason]))
      .toEqual(report.newOrphans.map(({ run, reason }) => [run.dag_id, run.dag_run_id, reason]))

    const listed = await call(t, 'GET', '/workflows?orphans=true')
    expect(listed.statusCode).toBe(200)
    const body = listed.json() as Array<Record<string, unknown>>
    expect(Object.fromEntries(body.map((w) => [`${String(w.dag_id)}/${String(w.run_id)}`, w.orphan_reason]))).toEqual(reasons)
    const foreign = runIn(t, 'deploy_site', ownId)
    expect(body).toContainEqual({ ...workflowOf(foreign as EngineRun), orphan_reason: reasons[`deploy_site/${ownId}`] })
    // the seed's list is every run, as before: the action's own run too, and no orphan_reason
    const plain = await call(t, 'GET', '/workflows')
    expect(plain.statusCode).toBe(200)
    expect(plain.json()).toHaveLength(4)
    for (const w of plain.json()) expect(Object.keys(w).sort()).toEqual(['dag_id', 'end_date', 'execution_date', 'external_trigger', 'run_id', 'start_date', 'state', 'workflow_id'])
    expect((await call(t, 'GET', '/workflows?orphans=maybe')).json()).toMatchObject({ message: 'Invalid orphans parameter', code: '400 Bad Request' })
  })

  it('name a queued foreign site run in the 409 of every site action, with how to stop it; stopped through its workflow, the next site action starts', async () => {
    const t = await buildTestApp()
    await commitSite(t)
    const foreign = await t.engine.client.trigger('update_software', 'manual__outsider', {})
    const workflowId = workflowOf(foreign).workflow_id
    const blocked = await call(t, 'POST', '/actions', { name: 'update_software' })
    expect(blocked.statusCode, blocked.body).toBe(409)
    expect(blocked.json()).toMatchObject({ reason: 'Another site action is in progress', action_lifecycle: 'Failed' })
    expect(blocked.json().validations[0].details).toBe(`Workflow run update_software/manual__outsider is queued and belongs to no action (${NO_ACTION}): ` +
      `stop it with POST /api/v1.0/workflows/${workflowId}/control/stop.`)

    const stopped = await call(t, 'POST', `/workflows/${workflowId}/control/stop`)
    expect(stopped.statusCode, stopped.body).toBe(202)
    expect(stopped.body).toBe('')
    expect(runIn(t, 'update_software', 'manual__outsider')?.state).toBe('failed')
    // stopped already: a 409 naming its state
    const again = await call(t, 'POST', `/workflows/${workflowId}/control/stop`)
    expect(again.statusCode).toBe(409)
    expect(again.json()).toMatchObject({ message: 'Unable to stop workflow', reason: 'dag_run state must be running or queued, but is failed' })

    const started = await call(t, 'POST', '/actions', { name: 'update_software' })
    expect(started.statusCode, started.body).toBe(201)
    const actionId = String(started.json().id)
    // an action's own run is stopped through its action (and its audit), never here; it blocks with that said
    const own = runIn(t, 'update_software', actionId) as EngineRun
    const refused = await call(t, 'POST', `/workflows/${workflowOf(own).workflow_id}/control/stop`)
    expect(refused.statusCode).toBe(409)
    expect(refused.json()).toMatchObject({
      message: 'Unable to stop workflow',
      reason: `The run is action ${actionId}'s: stop it with POST /api/v1.0/actions/${actionId}/control/stop`
    })
    expect(runIn(t, 'update_software', actionId)?.state).toBe('queued')
    const next = await call(t, 'POST', '/actions', { name: 'update_software' })
    expect(next.statusCode).toBe(409)
    expect(next.json().validations[0].details).toBe(`Workflow run update_software/${actionId} is queued: wait for it to finish, or stop its action ` +
      `(POST /api/v1.0/actions/${actionId}/control/stop).`)
  })

  it('answers 404 for a workflow the engine does not have and 400 for a malformed id', async () => {
    const t = await buildTestApp()
    const missing = await call(t, 'POST', '/workflows/deploy_site__2020-01-01T00:00:00.000000/control/stop')
    expect(missing.statusCode).toBe(404)
    expect(missing.json()).toMatchObject({ message: 'Workflow not found', code: '404 Not Found' })
    const malformed = await call(t, 'POST', '/workflows/nodate/control/stop')
    expect(malformed.statusCode).toBe(400)
    expect(malformed.json()).toMatchObject({ message: 'Invalid Workflow ID specified' })
  })
})
