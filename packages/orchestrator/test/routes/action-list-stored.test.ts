// GET /actions with the runs that ended for good taken from the orchestrator's database: an orchestrator whose watch
// holds nothing of them answers the very same bytes as one whose watch holds them whole.
import { describe, expect, it } from 'vitest'
import { AUTH } from '@slipway/common/testing'
import { buildTestStack, GLOBAL_YAML, SITE_YAML } from '../helpers/stack.ts'

const YAML = { ...AUTH, 'content-type': 'application/x-yaml' }

async function until (what: string, probe: () => boolean | Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!await probe()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

describe('GET /actions from stored run summaries', () => {
  it('answers the same bytes from a watch that holds no ended run as from one that holds them whole', async () => {
    const stack = await buildTestStack({ watch: { intervalMs: 50, staleMs: 60_000 } })
    await stack.app.inject({ method: 'POST', url: '/api/v1.0/configdocs/global', headers: YAML, payload: GLOBAL_YAML })
    await stack.app.inject({ method: 'POST', url: '/api/v1.0/configdocs/site?buffermode=append', headers: YAML, payload: SITE_YAML })
    expect((await stack.app.inject({ method: 'POST', url: '/api/v1.0/commitconfigdocs', headers: AUTH })).statusCode).toBe(200)
    const json = { ...AUTH, 'content-type': 'application/json' }
    for (let i = 0; i < 2; i++) {
      expect((await stack.app.inject({ method: 'POST', url: '/api/v1.0/actions', headers: json, payload: '{"name":"test_site"}' })).statusCode).toBe(201)
    }
    const list = async (app: typeof stack.app) => await app.inject({ url: '/api/v1.0/actions?verbosity=2', headers: AUTH })
    await until('both actions to end', async () =>
      (await list(stack.app)).json().every((a: { action_lifecycle: string }) => a.action_lifecycle === 'Complete' || a.action_lifecycle === 'Failed'))
    // the first orchestrator holds the runs whole (they ended a moment ago)
    const held = await list(stack.app)
    expect(stack.watch!.status().held).toBe(2)
    // a second one on the same database: its first poll writes the ended runs' summaries and holds nothing of them
    const second = await stack.orchestrator(stack.repos)
    await until('the second watch to poll', () => second.watch!.status().fresh)
    expect(second.watch!.status().held).toBe(0)
    const stored = await list(second.app)
    expect(stored.statusCode).toBe(200)
    expect(stored.body).toBe(held.body)
    expect(stored.json()).toHaveLength(2)
    // one action's answer, its run read from the database and its steps from the engine, is the same too
    const id = String(held.json()[0].id)
    const one = async (app: typeof stack.app) => (await app.inject({ url: `/api/v1.0/actions/${id}`, headers: AUTH })).json()
    expect(await one(second.app)).toEqual(await one(stack.app))
  })
})
