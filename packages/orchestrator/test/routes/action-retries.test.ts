// POST /actions sent again with the same X-Context-Marker: the same caller — the same user id in the same project —
// gets the action its first request made, said to be a replay and with its state now; a caller that only shares the
// user name (another project, another domain's user of that name) makes its own action.
import { describe, expect, it } from 'vitest'
import { createStaticAuthenticator } from '@slipway/common'
import { TEST_AUTH_URI } from '@slipway/common/testing'
import { buildTestApp, type TestApp } from '../helpers/test-app.ts'

const MARKER = '0f6c3a52-6b7e-4c1a-9d2e-5a8b7c6d4e3f'
// one user name, "ops": the same user in two projects, and another user of that name (another domain) in the first
const TOKENS = { a: 'ops-in-alpha', b: 'ops-in-beta', c: 'other-ops-in-alpha' }
const authenticator = createStaticAuthenticator({
  authUri: TEST_AUTH_URI,
  tokens: {
    [TOKENS.a]: { user: 'ops', user_id: 'u-ops', project: 'alpha', project_id: 'p-alpha', roles: ['admin'] },
    [TOKENS.b]: { user: 'ops', user_id: 'u-ops', project: 'beta', project_id: 'p-beta', roles: ['admin'] },
    [TOKENS.c]: { user: 'ops', user_id: 'u-ops-2', project: 'alpha', project_id: 'p-alpha', roles: ['admin'] }
  }
})

async function create (t: TestApp, token: string, marker = MARKER) {
  return await t.app.inject({
    method: 'POST',
    url: '/api/v1.0/actions',
    headers: { 'x-auth-token': token, 'x-context-marker': marker, 'content-type': 'application/json' },
    payload: JSON.stringify({ name: 'test_site', parameters: { release: 'ingress' } })
  })
}

describe('POST /api/v1.0/actions sent again with the same X-Context-Marker', () => {
  it('makes one action per caller: one user name in two projects, or two users of one name, never get each other\'s', async () => {
    const t = await buildTestApp({ authenticator })
    const first = await create(t, TOKENS.a)
    expect(first.statusCode, first.body).toBe(201)
    expect(first.json()).toMatchObject({ name: 'test_site', user: 'ops', context_marker: MARKER, dag_status: 'SCHEDULED' })
    // a fresh create answers the interface's body: nothing of a replay
    expect(first.json()).not.toHaveProperty('replayed')
    expect(first.json()).not.toHaveProperty('action_lifecycle')
    const otherProject = await create(t, TOKENS.b)
    const otherUser = await create(t, TOKENS.c)
    for (const res of [otherProject, otherUser]) {
      expect(res.statusCode, res.body).toBe(201)
      expect(res.json()).toMatchObject({ user: 'ops', dag_status: 'SCHEDULED' })
      expect(res.json()).not.toHaveProperty('replayed')
    }
    const ids = [first, otherProject, otherUser].map((r) => String(r.json().id))
    expect(new Set(ids).size).toBe(3)
    expect(t.engine.triggered.map((r) => r.dag_run_id)).toEqual(ids)
    // each caller's own retry is its own action, and starts no run
    const again = await Promise.all([TOKENS.a, TOKENS.b, TOKENS.c].map(async (token) => await create(t, token)))
    expect(again.map((r) => r.statusCode)).toEqual([201, 201, 201])
    expect(again.map((r) => r.json().id)).toEqual(ids)
    expect(again.map((r) => r.json().replayed)).toEqual([true, true, true])
    expect(t.engine.triggered).toHaveLength(3)
  })

  it('says a retry after the action ended is a replay, with the run\'s state now, not SCHEDULED', async () => {
    const t = await buildTestApp({ authenticator })
    const first = await create(t, TOKENS.a)
    expect(first.statusCode).toBe(201)
    const id = String(first.json().id)
    const running = await create(t, TOKENS.a)
    expect(running.statusCode).toBe(201)
    expect(running.headers.location).toBe(`/api/v1.0/actions/${id}`)
    expect(running.json()).toEqual({
      ...first.json(),
      dag_status: 'queued',
      replayed: true,
      action_lifecycle: 'Pending',
      start_status: 'started'
    })
    // the run ends
    await t.engine.client.setRunState('test_site', id, 'success', {})
    const ended = await create(t, TOKENS.a)
    expect(ended.statusCode).toBe(201)
    expect(ended.json()).toEqual({
      ...first.json(),
      dag_status: 'success',
      replayed: true,
      action_lifecycle: 'Complete',
      start_status: 'started'
    })
    expect((await t.app.inject({ url: `/api/v1.0/actions/${id}`, headers: { 'x-auth-token': TOKENS.a } })).json())
      .toMatchObject({ dag_status: 'success', action_lifecycle: 'Complete' })
    expect(t.engine.triggered).toHaveLength(1)
  })
})
