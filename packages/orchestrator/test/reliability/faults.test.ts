// Each component the orchestrator calls — the store, the engine, the provisioner and the validating component —
// down (connections reset) and hanging (connections accepted, never answered), during every operation that uses
// it: a 5xx error body naming the component within the configured timeout, the configdocs lock released, and
// nothing half-written once the component is back.
import { afterAll, describe, expect, it } from 'vitest'
import { AUTH, isErrorBody } from '@slipway/common/testing'
import { buildTestStack, GLOBAL_YAML, SITE_YAML } from '../helpers/stack.ts'
import { startProxy, type Proxy, type ProxyMode } from '@slipway/common/testing/proxy'

// every call of the orchestrator in these tests has this timeout, the calls that should succeed too: long enough that a
// busy machine does not time out a healthy component, short enough that the hangs below end quickly
const TIMEOUT_MS = 1000
// what a busy machine may add to an answer on top of the timeouts it waited through
const SLACK_MS = 4000
const YAML = { ...AUTH, 'content-type': 'application/x-yaml' }
const JSON_HEADERS = { ...AUTH, 'content-type': 'application/json' }
type Component = 'store' | 'engine' | 'provisioner' | 'validator'
const NAMES: Record<Exclude<Component, 'validator'>, RegExp> = { store: /store|Deckhand/, engine: /engine|Airflow/, provisioner: /provisioner|Drydock/ }

/** Slowest answer and statuses seen, per component and mode, printed at the end. */
const figures = new Map<string, { operations: number, slowestMs: number, statuses: Set<number> }>()

afterAll(() => {
  for (const [key, f] of figures) {
    console.log(`faults: ${key}: ${f.operations} operations answered ${[...f.statuses].sort().join('/')}, slowest ${f.slowestMs.toFixed(0)} ms (timeout ${TIMEOUT_MS} ms)`)
  }
})

async function faultStack () {
  const proxies = {} as Record<Component, Proxy>
  const stack = await buildTestStack({
    timeoutMs: TIMEOUT_MS,
    validatorTimeoutMs: TIMEOUT_MS,
    wrap: async (component, url) => { proxies[component] = await startProxy(url); return proxies[component].url }
  })
  const inject = async (method: string, url: string, headers: Record<string, string> = AUTH, payload?: string) =>
    await stack.app.inject({ method: method as 'GET', url: `/api/v1.0${url}`, headers, payload })
  return { ...stack, proxies, inject }
}
type FaultStack = Awaited<ReturnType<typeof faultStack>>

async function stageAndCommit (s: FaultStack): Promise<void> {
  expect((await s.inject('POST', '/configdocs/global', YAML, GLOBAL_YAML)).statusCode).toBe(201)
  expect((await s.inject('POST', '/configdocs/site?buffermode=append', YAML, SITE_YAML)).statusCode).toBe(201)
  const commit = await s.inject('POST', '/commitconfigdocs')
  expect(commit.statusCode, commit.body).toBe(200)
}

async function completedAction (s: FaultStack): Promise<{ id: string, workflowId: string }> {
  const created = await s.inject('POST', '/actions', JSON_HEADERS, JSON.stringify({ name: 'deploy_site' }))
  expect(created.statusCode, created.body).toBe(201)
  const id = String(created.json().id)
  const deadline = Date.now() + 45_000
  for (;;) {
    const action = (await s.inject('GET', `/actions/${id}`)).json()
    if (action.action_lifecycle === 'Complete') return { id, workflowId: `${String(action.dag_id)}__${String(action.dag_execution_date)}` }
    if (Date.now() > deadline) throw new Error('deploy_site did not complete')
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

/** Runs `operation` with `component` in `mode`; checks the answer is a timely 5xx error body naming it. */
async function expectFailure (s: FaultStack, component: Exclude<Component, 'validator'>, mode: ProxyMode, what: string, operation: () => ReturnType<FaultStack['inject']>) {
  await s.proxies[component].set(mode)
  const started = performance.now()
  const res = await operation()
  const elapsed = performance.now() - started
  await s.proxies[component].set('pass')
  const label = `${what} with the ${component} ${mode}`
  const figure = figures.get(`${component} ${mode}`) ?? { operations: 0, slowestMs: 0, statuses: new Set<number>() }
  figures.set(`${component} ${mode}`, { operations: figure.operations + 1, slowestMs: Math.max(figure.slowestMs, elapsed), statuses: figure.statuses.add(res.statusCode) })
  expect(res.statusCode, `${label}: ${res.body}`).toBeGreaterThanOrEqual(500)
  expect(res.statusCode, label).not.toBe(500)
  expect(isErrorBody(res.json()), label).toBe(true)
  expect(`${String(res.json().message)} ${String(res.json().reason)}`, label).toMatch(NAMES[component])
  // a hang ends at the call's timeout; the engine client may take a token first (two calls' worth)
  expect(elapsed, label).toBeLessThan(TIMEOUT_MS * 4 + SLACK_MS)
  return res
}

describe.each(['down', 'hang'] as const)('with a component %s', (mode) => {
  it('the store: staging, reading, rendering, committing and creating actions answer 5xx naming it; nothing half-written', async () => {
    const s = await faultStack()
    await stageAndCommit(s)
    expect((await s.inject('POST', '/configdocs/global', YAML, GLOBAL_YAML.replace('kubelet stand-in', 'kubelet stand-in v2'))).statusCode).toBe(201)
    const before = (await s.inject('GET', '/configdocs')).json()
    const changed = GLOBAL_YAML.replace('kubelet stand-in', 'kubelet stand-in v3')
    await expectFailure(s, 'store', mode, 'POST /configdocs/global', async () => await s.inject('POST', '/configdocs/global?buffermode=replace', YAML, changed))
    await expectFailure(s, 'store', mode, 'GET /configdocs', async () => await s.inject('GET', '/configdocs'))
    await expectFailure(s, 'store', mode, 'GET /configdocs/global', async () => await s.inject('GET', '/configdocs/global?version=buffer'))
    await expectFailure(s, 'store', mode, 'GET /renderedconfigdocs', async () => await s.inject('GET', '/renderedconfigdocs?version=committed'))
    await expectFailure(s, 'store', mode, 'POST /commitconfigdocs', async () => await s.inject('POST', '/commitconfigdocs'))
    await expectFailure(s, 'store', mode, 'POST /actions', async () => await s.inject('POST', '/actions', JSON_HEADERS, JSON.stringify({ name: 'deploy_site' })))
    // back up: the buffer is as it was, no action was saved, and the lock is free for the next commit
    expect((await s.inject('GET', '/configdocs')).json()).toEqual(before)
    expect((await s.inject('GET', '/actions')).json()).toEqual([])
    const commit = await s.inject('POST', '/commitconfigdocs')
    expect(commit.statusCode, commit.body).toBe(200)
  }, 120_000)

  it('the engine: creating, reading, controlling actions and workflows answer 5xx naming it; nothing half-written', async () => {
    const s = await faultStack()
    await stageAndCommit(s)
    const { id, workflowId } = await completedAction(s)
    await expectFailure(s, 'engine', mode, 'POST /actions', async () => await s.inject('POST', '/actions', JSON_HEADERS, JSON.stringify({ name: 'update_site' })))
    await expectFailure(s, 'engine', mode, 'GET /actions', async () => await s.inject('GET', '/actions'))
    await expectFailure(s, 'engine', mode, 'GET /actions/{id}', async () => await s.inject('GET', `/actions/${id}`))
    await expectFailure(s, 'engine', mode, 'GET /actions/{id}/steps/{step}', async () => await s.inject('GET', `/actions/${id}/steps/action_xcom`))
    await expectFailure(s, 'engine', mode, 'GET .../logs', async () => await s.inject('GET', `/actions/${id}/steps/action_xcom/logs`))
    await expectFailure(s, 'engine', mode, 'POST /actions/{id}/control/pause', async () => await s.inject('POST', `/actions/${id}/control/pause`))
    await expectFailure(s, 'engine', mode, 'GET /workflows', async () => await s.inject('GET', '/workflows'))
    await expectFailure(s, 'engine', mode, 'GET /workflows/{id}', async () => await s.inject('GET', `/workflows/${workflowId}`))
    // back up: only the completed action exists, with its one invoke; a new action starts at once
    const list = (await s.inject('GET', '/actions')).json() as Array<{ id: string }>
    expect(list.map((a) => a.id)).toEqual([id])
    expect((await s.inject('GET', `/actions/${id}`)).json().command_audit).toHaveLength(1)
    const created = await s.inject('POST', '/actions', JSON_HEADERS, JSON.stringify({ name: 'update_site' }))
    expect(created.statusCode, created.body).toBe(201)
  }, 120_000)

  it('the provisioner: site statuses answer 5xx naming it, then answer again', async () => {
    const s = await faultStack()
    await expectFailure(s, 'provisioner', mode, 'GET /site_statuses', async () => await s.inject('GET', '/site_statuses'))
    expect((await s.inject('GET', '/site_statuses')).statusCode).toBe(200)
  }, 60_000)

  it('the validating component: the commit fails with an error entry naming it, never a 500, and the lock is released', async () => {
    const s = await faultStack()
    expect((await s.inject('POST', '/configdocs/global', YAML, GLOBAL_YAML)).statusCode).toBe(201)
    expect((await s.inject('POST', '/configdocs/site?buffermode=append', YAML, SITE_YAML)).statusCode).toBe(201)
    await s.proxies.validator.set(mode)
    const started = performance.now()
    const res = await s.inject('POST', '/commitconfigdocs')
    const elapsed = performance.now() - started
    await s.proxies.validator.set('pass')
    expect(res.statusCode, res.body).toBe(400)
    expect(res.json()).toMatchObject({ status: 'Failure', kind: 'Status' })
    expect(JSON.stringify(res.json().details.messageList)).toMatch(/Promenade/)
    expect(elapsed).toBeLessThan(TIMEOUT_MS * 2 + SLACK_MS)
    expect((await s.inject('GET', '/configdocs')).json()).toEqual(expect.arrayContaining([expect.objectContaining({ new_status: 'created' })]))
    const commit = await s.inject('POST', '/commitconfigdocs')
    expect(commit.statusCode, commit.body).toBe(200)
  }, 60_000)
})
