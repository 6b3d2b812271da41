// The step runner's API, over a fake step library: a run started answers at once and is polled for its state and
// its log lines from a line on; a stop reaches the step's signal; an ended run keeps its output, branch or error;
// bad starts, unknown runs and missing tokens get clear error bodies.
import { afterEach, describe, expect, it } from 'vitest'
import { buildRunnerApp } from '../../src/runner/app.ts'
import { createStepRuns } from '../../src/runner/runs.ts'
import { StepFailure, type StepLibrary } from '../../src/index.ts'

const apps: Array<{ close: () => Promise<unknown> }> = []
afterEach(async () => { for (const app of apps.splice(0)) await app.close() })

function runner (library: StepLibrary, options: { tokens?: string[], maxRuns?: number } = {}) {
  const runs = createStepRuns({ library, keepMs: 60_000, maxRuns: options.maxRuns ?? 100 })
  const app = buildRunnerApp({ runs, authTokens: options.tokens ?? [], logger: false })
  apps.push(app)
  return app
}

const start = (extra: Record<string, unknown> = {}) => ({
  kind: 'verify_site', dag_id: 'deploy_site', task_id: 'drydock_build.verify_site', run_id: 'r1', try_number: 1, conf: { action: { id: 'A' } }, ...extra
})

describe('the step runner', () => {
  it('runs a step in the background: polled for its lines from a line on, then its output', async () => {
    let release = (): void => {}
    const library: StepLibrary = {
      async run (kind, call, io) {
        io.log(`started ${kind} for ${call.taskId} try ${call.tryNumber}`)
        await new Promise<void>((resolve) => { release = resolve })
        io.log('Drydock task t-1 ended complete/success', 'info')
        return { output: { seen: call.xcom } }
      }
    }
    const app = runner(library)
    const created = await app.inject({ method: 'POST', url: '/api/v1.0/step-runs', payload: start({ xcom: { deployment_configuration: { a: 1 } } }) })
    expect(created.statusCode).toBe(201)
    const { id, state } = created.json()
    expect(state).toBe('running')
    const first = await app.inject({ url: `/api/v1.0/step-runs/${id}` })
    expect(first.json()).toMatchObject({ id, kind: 'verify_site', state: 'running', log: [{ level: 'info', event: 'started verify_site for drydock_build.verify_site try 1' }], next: 1 })
    release()
    await expect.poll(async () => (await app.inject({ url: `/api/v1.0/step-runs/${id}?since=1` })).json().state).toBe('success')
    const ended = (await app.inject({ url: `/api/v1.0/step-runs/${id}?since=1` })).json()
    expect(ended).toEqual({
      id,
      kind: 'verify_site',
      state: 'success',
      next: 2,
      log: [{ level: 'info', event: 'Drydock task t-1 ended complete/success' }],
      output: { seen: { deployment_configuration: { a: 1 } } }
    })
  })

  it('answers a failed step with its error, and a branch with what it follows', async () => {
    const app = runner({
      async run (kind) {
        if (kind === 'decide_upgrade') return { follow: ['upgrade_airflow'] }
        throw new StepFailure('Drydock verify_site task t-2 ended complete/failure')
      }
    })
    const failed = (await app.inject({ method: 'POST', url: '/api/v1.0/step-runs', payload: start() })).json()
    await expect.poll(async () => (await app.inject({ url: `/api/v1.0/step-runs/${failed.id}` })).json().state).toBe('failed')
    expect((await app.inject({ url: `/api/v1.0/step-runs/${failed.id}` })).json().error).toBe('Drydock verify_site task t-2 ended complete/failure')
    const branch = (await app.inject({ method: 'POST', url: '/api/v1.0/step-runs', payload: start({ kind: 'decide_upgrade', task_id: 'decide_airflow_upgrade' }) })).json()
    await expect.poll(async () => (await app.inject({ url: `/api/v1.0/step-runs/${branch.id}` })).json().follow).toEqual(['upgrade_airflow'])
  })

  it('stops a running step: its signal aborts and the run ends failed, saying it was stopped', async () => {
    const app = runner({
      async run (_kind, _call, io) {
        await new Promise<void>((resolve) => io.signal.addEventListener('abort', () => resolve(), { once: true }))
        throw new StepFailure('The step was stopped')
      }
    })
    const { id } = (await app.inject({ method: 'POST', url: '/api/v1.0/step-runs', payload: start() })).json()
    const stopped = await app.inject({ method: 'POST', url: `/api/v1.0/step-runs/${id}/stop` })
    expect(stopped.statusCode).toBe(202)
    await expect.poll(async () => (await app.inject({ url: `/api/v1.0/step-runs/${id}` })).json()).toMatchObject({ state: 'failed', error: 'The step was stopped' })
  })

  it('refuses a bad start, an unknown run, a missing token, and a start past the run limit', async () => {
    const app = runner({ async run () { return await new Promise(() => {}) } }, { tokens: ['t1'], maxRuns: 1 })
    const auth = { 'x-auth-token': 't1' }
    const noToken = await app.inject({ method: 'POST', url: '/api/v1.0/step-runs', payload: start() })
    expect(noToken.statusCode).toBe(401)
    expect(noToken.json()).toMatchObject({ status: 'Failure', code: '401 Unauthorized' })
    const badKind = await app.inject({ method: 'POST', url: '/api/v1.0/step-runs', headers: auth, payload: start({ kind: 'no_such_step' }) })
    expect(badKind.statusCode).toBe(400)
    expect(badKind.json()).toMatchObject({ status: 'Failure' })
    const badTry = await app.inject({ method: 'POST', url: '/api/v1.0/step-runs', headers: auth, payload: start({ try_number: 0 }) })
    expect(badTry.statusCode).toBe(400)
    const unknown = await app.inject({ url: '/api/v1.0/step-runs/nope', headers: auth })
    expect(unknown.statusCode).toBe(404)
    expect(unknown.json()).toMatchObject({ message: 'Step run not found' })
    expect((await app.inject({ method: 'POST', url: '/api/v1.0/step-runs', headers: auth, payload: start() })).statusCode).toBe(201)
    const full = await app.inject({ method: 'POST', url: '/api/v1.0/step-runs', headers: auth, payload: start() })
    expect(full.statusCode).toBe(503)
    expect(full.json()).toMatchObject({ message: 'Too many step runs' })
    const health = await app.inject({ url: '/api/v1.0/health' })
    expect(health.statusCode).toBeLessThan(300)
  })
})
