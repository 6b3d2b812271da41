// The actions and notes routes' own rules — input checks, policy, pre-run refusals, error bodies — on the real app
// over in-memory components (helpers/test-app.ts). Runs in the engine are tested on the real stand-ins.
import { describe, expect, it } from 'vitest'
import { AUTH, TEST_TOKENS } from '@slipway/common/testing'
import { buildTestApp, type TestApp } from '../helpers/test-app.ts'

const JSON_HEADERS = { ...AUTH, 'content-type': 'application/json' }

async function create (t: TestApp, body: unknown) {
  return await t.app.inject({ method: 'POST', url: '/api/v1.0/actions', headers: JSON_HEADERS, payload: JSON.stringify(body) })
}

describe('POST /api/v1.0/actions', () => {
  it.each([
    [{ name: 'launch_rockets' }, 'Unable to start action'],
    [{ parameters: {} }, 'JSON validation failed: name is required and must be a string'],
    [{ name: 'deploy_site', parameters: null }, 'JSON validation failed: parameters must be an object'],
    [{ name: 'redeploy_server', parameters: {} }, 'Invalid target_nodes parameter'],
    [{ name: 'relabel_nodes', parameters: { target_nodes: [1, 2] } }, 'Invalid target_nodes parameter']
  ])('answers 400 for %j', async (body, message) => {
    const t = await buildTestApp()
    const res = await create(t, body)
    expect(res.statusCode).toBe(400)
    expect(res.json()).toMatchObject({ message, code: '400 Bad Request', status: 'Failure' })
    expect(t.engine.triggered).toEqual([])
  })

  // each item names one node: the engine gets the list joined by commas, so "n1,n3" would act on n1 and n3
  it.each([
    ['relabel_nodes', ['n1,n3'], 'target_nodes item 0 ("n1,n3") holds a comma: each item names one node'],
    ['redeploy_server', ['n1', 'n2 n3'], 'target_nodes item 1 ("n2 n3") holds whitespace: each item names one node'],
    ['relabel_nodes', ['n1', ' n2'], 'target_nodes item 1 (" n2") holds whitespace: each item names one node'],
    ['redeploy_server', ['n1', ''], 'target_nodes item 1 is empty: each item names one node'],
    ['relabel_nodes', 'n1,,n3', 'target_nodes item 1 is empty: each item names one node']
  ])('answers 400 Invalid target_nodes parameter for %s with %j, naming the item', async (name, targetNodes, reason) => {
    const t = await buildTestApp()
    const res = await create(t, { name, parameters: { target_nodes: targetNodes } })
    expect(res.statusCode).toBe(400)
    expect(res.json()).toMatchObject({ message: 'Invalid target_nodes parameter', reason, code: '400 Bad Request', status: 'Failure' })
    expect(await t.repos.actions.list()).toEqual([])
    expect(t.engine.triggered).toEqual([])
  })

  it('answers 400 for a body that is not JSON or missing', async () => {
    const t = await buildTestApp()
    const broken = await t.app.inject({ method: 'POST', url: '/api/v1.0/actions', headers: JSON_HEADERS, payload: '{"name":' })
    expect(broken.statusCode).toBe(400)
    expect(broken.json()).toMatchObject({ message: 'JSON could not be decoded' })
    const none = await t.app.inject({ method: 'POST', url: '/api/v1.0/actions', headers: AUTH })
    expect(none.statusCode).toBe(400)
    expect(none.json()).toMatchObject({ message: 'Json body is required' })
    // a body whose content type is not JSON counts as no body, as Shipyard reads it
    for (const type of ['text/plain', 'application/x-www-form-urlencoded']) {
      const typed = await t.app.inject({ method: 'POST', url: '/api/v1.0/actions', headers: { ...AUTH, 'content-type': type }, payload: '{"name": "test_site"}' })
      expect(typed.statusCode, type).toBe(400)
      expect(typed.json()).toMatchObject({ message: 'Json body is required' })
    }
  })

  it('answers 400 for parameters nested 3,000 deep, before anything is saved or sent to the engine', async () => {
    const t = await buildTestApp()
    const deep = `{"name": "test_site", "parameters": {"p": ${'['.repeat(3000)}${']'.repeat(3000)}}}`
    const res = await t.app.inject({ method: 'POST', url: '/api/v1.0/actions', headers: JSON_HEADERS, payload: deep })
    expect(res.statusCode, res.body).toBe(400)
    expect(res.json()).toMatchObject({
      status: 'Failure',
      code: '400 Bad Request',
      message: 'JSON nested too deeply',
      reason: '/api/v1.0/actions: the body nests objects and arrays more than 64 levels deep; at most 64 are accepted'
    })
    expect(await t.repos.actions.list()).toEqual([])
    expect(t.engine.triggered).toEqual([])
  })

  it('answers 409 with the saved action and its failed validation when nothing is committed; the run does not start', async () => {
    const t = await buildTestApp()
    const res = await create(t, { name: 'deploy_site' })
    expect(res.statusCode).toBe(409)
    const body = res.json()
    expect(body).toMatchObject({ name: 'deploy_site', dag_status: null, action_lifecycle: 'Failed', reason: 'No committed configdocs' })
    expect(body.validations).toHaveLength(1)
    expect(body.validations[0]).toMatchObject({ action_id: body.id, validation_name: 'No committed configdocs' })
    expect(t.engine.triggered).toEqual([])
    const saved = (await t.app.inject({ url: `/api/v1.0/actions/${String(body.id)}`, headers: AUTH })).json()
    expect(saved).toMatchObject({ id: body.id, action_lifecycle: 'Failed', command_audit: [{ command: 'invoke', user: 'admin' }] })
    const validation = await t.app.inject({ url: `/api/v1.0/actions/${String(body.id)}/validations/${String(body.validations[0].id)}`, headers: AUTH })
    expect(validation.json()).toEqual(body.validations[0])
  })

  it('answers 403 when the per-action rule denies', async () => {
    const t = await buildTestApp({ policy: { 'workflow_orchestrator:create_action': 'role:reader', 'workflow_orchestrator:action_test_site': 'role:admin' } })
    const res = await t.app.inject({ method: 'POST', url: '/api/v1.0/actions', headers: { 'x-auth-token': TEST_TOKENS.reader, 'content-type': 'application/json' }, payload: '{"name":"test_site"}' })
    expect(res.statusCode).toBe(403)
    expect(res.json()).toMatchObject({ status: 'Failure', code: '403 Forbidden' })
    expect(await t.repos.actions.list()).toEqual([])
  })
})

describe('GET /api/v1.0/notedetails/{id}', () => {
  it('answers note details: 400 not a ULID, 404 missing or without URL, 200 the text, 500 unreachable', async () => {
    const t = await buildTestApp()
    t.notes.pages['http://notes.test/detail'] = 'the details of the note'
    expect((await t.app.inject({ url: '/api/v1.0/notedetails/nope', headers: AUTH })).json()).toMatchObject({ message: 'Notes ID values are 26 character ULID values' })
    expect((await t.app.inject({ url: '/api/v1.0/notedetails/01ARZ3NDEKTSV4RRFFQ69G5FAV', headers: AUTH })).json()).toMatchObject({ message: 'No note found' })
    const base = { subject: 's', sub_type: 'Linked Task Info', note_val: 'v', verbosity: 5, is_auth_link: false, note_timestamp: new Date().toISOString() }
    await t.repos.notes.insert({ ...base, note_id: '01ARZ3NDEKTSV4RRFFQ69G5FA1', assoc_id: 'other/x', link_url: null })
    await t.repos.notes.insert({ ...base, note_id: '01ARZ3NDEKTSV4RRFFQ69G5FA2', assoc_id: 'other/x', link_url: 'http://notes.test/detail' })
    await t.repos.notes.insert({ ...base, note_id: '01ARZ3NDEKTSV4RRFFQ69G5FA3', assoc_id: 'other/x', link_url: 'http://127.0.0.1:1/gone' })
    expect((await t.app.inject({ url: '/api/v1.0/notedetails/01ARZ3NDEKTSV4RRFFQ69G5FA1', headers: AUTH })).json()).toMatchObject({ message: 'No further note details are available' })
    const ok = await t.app.inject({ url: '/api/v1.0/notedetails/01ARZ3NDEKTSV4RRFFQ69G5FA2', headers: AUTH })
    expect(ok.statusCode).toBe(200)
    expect(ok.headers['content-type']).toMatch(/^text\/plain/)
    expect(ok.body).toBe('the details of the note')
    // Crockford base 32 is case-insensitive: the same note by its id in lower case
    const lower = await t.app.inject({ url: '/api/v1.0/notedetails/01arz3ndektsv4rrffq69g5fa2', headers: AUTH })
    expect(lower.statusCode).toBe(200)
    expect(lower.body).toBe(ok.body)
    const gone = await t.app.inject({ url: '/api/v1.0/notedetails/01ARZ3NDEKTSV4RRFFQ69G5FA3', headers: AUTH })
    expect(gone.statusCode).toBe(500)
    expect(gone.json()).toMatchObject({ message: 'Unable to retrieve URL information for note' })
  })
})
