// Task instances and their tries as Airflow 3.1.5 keeps them (found by the differential test against a real
// Airflow): an instance is made with no host and the scheduler's user, gets a new time-ordered id for every try
// after the first (so a retried task lists after the others), and its tries list holds the instance itself too.
import { describe, expect, it } from 'vitest'
import { startTestEngine, type TestEngine } from '../helpers/engine.ts'

const TI = '/api/v2/dags/test_site/dagRuns/T1/taskInstances'

/** Polls `probe` until it answers something; fails naming `what` after a deadline generous for a busy machine. */
async function until<T> (what: string, probe: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await probe()
    if (value !== undefined) return value
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
}

const stateOf = async (engine: TestEngine, taskId: string): Promise<Record<string, any>> => (await engine.call('GET', `${TI}/${taskId}`)).body

describe('task instances and tries', () => {
  it('makes an instance with no host and the scheduler\'s user, and lists its try 0 before it runs', async () => {
    const engine = await startTestEngine({ ENGINE_DAGS_PAUSED_AT_CREATION: 'true' })
    await engine.trigger('test_site', 'T1')
    const ti = await stateOf(engine, 'armada_test_releases')
    expect(ti).toMatchObject({ state: null, try_number: 0, hostname: '', unixname: 'airflow', pid: null })
    const tries = await engine.call('GET', `${TI}/armada_test_releases/tries`)
    expect(tries.body.total_entries).toBe(1)
    expect(tries.body.task_instances[0]).toMatchObject({ try_number: 0, state: null, hostname: '' })
    expect((await engine.call('GET', `${TI}/armada_test_releases/tries/0`)).body).toMatchObject({ try_number: 0, state: null })
  })

  it('gives a retried instance a new id that lists after the others, and shows a try waiting to retry as failed', async () => {
    const engine = await startTestEngine({ ENGINE_RETRY_DELAY_MS: '300000' })
    await engine.trigger('test_site', 'T1', { stub: { fail: { armada_test_releases: 1 }, retries: { armada_test_releases: 1 } } })
    const first = await until('try 1 to fail', async () => {
      const ti = await stateOf(engine, 'armada_test_releases')
      return ti.state === 'up_for_retry' ? ti : undefined
    })
    const tries = await engine.call('GET', `${TI}/armada_test_releases/tries`)
    expect(tries.body.task_instances.map((t: { try_number: number, state: string }) => [t.try_number, t.state])).toEqual([[1, 'failed']])
    // the instance itself answers for its own try number
    expect((await engine.call('GET', `${TI}/armada_test_releases/tries/1`)).body).toMatchObject({ try_number: 1, state: 'up_for_retry' })

    const before = await engine.tis('test_site', 'T1')
    const ids = before.map((t) => t.id)
    expect([...ids].sort()).toEqual(ids)
    await engine.call('POST', '/api/v2/dags/test_site/clearTaskInstances', { dag_run_id: 'T1', task_ids: ['armada_test_releases'], only_failed: false, dry_run: false })
    const second = await until('try 2 to end', async () => {
      const ti = await stateOf(engine, 'armada_test_releases')
      return ti.try_number === 2 && ti.state === 'success' ? ti : undefined
    })
    expect(second.id).not.toBe(first.id)
    expect(second.id > ids.at(-1)!).toBe(true)
    const after = await engine.tis('test_site', 'T1')
    expect(after.at(-1)!.task_id).toBe('armada_test_releases')
    expect(after.map((t) => t.id)).toEqual([...after.map((t) => t.id)].sort())
  })

  it('gives a try the scheduler retries a new id: the first task, retried, lists after the instances made with the run', async () => {
    const engine = await startTestEngine()
    await engine.trigger('test_site', 'T1', { stub: { fail: { action_xcom: 1 }, retries: { action_xcom: 1 } } })
    const made = (await engine.tis('test_site', 'T1')).map((t) => t.id)
    expect((await engine.waitRun('test_site', 'T1')).state).toBe('success')
    const after = await engine.tis('test_site', 'T1')
    const retried = after.find((t) => t.task_id === 'action_xcom')!
    expect(retried).toMatchObject({ state: 'success', try_number: 2 })
    expect(made).not.toContain(retried.id)
    expect(after.map((t) => t.task_id)).toEqual(['preflight.ucp_preflight_check', 'deployment_configuration', 'armada_test_releases', 'action_xcom'])
  })

  it('keeps a try\'s continuation token good after the instance has taken a new id for its next try', async () => {
    const engine = await startTestEngine()
    // every try of armada_test_releases runs until it is stopped or let go: try 1 is running when its log is read,
    // then cleared while running it ends (restarting) and try 2 starts under a new id
    await engine.trigger('test_site', 'T1', { stub: { hang: ['armada_test_releases'] } })
    const token = await until('a token of running try 1', async () => {
      const log = await engine.call('GET', `${TI}/armada_test_releases/logs/1`)
      const hanging = log.status === 200 && log.body.content.some((l: { event: string }) => l.event.startsWith('Injected hang'))
      return hanging && typeof log.body.continuation_token === 'string' ? log.body.continuation_token as string : undefined
    })
    const firstId = (await stateOf(engine, 'armada_test_releases')).id
    const cleared = await engine.call('POST', '/api/v2/dags/test_site/clearTaskInstances', { dag_run_id: 'T1', task_ids: ['armada_test_releases'], only_failed: false, dry_run: false })
    expect(cleared.status).toBe(200)
    const second = await until('try 2 running', async () => {
      const ti = await stateOf(engine, 'armada_test_releases')
      return ti.try_number === 2 && ti.state === 'running' ? ti : undefined
    })
    expect(second.id).not.toBe(firstId)
    const rest = await engine.call('GET', `${TI}/armada_test_releases/logs/1?token=${encodeURIComponent(token)}`)
    expect(rest.status).toBe(200)
    expect(rest.body.continuation_token).toBeNull()
    expect(rest.body.content.at(-1).event).toMatch(/cleared while running/)
    const marked = await engine.call('PATCH', `${TI}/armada_test_releases`, { new_state: 'success' })
    expect(marked.status).toBe(200)
    expect((await engine.waitRun('test_site', 'T1')).state).toBe('success')
  })
})
