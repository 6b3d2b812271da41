// The scenario both engines go through, call for call: the engine calls the orchestrator's engine client and its
// engine watch make (token, DAGs, pause, trigger, one run, lists, batch lists, changes since, task instances, tries,
// logs, stop), each with the errors the client must handle. Runs are short and end the same way on both engines:
// test_site (four tasks), and deploy_site with injected failures (a validator that fails once, then the build).
import { resignToken, type Recorder } from './client.ts'

/** Run ids of the scenario; the same on both engines, so that answers line up. */
export const RUNS = {
  paused: 'diff-paused',
  ok: 'diff-ok',
  retry: 'diff-retry',
  stop: 'diff-stop',
  noDate: 'diff-no-logical-date',
  sameDate: 'diff-same-logical-date'
} as const

/** The validator that fails its first try and succeeds on its retry; the build task that then fails for good. */
export const RETRIED = 'validate_site_design.drydock_validate_site_design'
export const FAILED = 'drydock_build.verify_site'
export const HUNG = 'armada_test_releases'

const enc = encodeURIComponent
const runPath = (dagId: string, runId: string): string => `/api/v2/dags/${enc(dagId)}/dagRuns/${enc(runId)}`
const tiPath = (dagId: string, runId: string, taskId: string): string => `${runPath(dagId, runId)}/taskInstances/${enc(taskId)}`

/** The conf the orchestrator sends: the action, and the failure injection of the scenario's runs. */
function conf (runId: string, name: string, stub?: Record<string, unknown>): Record<string, unknown> {
  const action = { id: runId, name, parameters: {}, user: 'diff', context_marker: '00000000-0000-4000-8000-000000000029' }
  return stub === undefined ? { action } : { action, stub }
}

let lastDate = 0
/** Now, later than any date given before: a DAG's runs need distinct logical dates on Airflow 3.1. */
function uniqueNow (): string {
  lastDate = Math.max(Date.now(), lastDate + 1)
  return new Date(lastDate).toISOString()
}

async function until<T> (what: string, timeoutMs: number, probe: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await probe()
    if (value !== undefined) return value
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 300))
  }
}

async function waitRun (r: Recorder, dagId: string, runId: string, states: string[], timeoutMs = 240_000): Promise<void> {
  await until(`${r.target.name} run ${dagId}/${runId} in ${states.join('|')}`, timeoutMs, async () => {
    const run = await r.request('GET', runPath(dagId, runId))
    return states.includes((run.body as { state?: string }).state ?? '') ? true : undefined
  })
}

async function waitTask (r: Recorder, dagId: string, runId: string, taskId: string, state: string): Promise<void> {
  await until(`${r.target.name} task ${taskId} of ${runId} ${state}`, 240_000, async () => {
    const ti = await r.request('GET', tiPath(dagId, runId, taskId))
    return (ti.body as { state?: string }).state === state ? true : undefined
  })
}

export interface ScenarioOptions {
  /** Progress lines. */
  say: (line: string) => void
}

export async function runScenario (r: Recorder, options: ScenarioOptions): Promise<void> {
  const { record } = r
  const say = (line: string): void => { options.say(`${r.target.name}: ${line}`) }
  const started = new Date(Date.now() - 1000).toISOString()

  say('token')
  await record('token: good credentials', 'POST', '/auth/token', { body: { username: r.target.username, password: r.target.password }, token: null })
  await record('token: bad password', 'POST', '/auth/token', { body: { username: r.target.username, password: 'not-the-password' }, token: null })
  await record('token: unknown user', 'POST', '/auth/token', { body: { username: 'nobody', password: 'x' }, token: null })
  await record('token: unknown field', 'POST', '/auth/token', { body: { username: r.target.username, password: r.target.password, scope: 'all' }, token: null })
  await record('token: credential-less GET (all-admins off)', 'GET', '/auth/token', { token: null })

  say('DAGs and pause')
  await record('dags: the list as the client pages it', 'GET', '/api/v2/dags?limit=100&offset=0&order_by=dag_id')
  await record('dags: one DAG', 'GET', '/api/v2/dags/test_site')
  await record('dags: unknown DAG', 'GET', '/api/v2/dags/no_such_dag')
  await record('pause: PATCH is_paused true', 'PATCH', '/api/v2/dags/test_site', { body: { is_paused: true } })
  await record('pause: the DAG list shows it paused', 'GET', '/api/v2/dags?limit=100&offset=0&order_by=dag_id')
  await record('trigger: while the DAG is paused', 'POST', '/api/v2/dags/test_site/dagRuns',
    { body: { dag_run_id: RUNS.paused, logical_date: uniqueNow(), conf: conf(RUNS.paused, 'test_site') } })
  await record('run: queued while its DAG is paused', 'GET', runPath('test_site', RUNS.paused))
  await record('pause: PATCH is_paused false', 'PATCH', '/api/v2/dags/test_site', { body: { is_paused: false } })
  await record('pause: unknown DAG', 'PATCH', '/api/v2/dags/no_such_dag', { body: { is_paused: true } })
  await record('pause: unknown field', 'PATCH', '/api/v2/dags/test_site', { body: { is_paused: true, paused: true } })
  await record('pause: no body', 'PATCH', '/api/v2/dags/test_site', { body: {} })

  say('trigger')
  const okDate = uniqueNow()
  await record('trigger: test_site', 'POST', '/api/v2/dags/test_site/dagRuns',
    { body: { dag_run_id: RUNS.ok, logical_date: okDate, conf: conf(RUNS.ok, 'test_site') } })
  await record('trigger: duplicate run id', 'POST', '/api/v2/dags/test_site/dagRuns',
    { body: { dag_run_id: RUNS.ok, logical_date: uniqueNow(), conf: conf(RUNS.ok, 'test_site') } })
  await record('trigger: unknown DAG', 'POST', '/api/v2/dags/no_such_dag/dagRuns',
    { body: { dag_run_id: 'diff-unknown-dag', logical_date: uniqueNow(), conf: {} } })
  await record('trigger: unknown field', 'POST', '/api/v2/dags/test_site/dagRuns',
    { body: { dag_run_id: 'diff-unknown-field', logical_date: uniqueNow(), conf: {}, execution_date: uniqueNow() } })
  await record('trigger: logical_date without a zone', 'POST', '/api/v2/dags/test_site/dagRuns',
    { body: { dag_run_id: 'diff-naive', logical_date: '2025-06-01T10:00:00', conf: {} } })
  await record('trigger: conf not an object', 'POST', '/api/v2/dags/test_site/dagRuns',
    { body: { dag_run_id: 'diff-bad-conf', logical_date: uniqueNow(), conf: 'x' } })
  await record('trigger: malformed JSON', 'POST', '/api/v2/dags/test_site/dagRuns', { raw: { text: '{"dag_run_id": ', type: 'application/json' } })

  say('waiting for the test_site runs')
  await waitRun(r, 'test_site', RUNS.paused, ['success', 'failed'])
  await waitRun(r, 'test_site', RUNS.ok, ['success', 'failed'])
  await record('run: after its DAG was unpaused', 'GET', runPath('test_site', RUNS.paused))

  say('deploy_site with a retried validator and a failing build')
  await record('trigger: deploy_site with failure injection', 'POST', '/api/v2/dags/deploy_site/dagRuns', {
    body: { dag_run_id: RUNS.retry, logical_date: uniqueNow(), conf: conf(RUNS.retry, 'deploy_site', { fail: { drydock_validate_site_design: 1, verify_site: 'always' } }) }
  })
  await waitRun(r, 'deploy_site', RUNS.retry, ['success', 'failed'], 480_000)

  say('stop')
  await record('trigger: test_site with a hanging task', 'POST', '/api/v2/dags/test_site/dagRuns',
    { body: { dag_run_id: RUNS.stop, logical_date: uniqueNow(), conf: conf(RUNS.stop, 'test_site', { hang: [HUNG] }) } })
  await waitTask(r, 'test_site', RUNS.stop, HUNG, 'running')
  await record('run: running', 'GET', runPath('test_site', RUNS.stop))
  await record('stop: PATCH state failed', 'PATCH', runPath('test_site', RUNS.stop), { body: { state: 'failed' } })
  await record('stop: unknown run', 'PATCH', runPath('test_site', 'no-such-run'), { body: { state: 'failed' } })
  await record('stop: a state PATCH does not take', 'PATCH', runPath('test_site', RUNS.stop), { body: { state: 'running' } })
  await waitRun(r, 'test_site', RUNS.stop, ['failed'])

  await reads(r, started, say)
  await tokens(r, say)

  say('calls whose answer may depend on the version')
  await record('trigger: no logical_date key', 'POST', '/api/v2/dags/test_site/dagRuns', { body: { dag_run_id: RUNS.noDate, conf: {} } })
  await record('trigger: a logical date another run of the DAG has', 'POST', '/api/v2/dags/test_site/dagRuns',
    { body: { dag_run_id: RUNS.sameDate, logical_date: okDate, conf: {} } })
}

async function reads (r: Recorder, started: string, say: (line: string) => void): Promise<void> {
  const { record } = r
  say('runs')
  for (const [dagId, runId] of [['test_site', RUNS.ok], ['deploy_site', RUNS.retry], ['test_site', RUNS.stop]] as const) {
    await record(`run: ${runId}`, 'GET', runPath(dagId, runId))
  }
  await record('run: unknown run', 'GET', runPath('test_site', 'no-such-run'))
  await record('run: unknown DAG', 'GET', runPath('no_such_dag', RUNS.ok))

  say('batch lists')
  await record('runs batch: one DAG', 'POST', '/api/v2/dags/~/dagRuns/list', { body: { page_offset: 0, page_limit: 1000, order_by: 'id', dag_ids: ['test_site'] } })
  await record('runs batch: every DAG', 'POST', '/api/v2/dags/~/dagRuns/list', { body: { page_offset: 0, page_limit: 1000, order_by: 'id' } })
  await record('runs batch: logical_date_gte', 'POST', '/api/v2/dags/~/dagRuns/list',
    { body: { page_offset: 0, page_limit: 1000, order_by: 'id', dag_ids: ['deploy_site', 'test_site'], logical_date_gte: started } })
  await record('runs batch: second page', 'POST', '/api/v2/dags/~/dagRuns/list', { body: { page_offset: 2, page_limit: 2, order_by: 'id' } })
  await record('runs batch: a DAG id in the path', 'POST', '/api/v2/dags/test_site/dagRuns/list', { body: { page_offset: 0, page_limit: 1000 } })
  await record('runs batch: unknown field', 'POST', '/api/v2/dags/~/dagRuns/list', { body: { page_offset: 0, dag_id: 'test_site' } })
  const runIds = [RUNS.ok, RUNS.retry, RUNS.stop]
  await record('task instances batch: run ids', 'POST', '/api/v2/dags/~/dagRuns/~/taskInstances/list', { body: { dag_run_ids: runIds, page_offset: 0, page_limit: 1000 } })
  await record('task instances batch: run ids of one DAG', 'POST', '/api/v2/dags/~/dagRuns/~/taskInstances/list',
    { body: { dag_run_ids: runIds, page_offset: 0, page_limit: 1000, dag_ids: ['test_site'] } })
  await record('task instances batch: a run id in the path', 'POST', '/api/v2/dags/~/dagRuns/diff-ok/taskInstances/list', { body: { page_offset: 0 } })

  say('changes since')
  const future = new Date(Date.now() + 3_600_000).toISOString()
  for (const [label, since] of [['since the scenario began', started], ['since a future instant', future]] as const) {
    const query = `updated_at_gte=${encodeURIComponent(since)}&limit=100&order_by=id&offset=0`
    await record(`changed runs: ${label}`, 'GET', `/api/v2/dags/~/dagRuns?${query}`)
    await record(`changed task instances: ${label}`, 'GET', `/api/v2/dags/~/dagRuns/~/taskInstances?${query}`)
  }
  await record('changed runs: a date without a zone', 'GET', '/api/v2/dags/~/dagRuns?updated_at_gte=2025-06-01T10%3A00%3A00&limit=100')

  say('task instances, tries and logs')
  for (const [dagId, runId] of [['test_site', RUNS.ok], ['deploy_site', RUNS.retry], ['test_site', RUNS.stop]] as const) {
    await record(`task instances: ${runId}`, 'GET', `${runPath(dagId, runId)}/taskInstances?limit=100&offset=0`)
  }
  await record('task instances: second page', 'GET', `${runPath('deploy_site', RUNS.retry)}/taskInstances?limit=5&offset=5`)
  await record('task instances: unknown run', 'GET', `${runPath('test_site', 'no-such-run')}/taskInstances?limit=100&offset=0`)
  await record('task instance: retried', 'GET', tiPath('deploy_site', RUNS.retry, RETRIED))
  await record('task instance: failed', 'GET', tiPath('deploy_site', RUNS.retry, FAILED))
  await record('task instance: upstream_failed', 'GET', tiPath('deploy_site', RUNS.retry, 'drydock_build.prepare_site'))
  await record('task instance: stopped', 'GET', tiPath('test_site', RUNS.stop, HUNG))
  await record('task instance: unknown task', 'GET', tiPath('test_site', RUNS.ok, 'no_such_task'))
  await record('tries: retried task', 'GET', `${tiPath('deploy_site', RUNS.retry, RETRIED)}/tries`)
  await record('tries: task that never ran', 'GET', `${tiPath('deploy_site', RUNS.retry, 'drydock_build.prepare_site')}/tries`)
  await record('try: 1', 'GET', `${tiPath('deploy_site', RUNS.retry, RETRIED)}/tries/1`)
  await record('try: 2', 'GET', `${tiPath('deploy_site', RUNS.retry, RETRIED)}/tries/2`)
  await record('try: 3 (none)', 'GET', `${tiPath('deploy_site', RUNS.retry, RETRIED)}/tries/3`)
  const logs = `${tiPath('deploy_site', RUNS.retry, RETRIED)}/logs`
  await record('log: try 1 full_content (failed try)', 'GET', `${logs}/1?full_content=true`)
  await record('log: try 2 full_content', 'GET', `${logs}/2?full_content=true`)
  await record('log: try 2 without full_content', 'GET', `${logs}/2`)
  await record('log: try 3 (none)', 'GET', `${logs}/3?full_content=true`)
  await record('log: try 0', 'GET', `${logs}/0?full_content=true`)
  await record('log: failed task', 'GET', `${tiPath('deploy_site', RUNS.retry, FAILED)}/logs/1?full_content=true`)
  await record('log: task that never ran', 'GET', `${tiPath('deploy_site', RUNS.retry, 'drydock_build.prepare_site')}/logs/1?full_content=true`)
  await record('log: stopped task', 'GET', `${tiPath('test_site', RUNS.stop, HUNG)}/logs/1?full_content=true`)
  await record('log: foreign continuation token', 'GET', `${logs}/2?token=not-a-token`)
}

async function tokens (r: Recorder, say: (line: string) => void): Promise<void> {
  say('tokens refused')
  const path = '/api/v2/dags?limit=100&offset=0&order_by=dag_id'
  const now = Math.floor(Date.now() / 1000)
  const expired = (): string => resignToken(r.token(), r.target.jwtSecret, { iat: now - 7200, nbf: now - 7200, exp: now - 3600 })
  await r.record('auth: no token', 'GET', path, { token: null })
  await r.record('auth: not a JWT', 'GET', path, { token: 'not-a-jwt' })
  await r.record('auth: expired', 'GET', path, { token: expired() })
  await r.record('auth: signed with another secret', 'GET', path, { token: resignToken(r.token(), 'another-secret-0123456789abcdef0123456789', {}) })
  await r.record('auth: expired, on a write', 'PATCH', '/api/v2/dags/test_site', { body: { is_paused: false }, token: expired() })
}
