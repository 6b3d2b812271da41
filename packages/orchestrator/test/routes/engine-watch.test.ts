// Action reads served by the engine watch: no engine call while it is fresh, the orchestrator's own writes seen at
// once, a fall-back to the engine once it is stale, recovery when the engine returns, and two orchestrators each
// answering correctly from their own watch.
import { describe, expect, it, onTestFinished } from 'vitest'
import { AUTH } from '@slipway/common/testing'
import { buildTestStack, GLOBAL_YAML, SITE_YAML } from '../helpers/stack.ts'
import { startPassThrough } from '../helpers/pass-through.ts'

type Stack = Awaited<ReturnType<typeof buildTestStack>>
const YAML = { ...AUTH, 'content-type': 'application/x-yaml' }

async function commitSite (stack: Stack): Promise<void> {
  await stack.app.inject({ method: 'POST', url: '/api/v1.0/configdocs/global', headers: YAML, payload: GLOBAL_YAML })
  await stack.app.inject({ method: 'POST', url: '/api/v1.0/configdocs/site?buffermode=append', headers: YAML, payload: SITE_YAML })
  expect((await stack.app.inject({ method: 'POST', url: '/api/v1.0/commitconfigdocs', headers: AUTH })).statusCode).toBe(200)
}

async function until (what: string, probe: () => boolean | Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!await probe()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

/** A stack whose engine calls pass a recording proxy that can be made to answer 503 (the engine down). */
async function watchedStack (watch: { intervalMs: number, staleMs: number }) {
  const engineDown = { value: false }
  let proxy: Awaited<ReturnType<typeof startPassThrough>> | undefined
  const stack = await buildTestStack({
    watch,
    engineEnv: { ENGINE_HANG_TASKS: 'test_site/armada_test_releases' },
    wrap: async (component, url) => {
      if (component !== 'engine') return url
      proxy = await startPassThrough(url, () => engineDown.value ? { status: 503, text: 'Service Unavailable' } : undefined)
      return proxy.url
    }
  })
  return { stack, exchanges: proxy!.exchanges, engineDown }
}

const read = async (stack: Stack, url: string) => await stack.app.inject({ url, headers: AUTH })

describe('the engine watch', () => {
  it('serves action, step and workflow reads without an engine call while fresh, and shows the orchestrator\'s own pause at once', async () => {
    const { stack, exchanges } = await watchedStack({ intervalMs: 50, staleMs: 60_000 })
    await commitSite(stack)
    const id = String((await stack.app.inject({ method: 'POST', url: '/api/v1.0/actions', headers: { ...AUTH, 'content-type': 'application/json' }, payload: '{"name":"test_site"}' })).json().id)
    await until('the watch to see the action running', async () => (await read(stack, `/api/v1.0/actions/${id}`)).json().action_lifecycle === 'Processing')
    await until('the watch to see the first step succeed', async () => (await read(stack, `/api/v1.0/actions/${id}`)).json().steps[0].state === 'success')
    // a stopped watch is not fresh: reads fall back to the engine
    stack.watch!.stop()
    const before = exchanges.length
    expect((await read(stack, `/api/v1.0/actions/${id}`)).statusCode).toBe(200)
    expect(exchanges.length).toBeGreaterThan(before)

    stack.watch!.start()
    await until('a fresh watch', () => stack.watch!.status().fresh)
    // pause through the API: the next read says Paused
    expect((await stack.app.inject({ method: 'POST', url: `/api/v1.0/actions/${id}/control/pause`, headers: AUTH })).statusCode).toBe(202)
    const counted = exchanges.filter((e) => !e.path.startsWith('/api/v2/dags?') && !e.path.includes('updated_at_gte')).length
    const detailRead = await read(stack, `/api/v1.0/actions/${id}`)
    const detail = detailRead.json()
    expect(detail.action_lifecycle).toBe('Paused')
    // the pause's audit row at once, and the same answer again while nothing changes
    expect(detail.command_audit.map((a: { command: string }) => a.command)).toEqual(['invoke', 'pause'])
    expect((await read(stack, `/api/v1.0/actions/${id}`)).body).toBe(detailRead.body)
    expect(detail.steps.map((s: { id: string }) => s.id)).toEqual(['action_xcom', 'preflight.ucp_preflight_check', 'deployment_configuration', 'armada_test_releases'])
    const list = (await read(stack, '/api/v1.0/actions')).json()
    expect(list[0]).toMatchObject({ id, action_lifecycle: 'Paused' })
    expect((await read(stack, `/api/v1.0/actions/${id}/steps/action_xcom`)).json()).toMatchObject({ task_id: 'action_xcom', state: 'success' })
    const workflows = (await read(stack, '/api/v1.0/workflows')).json()
    expect(workflows.map((w: { run_id: string }) => w.run_id)).toEqual([id])
    expect((await read(stack, `/api/v1.0/workflows/${String(workflows[0].workflow_id)}`)).json().steps).toHaveLength(4)
    // the reads above cost no engine call: only the watch's own polls (the DAG list, the changes) reached it
    expect(exchanges.filter((e) => !e.path.startsWith('/api/v2/dags?') && !e.path.includes('updated_at_gte')).length).toBe(counted)
  })

  it('falls back to the engine once stale, fails as before while the engine is down, and recovers when it returns', async () => {
    // stale after 5 s without an answer: the read just after the engine goes down is within that bound on a busy
    // machine too
    const { stack, engineDown } = await watchedStack({ intervalMs: 50, staleMs: 5000 })
    await commitSite(stack)
    const id = String((await stack.app.inject({ method: 'POST', url: '/api/v1.0/actions', headers: { ...AUTH, 'content-type': 'application/json' }, payload: '{"name":"test_site"}' })).json().id)
    await until('the action running', async () => (await read(stack, `/api/v1.0/actions/${id}`)).json().action_lifecycle === 'Processing')
    await until('a fresh watch', () => stack.watch!.status().fresh)
    engineDown.value = true
    // within the bound the watch still answers
    expect((await read(stack, `/api/v1.0/actions/${id}`)).json().action_lifecycle).toBe('Processing')
    await until('the watch to go stale', () => !stack.watch!.status().fresh)
    const down = await read(stack, `/api/v1.0/actions/${id}`)
    expect(down.statusCode).toBeGreaterThanOrEqual(500)
    expect(down.json()).toMatchObject({ message: 'Downstream failure: engine' })
    expect(stack.watch!.status().errors).toBeGreaterThan(0)
    engineDown.value = false
    await until('the watch to recover', () => stack.watch!.status().fresh, 40_000)
    expect((await read(stack, `/api/v1.0/actions/${id}`)).json().action_lifecycle).toBe('Processing')
  }, 90_000)

  it('lets two orchestrators on one database each answer from their own watch', async () => {
    const { stack } = await watchedStack({ intervalMs: 50, staleMs: 60_000 })
    const other = await stack.orchestrator(stack.repos)
    onTestFinished(async () => { await other.app.close() })
    await commitSite(stack)
    await until('both watches fresh', () => stack.watch!.status().fresh && other.watch!.status().fresh)
    const id = String((await stack.app.inject({ method: 'POST', url: '/api/v1.0/actions', headers: { ...AUTH, 'content-type': 'application/json' }, payload: '{"name":"test_site"}' })).json().id)
    // the other orchestrator answers the action at once (its run read from the engine if its watch has not seen it);
    // the DAG's pause flag it holds may be one poll old (the DAG was unpaused by this create)
    const seen = (await other.app.inject({ url: `/api/v1.0/actions/${id}`, headers: AUTH })).json()
    expect(seen).toMatchObject({ id, dag_id: 'test_site' })
    expect(['Pending', 'Processing', 'Paused']).toContain(seen.action_lifecycle)
    await until('the other orchestrator to see it running', async () => (await other.app.inject({ url: `/api/v1.0/actions/${id}`, headers: AUTH })).json().action_lifecycle === 'Processing')
    expect((await other.app.inject({ method: 'POST', url: `/api/v1.0/actions/${id}/control/stop`, headers: AUTH })).statusCode).toBe(202)
    // the stopping orchestrator reads its own write at once; the first one within its next polls
    expect((await other.app.inject({ url: `/api/v1.0/actions/${id}`, headers: AUTH })).json().action_lifecycle).toBe('Failed')
    await until('the first orchestrator to see it stopped', async () => (await read(stack, `/api/v1.0/actions/${id}`)).json().action_lifecycle === 'Failed')
  })
})
