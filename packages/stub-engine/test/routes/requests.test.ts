// Request checking and error bodies as Airflow gives them: strict bodies, zone-aware
// dates, 404/409/400 details, paging with the limit clamp, order_by allow-lists, filters, log tokens.
import { describe, expect, it } from 'vitest'
import { startTestEngine } from '../helpers/engine.ts'

describe('POST /api/v2/dags/{dag_id}/dagRuns', () => {
  it('refuses a malformed body with 422 and a located detail list', async () => {
    const engine = await startTestEngine()
    const cases: Array<[unknown, Array<string | number>, string]> = [
      [{ dag_run_id: 'x' }, ['body', 'logical_date'], 'missing'],
      [{ logical_date: '2025-06-01T10:00:00' }, ['body', 'logical_date'], 'timezone_aware'],
      [{ logical_date: null, partition_key: 'p' }, ['body', 'partition_key'], 'extra_forbidden'],
      [{ logical_date: 'yesterday' }, ['body', 'logical_date'], 'datetime_from_date_parsing'],
      [{ logical_date: null, conf: 'x' }, ['body', 'conf'], 'dict_type'],
      [[1], ['body'], 'model_attributes_type']
    ]
    for (const [body, loc, type] of cases) {
      const reply = await engine.call('POST', '/api/v2/dags/deploy_site/dagRuns', body)
      expect(reply.status, JSON.stringify(body)).toBe(422)
      expect(reply.body.detail).toEqual(expect.arrayContaining([expect.objectContaining({ loc, type, msg: expect.any(String) })]))
    }
    const notJson = await engine.call('POST', '/api/v2/dags/deploy_site/dagRuns', '{"logical_date":', { 'content-type': 'application/json' })
    expect(notJson.status).toBe(422)
    expect(notJson.body.detail[0].type).toBe('json_invalid')
    const text = await engine.call('POST', '/api/v2/dags/deploy_site/dagRuns', 'hello', { 'content-type': 'text/plain' })
    expect(text.status).toBe(422)
    const bothOrNeither = await engine.call('POST', '/api/v2/dags/deploy_site/dagRuns', { logical_date: '2025-06-01T10:00:00Z', data_interval_start: '2025-06-01T10:00:00Z' })
    expect(bothOrNeither.status).toBe(422)
  })

  it('answers 404 for an unknown DAG, 409 with the unique-constraint object for a duplicate run id, 400 for bad conf or import errors', async () => {
    const engine = await startTestEngine({ ENGINE_IMPORT_ERROR_DAGS: 'update_site', ENGINE_DAGS_PAUSED_AT_CREATION: 'true' })
    const unknown = await engine.call('POST', '/api/v2/dags/nope/dagRuns', { logical_date: null })
    expect(unknown.status).toBe(404)
    expect(unknown.body).toEqual({ detail: "DAG with dag_id: 'nope' not found" })
    expect((await engine.call('POST', '/api/v2/dags/deploy_site/dagRuns', { dag_run_id: '01J0DUP', logical_date: null })).status).toBe(200)
    const duplicate = await engine.call('POST', '/api/v2/dags/deploy_site/dagRuns', { dag_run_id: '01J0DUP', logical_date: null })
    expect(duplicate.status).toBe(409)
    expect(duplicate.body.detail).toMatchObject({ reason: 'Unique constraint violation', statement: expect.any(String), orig_error: expect.any(String), message: expect.any(String) })
    // Airflow 3.0–3.2: (dag_id, logical_date) is a unique key too; another DAG may use the same date
    const at = '2025-07-01T08:00:00Z'
    expect((await engine.call('POST', '/api/v2/dags/deploy_site/dagRuns', { dag_run_id: 'D1', logical_date: at })).status).toBe(200)
    const sameDate = await engine.call('POST', '/api/v2/dags/deploy_site/dagRuns', { dag_run_id: 'D2', logical_date: at })
    expect(sameDate.status).toBe(409)
    expect(sameDate.body.detail).toMatchObject({ reason: 'Unique constraint violation', orig_error: 'UNIQUE constraint failed: dag_run.dag_id, dag_run.logical_date' })
    expect((await engine.call('POST', '/api/v2/dags/test_site/dagRuns', { dag_run_id: 'D2', logical_date: at })).status).toBe(200)
    const badConf = await engine.call('POST', '/api/v2/dags/deploy_site/dagRuns', { logical_date: null, conf: { stub: { fail: { x: 'sometimes' } } } })
    expect(badConf.status).toBe(400)
    expect(badConf.body.detail).toMatch(/^Invalid input for param stub/)
    const broken = await engine.call('POST', '/api/v2/dags/update_site/dagRuns', { logical_date: null })
    expect(broken.status).toBe(400)
    expect(broken.body).toEqual({ detail: "DAG with dag_id: 'update_site' has import errors and cannot be triggered" })
    expect((await engine.call('GET', '/api/v2/dags/update_site')).body.has_import_errors).toBe(true)
  })

  it('accepts every zone-aware spelling pydantic reads, answers 422 timezone_aware only without a zone', async () => {
    const engine = await startTestEngine({ ENGINE_DAGS_PAUSED_AT_CREATION: 'true' })
    const accepted: Array<[string, string]> = [
      ['2025-06-01T10:00:00+0000', '2025-06-01T10:00:00.000Z'],
      ['2025-06-01T10:00Z', '2025-06-01T10:00:00.000Z'],
      ['2025-06-01 10:00:00Z', '2025-06-01T10:00:00.000Z'],
      ['2025-06-01 12:30+02:30', '2025-06-01T10:00:00.000Z'],
      ['2025-06-01t10:00:00,5z', '2025-06-01T10:00:00.500Z'],
      ['2025-06-01T05:00:00.1234567-0500', '2025-06-01T10:00:00.123Z']
    ]
    // (dag_id, logical_date) is unique: each spelling of the same instant goes to another DAG
    const dagIds = ['test_site', 'deploy_site', 'update_site', 'update_software', 'redeploy_server', 'relabel_nodes']
    for (const [i, [input, iso]] of accepted.entries()) {
      const reply = await engine.call('POST', `/api/v2/dags/${dagIds[i]!}/dagRuns`, { dag_run_id: `Z${i}`, logical_date: input, run_after: input })
      expect(reply.status, input).toBe(200)
      expect(reply.body, input).toMatchObject({ dag_run_id: `Z${i}`, logical_date: iso, run_after: iso })
    }
    const refused: Array<[string, string]> = [
      ['2025-06-01 10:00', 'timezone_aware'],
      ['2025-06-01T10:00:00', 'timezone_aware'],
      ['2025-06-01', 'timezone_aware'],
      ['2025-06-01T25:00:00Z', 'datetime_from_date_parsing'],
      ['2025-02-30T10:00:00Z', 'datetime_from_date_parsing'],
      ['2025-06-01T23:59:60Z', 'datetime_from_date_parsing'],
      ['2025-06-01T10:00:00Z[UTC]', 'datetime_from_date_parsing'],
      ['2025-06-01T10:00:00+01', 'datetime_from_date_parsing'],
      ['2025-06-01T10:00:00+24:00', 'datetime_from_date_parsing']
    ]
    for (const [input, type] of refused) {
      const reply = await engine.call('POST', '/api/v2/dags/test_site/dagRuns', { logical_date: input })
      expect(reply.status, input).toBe(422)
      expect(reply.body.detail, input).toEqual([expect.objectContaining({ loc: ['body', 'logical_date'], type, input })])
    }
    const batch = await engine.call('POST', '/api/v2/dags/~/dagRuns/list', { logical_date_gte: '2025-06-01 10:00+0000', logical_date_lte: '2025-06-01T10:00:01Z' })
    expect(batch.status).toBe(200)
    expect(batch.body.total_entries).toBe(accepted.length)
    const query = await engine.call('GET', `/api/v2/dags/test_site/dagRuns?logical_date_gte=${encodeURIComponent('2025-06-01 10:00:00+0000')}&logical_date_lte=2025-06-01T10:00:01Z`)
    expect(query.status).toBe(200)
    expect(query.body.total_entries).toBe(1)
    const naiveQuery = await engine.call('GET', `/api/v2/dags/test_site/dagRuns?logical_date_gte=${encodeURIComponent('2025-06-01 10:00')}`)
    expect(naiveQuery.status).toBe(422)
    expect(naiveQuery.body.detail[0]).toMatchObject({ loc: ['query', 'logical_date_gte'], type: 'timezone_aware' })
  })

  it('generates a manual__ run id and a null logical date when asked, with run_after = now', async () => {
    const engine = await startTestEngine({ ENGINE_DAGS_PAUSED_AT_CREATION: 'true' })
    const before = Date.now()
    const reply = await engine.call('POST', '/api/v2/dags/test_site/dagRuns', { logical_date: null })
    expect(reply.status).toBe(200)
    expect(reply.body.dag_run_id).toMatch(/^manual__\d{4}-\d{2}-\d{2}T.*\+00:00$/)
    expect(reply.body).toMatchObject({ logical_date: null, data_interval_start: null, conf: {} })
    expect(Date.parse(reply.body.run_after)).toBeGreaterThanOrEqual(before - 1000)
    const offset = await engine.call('POST', '/api/v2/dags/test_site/dagRuns', { logical_date: '2025-06-01T12:00:00.123456+02:00', dag_run_id: 'Z' })
    expect(offset.body.logical_date).toBe('2025-06-01T10:00:00.123Z')
  })
})

describe('lists', () => {
  it('pages runs with limit and offset, clamps limit to the maximum page size, counts total_entries before paging', async () => {
    const engine = await startTestEngine({ ENGINE_MAX_PAGE_LIMIT: '3', ENGINE_DAGS_PAUSED_AT_CREATION: 'true' })
    for (let i = 1; i <= 7; i++) await engine.trigger('test_site', `R${i}`)
    const first = await engine.call('GET', '/api/v2/dags/test_site/dagRuns?limit=100')
    expect(first.body.total_entries).toBe(7)
    expect(first.body.dag_runs.map((r: { dag_run_id: string }) => r.dag_run_id)).toEqual(['R1', 'R2', 'R3'])
    const last = await engine.call('GET', '/api/v2/dags/test_site/dagRuns?limit=3&offset=6')
    expect(last.body.dag_runs.map((r: { dag_run_id: string }) => r.dag_run_id)).toEqual(['R7'])
    const desc = await engine.call('GET', '/api/v2/dags/~/dagRuns?order_by=-run_id&limit=2')
    expect(desc.body.dag_runs.map((r: { dag_run_id: string }) => r.dag_run_id)).toEqual(['R7', 'R6'])
    const negative = await engine.call('GET', '/api/v2/dags/test_site/dagRuns?limit=-1')
    expect(negative.status).toBe(422)
    expect(negative.body.detail[0]).toMatchObject({ loc: ['query', 'limit'], type: 'greater_than_equal' })
    const badOrder = await engine.call('GET', '/api/v2/dags/test_site/dagRuns?order_by=colour')
    expect(badOrder.status).toBe(400)
    expect(badOrder.body.detail).toBe("Ordering with 'colour' is disallowed or the attribute does not exist on the model")
    const badState = await engine.call('GET', '/api/v2/dags/test_site/dagRuns?state=paused')
    expect(badState.status).toBe(422)
    const queued = await engine.call('GET', '/api/v2/dags/test_site/dagRuns?state=queued&state=running&run_id_pattern=R_')
    expect(queued.body.total_entries).toBe(7)
    const naive = await engine.call('GET', '/api/v2/dags/test_site/dagRuns?run_after_gte=2025-01-01T00:00:00')
    expect(naive.status).toBe(422)
    const future = await engine.call('GET', `/api/v2/dags/test_site/dagRuns?run_after_gte=${encodeURIComponent('2999-01-01T00:00:00Z')}`)
    expect(future.body.total_entries).toBe(0)
    const unknownDag = await engine.call('GET', '/api/v2/dags/nope/dagRuns')
    expect(unknownDag.status).toBe(404)
  })

  it('matches *_pattern filters as Airflow does: case-insensitive ILIKE \'%value%\', ~ for everything', async () => {
    const engine = await startTestEngine({ ENGINE_DAGS_PAUSED_AT_CREATION: 'true' })
    const dagIds = async (pattern: string): Promise<string[]> => {
      const reply = await engine.call('GET', `/api/v2/dags?limit=100&dag_id_pattern=${encodeURIComponent(pattern)}`)
      expect(reply.status, pattern).toBe(200)
      return reply.body.dags.map((d: { dag_id: string }) => d.dag_id)
    }
    expect(await dagIds('DEPLOY')).toEqual(['deploy_site', 'redeploy_server'])
    expect(await dagIds('up%sof')).toEqual(['update_software'])
    expect(await dagIds('_deploy')).toEqual(['redeploy_server'])
    expect(await dagIds('~')).toHaveLength(6)

    await engine.trigger('test_site', 'Run-A1')
    await engine.trigger('test_site', 'run-b2')
    await engine.trigger('test_site', 'other')
    const runs = await engine.call('GET', '/api/v2/dags/test_site/dagRuns?run_id_pattern=RUN-')
    expect(runs.status).toBe(200)
    expect(runs.body.dag_runs.map((r: { dag_run_id: string }) => r.dag_run_id)).toEqual(['Run-A1', 'run-b2'])
    const users = await engine.call('GET', '/api/v2/dags/~/dagRuns?triggering_user_name_pattern=ADM')
    expect(users.body.total_entries).toBe(3)
    const tis = await engine.call('GET', '/api/v2/dags/test_site/dagRuns/other/taskInstances?task_display_name_pattern=XCOM')
    expect(tis.status).toBe(200)
    expect(tis.body.task_instances.map((t: { task_id: string }) => t.task_id)).toEqual(['action_xcom'])
  })

  it('orders nulls last in both directions and breaks ties by the primary key in the first field\'s direction', async () => {
    const engine = await startTestEngine({ ENGINE_DAGS_PAUSED_AT_CREATION: 'true' })
    for (const id of ['O1', 'O2', 'O3', 'O4']) await engine.trigger('test_site', id)
    // finished by PATCH (the DAG is paused): O2 and O4 get an end date, O1 and O3 keep none
    await engine.call('PATCH', '/api/v2/dags/test_site/dagRuns/O2', { state: 'success' })
    await new Promise((resolve) => setTimeout(resolve, 5))
    await engine.call('PATCH', '/api/v2/dags/test_site/dagRuns/O4', { state: 'failed' })
    const ids = async (query: string): Promise<string[]> => {
      const reply = await engine.call('GET', `/api/v2/dags/test_site/dagRuns?${query}`)
      expect(reply.status, query).toBe(200)
      return reply.body.dag_runs.map((r: { dag_run_id: string }) => r.dag_run_id)
    }
    expect(await ids('order_by=end_date')).toEqual(['O2', 'O4', 'O1', 'O3'])
    expect(await ids('order_by=-end_date')).toEqual(['O4', 'O2', 'O3', 'O1'])
    expect(await ids('order_by=-dag_id')).toEqual(['O4', 'O3', 'O2', 'O1'])
    expect(await ids('order_by=-state&order_by=dag_id')).toEqual(['O2', 'O3', 'O1', 'O4'])
    expect(await ids('order_by=dag_id')).toEqual(['O1', 'O2', 'O3', 'O4'])
  })

  it('uses a batch body\'s page_limit as sent: only the query\'s limit is clamped to the maximum page size', async () => {
    const engine = await startTestEngine({ ENGINE_MAX_PAGE_LIMIT: '3', ENGINE_DAGS_PAUSED_AT_CREATION: 'true' })
    for (let i = 1; i <= 5; i++) await engine.trigger('test_site', `P${i}`)
    const query = await engine.call('GET', '/api/v2/dags/test_site/dagRuns?limit=5')
    expect(query.body.dag_runs).toHaveLength(3)
    const runs = await engine.call('POST', '/api/v2/dags/~/dagRuns/list', { page_limit: 5 })
    expect(runs.status).toBe(200)
    expect(runs.body.total_entries).toBe(5)
    expect(runs.body.dag_runs.map((r: { dag_run_id: string }) => r.dag_run_id)).toEqual(['P1', 'P2', 'P3', 'P4', 'P5'])
    expect((await engine.call('POST', '/api/v2/dags/~/dagRuns/list', {})).body.dag_runs).toHaveLength(5)
    const tis = await engine.call('POST', '/api/v2/dags/~/dagRuns/~/taskInstances/list', { dag_ids: ['test_site'], page_limit: 8 })
    expect(tis.status).toBe(200)
    expect(tis.body.total_entries).toBe(20)
    expect(tis.body.task_instances).toHaveLength(8)
    expect((await engine.call('GET', '/api/v2/dags/test_site/dagRuns/P1/taskInstances?limit=8')).body.task_instances).toHaveLength(3)
  })

  it('filters the batch run list and requires ~ in the path', async () => {
    const engine = await startTestEngine({ ENGINE_DAGS_PAUSED_AT_CREATION: 'true' })
    await engine.call('POST', '/api/v2/dags/test_site/dagRuns', { dag_run_id: 'A', logical_date: '2025-06-01T10:00:00Z' })
    await engine.call('POST', '/api/v2/dags/deploy_site/dagRuns', { dag_run_id: 'B', logical_date: '2025-06-02T10:00:00Z' })
    const byDay = await engine.call('POST', '/api/v2/dags/~/dagRuns/list', { dag_ids: ['test_site', 'deploy_site'], logical_date_gte: '2025-06-01T10:00:00Z', logical_date_lte: '2025-06-01T10:00:00Z' })
    expect(byDay.status).toBe(200)
    expect(byDay.body.dag_runs.map((r: { dag_run_id: string }) => r.dag_run_id)).toEqual(['A'])
    const paged = await engine.call('POST', '/api/v2/dags/~/dagRuns/list', { page_limit: 1, page_offset: 1, states: ['queued'] })
    expect(paged.body).toMatchObject({ total_entries: 2 })
    expect(paged.body.dag_runs.map((r: { dag_run_id: string }) => r.dag_run_id)).toEqual(['B'])
    const notTilde = await engine.call('POST', '/api/v2/dags/deploy_site/dagRuns/list', {})
    expect(notTilde.status).toBe(422)
    expect(notTilde.body.detail[0]).toMatchObject({ loc: ['path', 'dag_id'], type: 'literal_error' })
    const strict = await engine.call('POST', '/api/v2/dags/~/dagRuns/list', { dag_id: 'x' })
    expect(strict.status).toBe(422)
  })

  it('lists DAGs with pattern, paused filter and order_by, and reads one DAG', async () => {
    const engine = await startTestEngine()
    const deploy = await engine.call('GET', '/api/v2/dags?dag_id_pattern=deploy%25&order_by=-dag_id')
    expect(deploy.body.dags.map((d: { dag_id: string }) => d.dag_id)).toEqual(['redeploy_server', 'deploy_site'])
    const all = await engine.call('GET', '/api/v2/dags?limit=100')
    expect(all.body.total_entries).toBe(6)
    expect(all.body.dags.map((d: { dag_id: string }) => d.dag_id)).toEqual([
      'deploy_site', 'redeploy_server', 'relabel_nodes', 'test_site', 'update_site', 'update_software'
    ])
    expect((await engine.call('GET', '/api/v2/dags?order_by=owner')).status).toBe(400)
    const one = await engine.call('GET', '/api/v2/dags/relabel_nodes')
    expect(one.body).toMatchObject({ dag_id: 'relabel_nodes', is_paused: false, is_stale: false, has_import_errors: false, max_active_runs: 16 })
    const missing = await engine.call('GET', '/api/v2/dags/nope')
    expect(missing.status).toBe(404)
    expect(missing.body).toEqual({ detail: 'The Dag with ID: `nope` was not found' })
    const badPatch = await engine.call('PATCH', '/api/v2/dags/relabel_nodes', { is_paused: 'yes' })
    expect(badPatch.status).toBe(422)
    expect(badPatch.body.detail[0]).toMatchObject({ loc: ['body', 'is_paused'], type: 'bool_type' })
  })

  it('filters task instances by state, task_id and try_number, across runs with ~, and in the batch list', async () => {
    const engine = await startTestEngine()
    await engine.trigger('test_site', 'X1')
    await engine.waitRun('test_site', 'X1')
    const one = await engine.call('GET', '/api/v2/dags/test_site/dagRuns/X1/taskInstances?task_id=action_xcom')
    expect(one.body.task_instances.map((t: { task_id: string }) => t.task_id)).toEqual(['action_xcom'])
    const none = await engine.call('GET', '/api/v2/dags/test_site/dagRuns/X1/taskInstances?state=failed&state=none')
    expect(none.body.total_entries).toBe(0)
    const tries = await engine.call('GET', '/api/v2/dags/test_site/dagRuns/X1/taskInstances?try_number=1&limit=2&order_by=-task_id')
    expect(tries.body.total_entries).toBe(4)
    expect(tries.body.task_instances.map((t: { task_id: string }) => t.task_id)).toEqual(['preflight.ucp_preflight_check', 'deployment_configuration'])
    const everywhere = await engine.call('GET', '/api/v2/dags/~/dagRuns/~/taskInstances?limit=100')
    expect(everywhere.body.total_entries).toBe(4)
    const batch = await engine.call('POST', '/api/v2/dags/~/dagRuns/~/taskInstances/list', { dag_ids: ['test_site'], task_ids: ['preflight.ucp_preflight_check'], state: ['success'] })
    expect(batch.body.task_instances.map((t: { task_id: string }) => t.task_id)).toEqual(['preflight.ucp_preflight_check'])
    const badTilde = await engine.call('POST', '/api/v2/dags/~/dagRuns/X1/taskInstances/list', {})
    expect(badTilde.status).toBe(422)
    const unknownRun = await engine.call('GET', '/api/v2/dags/test_site/dagRuns/nope/taskInstances')
    expect(unknownRun.status).toBe(404)
    expect(unknownRun.body).toEqual({ detail: 'DagRun with run_id: `nope` was not found' })
    const unknownTask = await engine.call('GET', '/api/v2/dags/test_site/dagRuns/X1/taskInstances/nope')
    expect(unknownTask.status).toBe(404)
    const badIndex = await engine.call('GET', '/api/v2/dags/test_site/dagRuns/X1/taskInstances/action_xcom/abc')
    expect(badIndex.status).toBe(422)
    expect(badIndex.body.detail[0]).toMatchObject({ loc: ['path', 'map_index'], type: 'int_parsing' })
  })
})

describe('error texts and unserved paths', () => {
  it('names an unknown DAG when listing its runs', async () => {
    const engine = await startTestEngine()
    const reply = await engine.call('GET', '/api/v2/dags/nope/dagRuns')
    expect(reply.status).toBe(404)
    expect(reply.body).toEqual({ detail: 'The DAG with dag_id: `nope` was not found' })
  })

  it('answers contract paths below {task_id} that the stub does not serve with 404 Not Found, not a map_index 422', async () => {
    const engine = await startTestEngine()
    await engine.trigger('test_site', 'U1')
    await engine.waitRun('test_site', 'U1')
    const base = '/api/v2/dags/test_site/dagRuns/U1/taskInstances/action_xcom'
    for (const [method, path, body] of [
      ['PATCH', `${base}/dry_run`, { new_state: 'success' }],
      ['GET', `${base}/dependencies`, undefined],
      ['GET', `${base}/links`, undefined],
      ['GET', `${base}/xcomEntries`, undefined],
      ['GET', `${base}/-1/dependencies`, undefined],
      ['PATCH', `${base}/-1/dry_run`, { new_state: 'success' }]
    ] as const) {
      const reply = await engine.call(method, path, body)
      expect(reply.status, `${method} ${path}`).toBe(404)
      expect(reply.body, `${method} ${path}`).toEqual({ detail: 'Not Found' })
    }
    const notAnIndex = await engine.call('GET', `${base}/dry_run`)
    expect(notAnIndex.status).toBe(422)
    expect(notAnIndex.body.detail[0]).toMatchObject({ loc: ['path', 'map_index'], type: 'int_parsing' })
  })
})

describe('logs', () => {
  it('streams a running try with continuation tokens, refuses foreign tokens and speaks NDJSON', async () => {
    const engine = await startTestEngine()
    // action_xcom runs until it is let go: its try is still running when its log is first read
    await engine.trigger('test_site', 'L1', { stub: { hang: ['action_xcom'] } })
    const path = '/api/v2/dags/test_site/dagRuns/L1/taskInstances/action_xcom/logs/1'
    const deadline = Date.now() + 30_000
    let first = await engine.call('GET', path)
    while (!(first.status === 200 && first.body.content.some((l: { event: string }) => l.event.startsWith('Injected hang')))) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for the running try's log to show its hang: ${first.text}`)
      await new Promise((resolve) => setTimeout(resolve, 5))
      first = await engine.call('GET', path)
    }
    expect(first.body.continuation_token).toEqual(expect.any(String))
    const seen = first.body.content.length - 2
    const marked = await engine.call('PATCH', '/api/v2/dags/test_site/dagRuns/L1/taskInstances/action_xcom', { new_state: 'success' })
    expect(marked.status).toBe(200)
    await engine.waitRun('test_site', 'L1')
    const rest = await engine.call('GET', `${path}?token=${encodeURIComponent(first.body.continuation_token)}`)
    expect(rest.status).toBe(200)
    // only what came after the first read: the try's end, as the engine writes it for a task marked from outside
    expect(rest.body.content.map((l: { event: string }) => l.event)).toEqual(['State of this instance has been externally set to success. Terminating instance.'])
    expect(rest.body.continuation_token).toBeNull()
    const full = await engine.call('GET', `${path}?full_content=true`)
    expect(full.body.content.length).toBe(2 + seen + rest.body.content.length)

    const forged = await engine.call('GET', `${path}?token=abc.def`)
    expect(forged.status).toBe(400)
    expect(forged.body.detail).toMatch(/^Bad Signature/)
    const ndjson = await engine.call('GET', path, undefined, { accept: 'application/x-ndjson' })
    expect(ndjson.status).toBe(200)
    expect(ndjson.headers.get('content-type')).toContain('application/x-ndjson')
    const lines = ndjson.text.trim().split('\n').map((l) => JSON.parse(l))
    expect(lines[0].event).toBe('::group::Log message source details')
    expect(ndjson.headers.get('airflow-continuation-token')).toBeNull()
    expect((await engine.call('GET', '/api/v2/dags/test_site/dagRuns/L1/taskInstances/action_xcom/logs/0')).status).toBe(404)
  })

  it('answers unknown routes with 404 Not Found', async () => {
    const engine = await startTestEngine()
    const reply = await engine.call('GET', '/api/v2/pools')
    expect(reply.status).toBe(404)
    expect(reply.body).toEqual({ detail: 'Not Found' })
  })
})
