// A newer Airflow may answer with states, run types and fields the contract we were written against does not
// name: the engine client's views read them as they come, and the workflow views pass them on.
import Fastify from 'fastify'
import { describe, expect, it, onTestFinished } from 'vitest'
import { createEngineClient } from '../../src/clients/engine.ts'
import { stepOf, workflowOf } from '../../src/domain/steps.ts'

const RUN = {
  dag_run_id: 'R1',
  dag_id: 'deploy_site',
  logical_date: '2026-01-01T00:00:00Z',
  queued_at: null,
  start_date: '2026-01-01T00:00:01Z',
  end_date: null,
  run_after: '2026-01-01T00:00:00Z',
  data_interval_start: null,
  data_interval_end: null,
  last_scheduling_decision: null,
  run_type: 'partitioned',
  state: 'deferred_to_partner',
  triggered_by: 'a_new_trigger',
  conf: {},
  note: null,
  dag_versions: [],
  bundle_version: null,
  dag_display_name: 'deploy_site',
  partition_key: 'p-1'
}
const TASK = {
  id: 't1',
  task_id: 'action_xcom',
  dag_id: 'deploy_site',
  dag_run_id: 'R1',
  map_index: -1,
  logical_date: '2026-01-01T00:00:00Z',
  run_after: '2026-01-01T00:00:00Z',
  start_date: null,
  end_date: null,
  duration: null,
  state: 'awaiting_quorum',
  try_number: 1,
  max_tries: 0,
  task_display_name: 'action_xcom',
  hostname: null,
  unixname: null,
  pool: 'default_pool',
  pool_slots: 1,
  queue: null,
  priority_weight: null,
  operator: 'PythonOperator',
  operator_name: 'PythonOperator',
  queued_when: null,
  scheduled_when: null,
  pid: null,
  executor: null,
  executor_config: '{}',
  note: null,
  rendered_map_index: null,
  rendered_fields: {},
  trigger: null,
  triggerer_job: null,
  dag_version: null,
  a_field_of_tomorrow: { nested: true }
}

async function newerAirflow (): Promise<string> {
  const app = Fastify()
  app.post('/auth/token', async (_request, reply) => await reply.code(201).send({ access_token: 'h.e30.s' }))
  app.get('/api/v2/dags/deploy_site/dagRuns/R1', async () => RUN)
  app.get('/api/v2/dags/deploy_site/dagRuns/R1/taskInstances', async () => ({ task_instances: [TASK], total_entries: 1 }))
  await app.listen({ host: '127.0.0.1', port: 0 })
  onTestFinished(async () => { await app.close() })
  const address = app.server.address()
  return `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}`
}

describe('the engine client against a newer Airflow', () => {
  it('reads unknown states, run types and extra fields without failing, and passes them on', async () => {
    const client = createEngineClient({ baseUrl: await newerAirflow(), username: 'admin', password: 'admin', timeoutMs: 10_000 })
    const run = await client.run('deploy_site', 'R1')
    expect(run).toMatchObject({ state: 'deferred_to_partner', run_type: 'partitioned', partition_key: 'p-1' })
    expect(workflowOf(run!)).toMatchObject({ state: 'deferred_to_partner', external_trigger: false })
    const [task] = await client.tasks('deploy_site', 'R1')
    expect(task).toMatchObject({ state: 'awaiting_quorum', a_field_of_tomorrow: { nested: true } })
    expect(stepOf(task!)).toMatchObject({ task_id: 'action_xcom', state: 'awaiting_quorum' })
  })
})
