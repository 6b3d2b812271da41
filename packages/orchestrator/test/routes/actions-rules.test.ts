// The actions and notes routes' own rules — input checks, policy, pre-run refusals, error bodies, the answers of a
// list, a read and a control — on the real app over in-memory components (helpers/test-app.ts). Runs in the engine
// are tested on the real stand-ins; the rules of each use case in test/domain/actions/.
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

describe('GET /api/v1.0/actions', () => {
  it('refuses a bad limit or since with 400 and the seed\'s error body, naming the parameter', async () => {
    const t = await buildTestApp()
    for (const query of ['limit=0', 'limit=-1', 'limit=abc', 'limit=1000000', 'limit=1.5', 'limit=']) {
      const res = await t.app.inject({ url: `/api/v1.0/actions?${query}`, headers: AUTH })
      expect(res.statusCode, query).toBe(400)
      expect(res.json()).toMatchObject({ status: 'Failure', code: '400 Bad Request', message: 'Invalid limit parameter' })
    }
    for (const query of ['since=nope', 'since=', 'since=8ZZZZZZZZZZZZZZZZZZZZZZZZZ', 'since=01ARZ3NDEKTSV4RRFFQ69G5FAVX']) {
      const res = await t.app.inject({ url: `/api/v1.0/actions?${query}`, headers: AUTH })
      expect(res.statusCode, query).toBe(400)
      expect(res.json()).toMatchObject({ status: 'Failure', code: '400 Bad Request', message: 'Invalid since parameter' })
    }
    expect((await t.app.inject({ url: '/api/v1.0/actions?verbosity=9', headers: AUTH })).json()).toMatchObject({ message: 'Invalid verbosity parameter' })
  })

  it('sends no ETag when reads go to the engine (no watch), and answers If-None-Match with the whole list', async () => {
    const t = await buildTestApp()
    expect((await create(t, { name: 'test_site' })).statusCode).toBe(201)
    const res = await t.app.inject({ url: '/api/v1.0/actions', headers: { ...AUTH, 'if-none-match': '*' } })
    expect(res.statusCode).toBe(200)
    expect(res.headers.etag).toBeUndefined()
    expect(res.json()).toHaveLength(1)
  })
})

describe('GET /api/v1.0/actions/{id} and its validations, steps and logs', () => {
  it('answers 404 with an error body for an unknown action, step or validation, the logs in Shipyard\'s words; 400 for a malformed id', async () => {
    const t = await buildTestApp()
    const id = String((await create(t, { name: 'test_site' })).json().id)
    const read = async (url: string) => await t.app.inject({ url: `/api/v1.0/actions/${url}`, headers: AUTH })
    const missing = await read('01ARZ3NDEKTSV4RRFFQ69G5FAV')
    expect(missing.statusCode).toBe(404)
    expect(missing.json()).toMatchObject({ status: 'Failure', code: '404 Not Found', message: 'Action not found' })
    expect((await read(`${id}/steps/no_such_step`)).json()).toMatchObject({ code: '404 Not Found', message: 'Step not found' })
    expect((await read(`${id}/validations/01ARZ3NDEKTSV4RRFFQ69G5FAV`)).json()).toMatchObject({ code: '404 Not Found', message: 'Validation not found' })
    expect((await read('01ARZ3NDEKTSV4RRFFQ69G5FAV/steps/action_xcom/logs')).json()).toMatchObject({ message: 'Action Not Found!', code: '404 Not Found' })
    expect((await read(`${id}/steps/no_such_step/logs`)).json()).toMatchObject({ code: '404 Not Found' })
    const badId = await read('short/steps/x/logs')
    expect(badId.statusCode).toBe(400)
    expect(badId.json()).toMatchObject({ message: 'Invalid Action ID!' })
  })
})

describe('POST /api/v1.0/actions/{id}/control/{verb}', () => {
  it('answers 202 with no body when the control is allowed, 409 with an error body when not, 404 for an unknown verb or action', async () => {
    const t = await buildTestApp()
    const id = String((await create(t, { name: 'test_site' })).json().id)
    const control = async (actionId: string, verb: string) =>
      await t.app.inject({ method: 'POST', url: `/api/v1.0/actions/${actionId}/control/${verb}`, headers: AUTH })
    const refused = await control(id, 'pause')
    expect(refused.statusCode).toBe(409)
    expect(refused.json()).toMatchObject({ status: 'Failure', code: '409 Conflict', message: 'Unable to pause action', reason: 'dag_run state must be running, but is queued' })
    const stopped = await control(id, 'stop')
    expect(stopped.statusCode).toBe(202)
    expect(stopped.body).toBe('')
    expect((await control(id, 'reboot')).json()).toMatchObject({ code: '404 Not Found', message: 'Control not supported' })
    expect((await control('01ARZ3NDEKTSV4RRFFQ69G5FAV', 'pause')).statusCode).toBe(404)
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
