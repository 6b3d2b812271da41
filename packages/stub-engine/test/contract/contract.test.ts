// Contract test: drives every endpoint stub-engine serves and validates each request body and each response body
// against the Airflow OpenAPI documents in ../shared/contracts (read at run time, never copied into the project).
import { describe, expect, it } from 'vitest'
import { client, startTestEngine, type Reply } from '../helpers/engine.ts'
import { CONTRACTS_PRESENT as present, contractChecker } from '@slipway/airflow-contract/testing'

describe.skipIf(!present)('contract: every endpoint against airflow-v2-rest-api.yaml and airflow-simple-auth-manager.yaml', () => {
  it('answers with bodies that validate against the documented schema of each status', async () => {
    const contract = contractChecker()
    const engine = await startTestEngine({ ENGINE_TASK_MS: '5' })
    const raw = await client(engine.url, engine.token)
    const anonymous = await client(engine.url, undefined)
    type Call = (method: string, path: string, body?: unknown, invalid?: boolean) => Promise<Reply>
    // requests meant to be refused are not checked against the request schema; every response is
    const checked = (send: typeof raw): Call => async (method, path, body, invalid = false) => {
      if (body !== undefined && !invalid) contract.request(method, path, body)
      const reply = await send(method, path, body)
      contract.response(method, path, reply)
      return reply
    }
    const call = checked(raw)
    const anon = checked(anonymous)
    const expectStatus = async (status: number, method: string, path: string, body?: unknown): Promise<Reply> => {
      const reply = await call(method, path, body, status >= 400)
      expect(reply.status, `${method} ${path}`).toBe(status)
      return reply
    }

    // the checker itself refuses what the contract forbids
    const fake = (status: number, body: unknown): Reply => ({ status, body, headers: new Headers(), text: JSON.stringify(body) })
    expect(() => contract.response('GET', '/api/v2/version', fake(200, { version: 3 }))).toThrow(/does not match the contract/)
    expect(() => contract.response('GET', '/api/v2/dags/x/dagRuns/y', fake(200, { dag_run_id: 'y', state: 'paused' }))).toThrow(/does not match/)
    expect(() => contract.response('GET', '/api/v2/version', fake(418, {}))).toThrow(/does not list/)
    expect(() => contract.request('POST', '/api/v2/dags/x/dagRuns', { logical_date: null, extra: 1 })).toThrow(/does not match/)

    // auth (simple auth manager document)
    expect((await anon('POST', '/auth/token', { username: 'admin', password: 'admin' })).status).toBe(201)
    expect((await anon('POST', '/auth/token', { username: 'admin', password: 'wrong' }, true)).status).toBe(401)
    expect((await anon('POST', '/auth/token', { username: '', password: '' }, true)).status).toBe(400)
    // a login body the model refuses: Airflow 3.1 answers the text of pydantic's error as `detail`, not the list its
    // document declares (found by the differential test against a real Airflow), so that reply is not checked
    const refused = await anonymous('POST', '/auth/token', { username: 'admin' })
    expect(refused.status).toBe(422)
    expect(refused.body.detail).toMatch(/^1 validation error for LoginBody\npassword\n {2}Field required \[type=missing/)
    expect((await anon('POST', '/auth/token/cli', { username: 'admin', password: 'admin' })).status).toBe(201)
    expect((await anon('GET', '/auth/token')).status).toBe(403)

    // open endpoints and the 401 of a protected one
    expect((await anon('GET', '/api/v2/monitor/health')).status).toBe(200)
    expect((await anon('GET', '/api/v2/version')).status).toBe(200)
    expect((await anon('GET', '/api/v2/dags')).status).toBe(401)

    // DAGs
    await expectStatus(200, 'GET', '/api/v2/dags?limit=100')
    await expectStatus(200, 'GET', '/api/v2/dags/test_site')
    await expectStatus(200, 'GET', '/api/v2/dags?dag_id_pattern=PREFLIGHT&paused=false&order_by=-dag_id')
    await expectStatus(404, 'GET', '/api/v2/dags/test_site.preflight')
    await expectStatus(404, 'GET', '/api/v2/dags/nope')
    await expectStatus(200, 'PATCH', '/api/v2/dags/test_site', { is_paused: false })
    await expectStatus(422, 'PATCH', '/api/v2/dags/test_site', { is_paused: false, owners: [] })
    await expectStatus(404, 'PATCH', '/api/v2/dags/nope', { is_paused: false })

    // runs
    const conf = { action: { id: 'K1' }, stub: { fail: { armada_test_releases: 1 }, map: { deployment_configuration: 2 } } }
    await expectStatus(200, 'POST', '/api/v2/dags/test_site/dagRuns', { dag_run_id: 'K1', logical_date: new Date().toISOString(), conf })
    await expectStatus(409, 'POST', '/api/v2/dags/test_site/dagRuns', { dag_run_id: 'K1', logical_date: null })
    await expectStatus(404, 'POST', '/api/v2/dags/nope/dagRuns', { logical_date: null })
    await expectStatus(400, 'POST', '/api/v2/dags/test_site/dagRuns', { logical_date: null, conf: { stub: { hang: 'x' } } })
    await expectStatus(422, 'POST', '/api/v2/dags/test_site/dagRuns', { logical_date: '2025-01-01T00:00:00' })
    await expectStatus(422, 'POST', '/api/v2/dags/test_site/dagRuns', { logical_date: '2025-01-01 00:00' })
    // pydantic takes zone-aware spellings that the contract's RFC 3339 `date-time` does not: the request is not
    // checked against the contract, the reply is
    const loose = await call('POST', '/api/v2/dags/test_site/dagRuns', { dag_run_id: 'K0', logical_date: '2025-01-01 00:00+0000' }, true)
    expect(loose.status).toBe(200)
    await engine.waitRun('test_site', 'K1')
    await expectStatus(200, 'GET', '/api/v2/dags/test_site/dagRuns/K1')
    await expectStatus(404, 'GET', '/api/v2/dags/test_site/dagRuns/nope')
    await expectStatus(200, 'GET', '/api/v2/dags/test_site/dagRuns?state=failed&order_by=-start_date')
    await expectStatus(200, 'GET', '/api/v2/dags/~/dagRuns?limit=5')
    await expectStatus(200, 'GET', '/api/v2/dags/~/dagRuns?run_id_pattern=k&order_by=-end_date&order_by=run_id')
    await expectStatus(404, 'GET', '/api/v2/dags/nope/dagRuns')
    await expectStatus(422, 'GET', '/api/v2/dags/test_site/dagRuns?limit=-1')
    await expectStatus(200, 'POST', '/api/v2/dags/~/dagRuns/list', { dag_ids: ['test_site'], states: ['failed'], page_limit: 10 })
    await expectStatus(422, 'POST', '/api/v2/dags/~/dagRuns/list', { page_limit: -1 })
    await expectStatus(200, 'POST', '/api/v2/dags/~/dagRuns/list', { page_limit: 500, logical_date_gte: '2025-01-01T00:00:00Z' })

    // task instances of the finished run (armada_test_releases failed once; deployment_configuration mapped ×2)
    const base = '/api/v2/dags/test_site/dagRuns/K1/taskInstances'
    await expectStatus(200, 'GET', `${base}?limit=100`)
    await expectStatus(200, 'GET', '/api/v2/dags/~/dagRuns/~/taskInstances?state=success&try_number=1')
    await expectStatus(200, 'POST', '/api/v2/dags/~/dagRuns/~/taskInstances/list', { dag_ids: ['test_site'], task_ids: ['action_xcom'] })
    await expectStatus(422, 'POST', '/api/v2/dags/~/dagRuns/~/taskInstances/list', { dag_ids: 'test_site' })
    await expectStatus(200, 'POST', '/api/v2/dags/~/dagRuns/~/taskInstances/list', { page_limit: 500 })
    await expectStatus(200, 'GET', `${base}?task_display_name_pattern=ARMADA&order_by=-end_date`)
    await expectStatus(404, 'GET', `${base}/action_xcom/dependencies`)
    await expectStatus(404, 'PATCH', `${base}/action_xcom/dry_run`, { new_state: 'success' })
    await expectStatus(200, 'GET', `${base}/action_xcom`)
    await expectStatus(404, 'GET', `${base}/deployment_configuration`)
    await expectStatus(200, 'GET', `${base}/deployment_configuration/1`)
    await expectStatus(404, 'GET', `${base}/deployment_configuration/7`)
    await expectStatus(422, 'GET', `${base}/deployment_configuration/x`)
    await expectStatus(200, 'GET', `${base}/deployment_configuration/listMapped`)
    await expectStatus(404, 'GET', `${base}/action_xcom/listMapped`)
    await expectStatus(200, 'GET', `${base}/armada_test_releases/tries`)
    await expectStatus(200, 'GET', `${base}/armada_test_releases/tries/1`)
    await expectStatus(404, 'GET', `${base}/armada_test_releases/tries/5`)
    await expectStatus(200, 'GET', `${base}/deployment_configuration/0/tries`)
    await expectStatus(200, 'GET', `${base}/deployment_configuration/0/tries/1`)
    const log = await expectStatus(200, 'GET', `${base}/armada_test_releases/logs/1?full_content=true`)
    expect(log.body.content.length).toBeGreaterThan(2)
    await expectStatus(404, 'GET', `${base}/armada_test_releases/logs/3`)
    await expectStatus(422, 'GET', `${base}/armada_test_releases/logs/one`)

    // changes: mark, clear (dry run and real), patch the run, clear task instances, delete
    await expectStatus(200, 'PATCH', `${base}/action_xcom`, { new_state: 'success', note: 'checked' })
    await expectStatus(200, 'PATCH', `${base}/deployment_configuration/0`, { new_state: 'success' })
    await expectStatus(422, 'PATCH', `${base}/action_xcom`, { new_state: 'queued' })
    await expectStatus(404, 'PATCH', `${base}/nope`, { new_state: 'failed' })
    const preview = await expectStatus(200, 'POST', '/api/v2/dags/test_site/dagRuns/K1/clear', { only_failed: true })
    expect(preview.body.task_instances).toBeDefined()
    const cleared = await expectStatus(200, 'POST', '/api/v2/dags/test_site/dagRuns/K1/clear', { dry_run: false, only_failed: true })
    expect(cleared.body.dag_run_id).toBe('K1')
    await expectStatus(404, 'POST', '/api/v2/dags/test_site/dagRuns/nope/clear', { dry_run: false })
    await expectStatus(422, 'POST', '/api/v2/dags/test_site/dagRuns/K1/clear', { dry_run: 'no' })
    await engine.waitRun('test_site', 'K1')
    await expectStatus(200, 'POST', '/api/v2/dags/test_site/clearTaskInstances', { dag_run_id: 'K1', task_ids: ['action_xcom', ['deployment_configuration', 1]], only_failed: false })
    await expectStatus(404, 'POST', '/api/v2/dags/nope/clearTaskInstances', {})
    await expectStatus(200, 'PATCH', '/api/v2/dags/test_site/dagRuns/K1', { state: 'failed', note: 'stopped' })
    await expectStatus(422, 'PATCH', '/api/v2/dags/test_site/dagRuns/K1', { state: 'paused' })
    await expectStatus(404, 'PATCH', '/api/v2/dags/test_site/dagRuns/nope', { state: 'failed' })
    await expectStatus(204, 'DELETE', '/api/v2/dags/test_site/dagRuns/K1')
    await expectStatus(404, 'DELETE', '/api/v2/dags/test_site/dagRuns/K1')

    // every endpoint the stub serves answered with a documented success at least once
    const successes = new Set([...contract.seen].filter((s) => /\s2\d\d$/.test(s)).map((s) => s.replace(/\s\d+$/, '')))
    expect([...successes].sort()).toEqual([
      'DELETE /api/v2/dags/{dag_id}/dagRuns/{dag_run_id}',
      'GET /api/v2/dags',
      'GET /api/v2/dags/{dag_id}',
      'GET /api/v2/dags/{dag_id}/dagRuns',
      'GET /api/v2/dags/{dag_id}/dagRuns/{dag_run_id}',
      'GET /api/v2/dags/{dag_id}/dagRuns/{dag_run_id}/taskInstances',
      'GET /api/v2/dags/{dag_id}/dagRuns/{dag_run_id}/taskInstances/{task_id}',
      'GET /api/v2/dags/{dag_id}/dagRuns/{dag_run_id}/taskInstances/{task_id}/listMapped',
      'GET /api/v2/dags/{dag_id}/dagRuns/{dag_run_id}/taskInstances/{task_id}/logs/{try_number}',
      'GET /api/v2/dags/{dag_id}/dagRuns/{dag_run_id}/taskInstances/{task_id}/tries',
      'GET /api/v2/dags/{dag_id}/dagRuns/{dag_run_id}/taskInstances/{task_id}/tries/{task_try_number}',
      'GET /api/v2/dags/{dag_id}/dagRuns/{dag_run_id}/taskInstances/{task_id}/{map_index}',
      'GET /api/v2/dags/{dag_id}/dagRuns/{dag_run_id}/taskInstances/{task_id}/{map_index}/tries',
      'GET /api/v2/dags/{dag_id}/dagRuns/{dag_run_id}/taskInstances/{task_id}/{map_index}/tries/{task_try_number}',
      'GET /api/v2/monitor/health',
      'GET /api/v2/version',
      'PATCH /api/v2/dags/{dag_id}',
      'PATCH /api/v2/dags/{dag_id}/dagRuns/{dag_run_id}',
      'PATCH /api/v2/dags/{dag_id}/dagRuns/{dag_run_id}/taskInstances/{task_id}',
      'PATCH /api/v2/dags/{dag_id}/dagRuns/{dag_run_id}/taskInstances/{task_id}/{map_index}',
      'POST /api/v2/dags/{dag_id}/clearTaskInstances',
      'POST /api/v2/dags/{dag_id}/dagRuns',
      'POST /api/v2/dags/{dag_id}/dagRuns/list',
      'POST /api/v2/dags/{dag_id}/dagRuns/{dag_run_id}/clear',
      'POST /api/v2/dags/{dag_id}/dagRuns/{dag_run_id}/taskInstances/list',
      'POST /auth/token',
      'POST /auth/token/cli'
    ])
  })
})
