// Answers held to a real Airflow 3.1.5 by the differential test (packages/airflow/test/diff): each case here is a
// difference it found, kept from coming back — error texts, validation details and the fields of a DAG.
import { describe, expect, it } from 'vitest'
import { startTestEngine } from '../helpers/engine.ts'

describe('answers as Airflow 3.1.5 gives them', () => {
  it('words each 404 as the endpoint that answers it does', async () => {
    const engine = await startTestEngine()
    await engine.trigger('test_site', 'A1')
    await engine.waitRun('test_site', 'A1')
    const cases: Array<[string, string, unknown, string]> = [
      ['GET', '/api/v2/dags/nope', undefined, 'The Dag with ID: `nope` was not found'],
      ['PATCH', '/api/v2/dags/nope', { is_paused: true }, 'Dag with id: nope was not found'],
      ['PATCH', '/api/v2/dags/nope/dagRuns/A1', { state: 'failed' }, 'The DagRun with dag_id: `nope` and run_id: `A1` was not found'],
      ['GET', '/api/v2/dags/test_site/dagRuns/nope/taskInstances', undefined, 'DagRun with run_id: `nope` was not found'],
      ['GET', '/api/v2/dags/nope/dagRuns/A1/taskInstances', undefined, 'The Dag with ID: `nope` was not found'],
      ['GET', '/api/v2/dags/test_site/dagRuns/A1/taskInstances/nope', undefined,
        'The Task Instance with dag_id: `test_site`, run_id: `A1` and task_id: `nope` was not found'],
      ['GET', '/api/v2/dags/test_site/dagRuns/nope/taskInstances/action_xcom', undefined,
        'The Task Instance with dag_id: `test_site`, run_id: `nope` and task_id: `action_xcom` was not found'],
      ['GET', '/api/v2/dags/test_site/dagRuns/A1/taskInstances/nope/tries', undefined,
        'The Task Instance with dag_id: `test_site`, run_id: `A1`, task_id: `nope` and map_index: `-1` was not found']
    ]
    for (const [method, path, body, detail] of cases) {
      const reply = await engine.call(method, path, body)
      expect([method, path, reply.status, reply.body]).toEqual([method, path, 404, { detail }])
    }
  })

  it('lists the choices of a refused enum as pydantic does, in msg and ctx.expected', async () => {
    const engine = await startTestEngine()
    await engine.trigger('test_site', 'A2')
    const reply = await engine.call('PATCH', '/api/v2/dags/test_site/dagRuns/A2', { state: 'running' })
    expect(reply.status).toBe(422)
    expect(reply.body).toEqual({
      detail: [{
        loc: ['body', 'state'],
        msg: "Input should be 'queued', 'success' or 'failed'",
        type: 'enum',
        input: 'running',
        ctx: { expected: "'queued', 'success' or 'failed'" }
      }]
    })
  })

  it('answers a body that is not JSON with the position and the reason Python\'s decoder gives', async () => {
    const engine = await startTestEngine()
    const reply = await engine.call('POST', '/api/v2/dags/test_site/dagRuns', '{"dag_run_id": ')
    expect(reply.status).toBe(422)
    expect(reply.body).toEqual({ detail: [{ loc: ['body', 15], msg: 'JSON decode error', type: 'json_invalid', input: {}, ctx: { error: 'Expecting value' } }] })
    const empty = await engine.call('POST', '/api/v2/dags/test_site/dagRuns', '')
    expect(empty.status).toBe(422)
    expect(empty.body).toEqual({ detail: [{ loc: ['body'], msg: 'Field required', type: 'missing', input: null }] })
  })

  it('writes a failed try\'s exception line as Airflow\'s task runner does, with its source position', async () => {
    const engine = await startTestEngine()
    await engine.trigger('test_site', 'A3', { stub: { fail: { armada_test_releases: 'always' } } })
    await engine.waitRun('test_site', 'A3')
    const log = await engine.call('GET', '/api/v2/dags/test_site/dagRuns/A3/taskInstances/armada_test_releases/logs/1?full_content=true')
    const failure = log.body.content.find((l: { event: string }) => l.event === 'Task failed with exception')
    expect(failure).toMatchObject({ level: 'error', logger: 'task', filename: 'task_runner.py', lineno: expect.any(Number), timestamp: expect.any(String) })
    expect(failure.error_detail[0]).toMatchObject({ exc_type: 'AirflowException', exc_value: 'Injected failure of try 1' })
  })

  it('shows a DAG with its tags and last_parse_duration', async () => {
    const engine = await startTestEngine()
    const dag = await engine.call('GET', '/api/v2/dags/test_site')
    expect(dag.body).toMatchObject({ tags: [{ name: 'slipway', dag_id: 'test_site', dag_display_name: 'test_site' }], last_parse_duration: expect.any(Number) })
    const list = await engine.call('GET', '/api/v2/dags?limit=100')
    for (const d of list.body.dags) expect(d.tags).toEqual([{ name: 'slipway', dag_id: d.dag_id, dag_display_name: d.dag_id }])
  })
})
