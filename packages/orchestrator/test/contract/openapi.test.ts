// Contract test: the served GET /api/v1.0/openapi.json against real answers. Every route answers the statuses the
// route tests exercise, and each answer's body must match what the document says of that status, so the
// document cannot drift from the code.
import { describe, expect, it } from 'vitest'
import { openApiChecker, type OpenApiDocument } from '@slipway/airflow-contract/testing'
import { AUTH, TEST_TOKENS } from '@slipway/common/testing'
import { buildTestStack, GLOBAL_YAML, SITE_YAML } from '../helpers/stack.ts'

const API = '/api/v1.0'
const YAML = { ...AUTH, 'content-type': 'application/x-yaml' }
const JSON_HEADERS = { ...AUTH, 'content-type': 'application/json' }

describe('the orchestrator\'s OpenAPI document', () => {
  it('is served without a token and describes every answer of every route', async () => {
    const stack = await buildTestStack()
    const served = await stack.app.inject({ url: `${API}/openapi.json` })
    expect(served.statusCode).toBe(200)
    const doc = served.json() as OpenApiDocument & { openapi: string }
    expect(doc.openapi).toBe('3.1.0')
    const contract = openApiChecker([{ id: 'orchestrator', doc }])
    const call = async (status: number, method: 'GET' | 'POST', url: string, options: { headers?: Record<string, string>, payload?: string } = {}) => {
      const res = await stack.app.inject({ method, url, headers: options.headers ?? AUTH, payload: options.payload })
      expect(res.statusCode, `${method} ${url}: ${res.body.slice(0, 300)}`).toBe(status)
      const type = res.headers['content-type']
      const body: unknown = String(type ?? '').startsWith('application/json') ? res.json() : res.body
      const contentType = type === undefined ? undefined : String(type)
      contract.response(method, url, { status: res.statusCode, body, text: res.body, contentType })
      return body as Record<string, any>
    }

    await call(200, 'GET', '/versions')
    await call(204, 'GET', `${API}/health`)
    await call(200, 'GET', `${API}/`)

    // configuration documents
    await call(200, 'GET', `${API}/configdocs`)
    await call(400, 'GET', `${API}/configdocs?version=committed`)
    await call(404, 'GET', `${API}/configdocs?version=committed,last_site_action`)
    await call(401, 'GET', `${API}/configdocs`, { headers: {} })
    const refused = await call(409, 'POST', `${API}/actions`, { headers: JSON_HEADERS, payload: '{"name":"deploy_site"}' })
    await call(201, 'POST', `${API}/configdocs/global`, { headers: YAML, payload: GLOBAL_YAML })
    await call(409, 'POST', `${API}/configdocs/site`, { headers: YAML, payload: SITE_YAML })
    await call(400, 'POST', `${API}/configdocs/site?buffermode=sideways`, { headers: YAML, payload: SITE_YAML })
    await call(400, 'POST', `${API}/configdocs/site?buffermode=append`, { headers: YAML })
    await call(413, 'POST', `${API}/configdocs/big`, { headers: YAML, payload: 'a: ' + 'x'.repeat(300 * 1024) })
    await call(201, 'POST', `${API}/configdocs/site?buffermode=append`, { headers: YAML, payload: SITE_YAML })
    await call(200, 'GET', `${API}/configdocs/site`)
    await call(404, 'GET', `${API}/configdocs/site?version=committed`)
    await call(400, 'GET', `${API}/configdocs/site?version=tomorrow`)
    await call(403, 'GET', `${API}/configdocs/site`, { headers: { 'x-auth-token': TEST_TOKENS.reader } })
    await call(200, 'GET', `${API}/renderedconfigdocs?cleartext-secrets=true`)
    await call(400, 'GET', `${API}/renderedconfigdocs?cleartext-secrets=maybe`)
    stack.validatorMode.current = 'fail'
    await call(400, 'POST', `${API}/commitconfigdocs`)
    await call(200, 'POST', `${API}/commitconfigdocs?dryrun=true`)
    stack.validatorMode.current = 'pass'
    await call(200, 'POST', `${API}/commitconfigdocs`)
    await call(409, 'POST', `${API}/commitconfigdocs`)
    await call(400, 'POST', `${API}/commitconfigdocs?force=maybe`)

    // actions, steps, logs and control
    await call(400, 'POST', `${API}/actions`, { headers: JSON_HEADERS, payload: '{"name":' })
    await call(400, 'POST', `${API}/actions`, { headers: JSON_HEADERS, payload: '{"name":"launch_rockets"}' })
    const created = await call(201, 'POST', `${API}/actions`, { headers: JSON_HEADERS, payload: '{"name":"deploy_site"}' })
    const id = String(created.id)
    // the pause below is refused only once the run has ended: wait for that, bounded, failing if it never does
    const deadline = Date.now() + 45_000
    for (;;) {
      const action = await call(200, 'GET', `${API}/actions/${id}?verbosity=5`)
      if (['Complete', 'Failed'].includes(String(action.action_lifecycle))) break
      if (Date.now() > deadline) throw new Error(`deploy_site ${id} did not end within 45 s (${String(action.action_lifecycle)})`)
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    await call(200, 'GET', `${API}/actions`)
    await call(400, 'GET', `${API}/actions?verbosity=9`)
    await call(404, 'GET', `${API}/actions/01ARZ3NDEKTSV4RRFFQ69G5FAV`)
    await call(200, 'GET', `${API}/actions/${String(refused.id)}/validations/${String(refused.validations[0].id)}`)
    await call(404, 'GET', `${API}/actions/${id}/validations/01ARZ3NDEKTSV4RRFFQ69G5FAV`)
    await call(200, 'GET', `${API}/actions/${id}/steps/action_xcom`)
    await call(404, 'GET', `${API}/actions/${id}/steps/no_such_step`)
    await call(200, 'GET', `${API}/actions/${id}/steps/action_xcom/logs`)
    await call(400, 'GET', `${API}/actions/short/steps/x/logs`)
    await call(400, 'GET', `${API}/actions/${id}/steps/action_xcom/logs?try=x`)
    await call(404, 'GET', `${API}/actions/${id}/steps/action_xcom/logs?try=3`)
    await call(409, 'POST', `${API}/actions/${id}/control/pause`)
    await call(404, 'POST', `${API}/actions/${id}/control/reboot`)

    // workflows, site statuses, notes
    const workflows = await call(200, 'GET', `${API}/workflows?since=P1D`) as unknown as Array<{ workflow_id: string }>
    await call(400, 'GET', `${API}/workflows?since=yesterday`)
    await call(200, 'GET', `${API}/workflows/${workflows[0]?.workflow_id ?? ''}`)
    await call(400, 'GET', `${API}/workflows/nounderscores`)
    await call(404, 'GET', `${API}/workflows/deploy_site__2001-01-01T00:00:00.000000`)
    // a run no action has, held queued (its workflow paused): listed with why, and stopped through its workflow; the
    // action's own run is stopped only through the action
    await call(409, 'POST', `${API}/workflows/${workflows.find((w) => w.workflow_id.startsWith('deploy_site__'))?.workflow_id ?? ''}/control/stop`)
    await stack.engineClient.setPaused('test_site', true, {})
    await stack.engineClient.trigger('test_site', 'manual__contract', {})
    const orphans = await call(200, 'GET', `${API}/workflows?orphans=true`) as unknown as Array<{ workflow_id: string, run_id: string }>
    await call(202, 'POST', `${API}/workflows/${orphans.find((w) => w.run_id === 'manual__contract')?.workflow_id ?? ''}/control/stop`)
    await call(404, 'POST', `${API}/workflows/deploy_site__2001-01-01T00:00:00.000000/control/stop`)
    await call(200, 'GET', `${API}/site_statuses`)
    await call(400, 'GET', `${API}/site_statuses?filters=weather`)
    const base = { subject: 's', sub_type: 'Linked Task Info', note_val: 'v', verbosity: 5, is_auth_link: false, note_timestamp: new Date().toISOString(), assoc_id: 'other/x' }
    await stack.repos.notes.insert({ ...base, note_id: '01ARZ3NDEKTSV4RRFFQ69G5FA2', link_url: `${stack.store.url}/revisions` })
    await stack.repos.notes.insert({ ...base, note_id: '01ARZ3NDEKTSV4RRFFQ69G5FA3', link_url: 'http://127.0.0.1:1/gone' })
    await call(200, 'GET', `${API}/notedetails/01ARZ3NDEKTSV4RRFFQ69G5FA2`)
    await call(400, 'GET', `${API}/notedetails/nope`)
    await call(404, 'GET', `${API}/notedetails/01ARZ3NDEKTSV4RRFFQ69G5FAV`)
    await call(500, 'GET', `${API}/notedetails/01ARZ3NDEKTSV4RRFFQ69G5FA3`)
    await stack.site.close()
    await call(503, 'GET', `${API}/site_statuses`)

    // the checker refuses what the document does not say
    expect(() => contract.response('GET', `${API}/actions`, { status: 200, body: [{ id: 1 }], text: '[{"id":1}]' })).toThrow(/does not match the contract/)
    expect(() => contract.response('GET', `${API}/notedetails/x`, { status: 200, body: {}, text: '{}', contentType: 'application/json' })).toThrow(/the contract says text\/plain/)
    const answered = new Set([...contract.seen].map((s) => s.replace(/ \d+$/, '')))
    expect(contract.operations().filter((op) => !answered.has(op))).toEqual([])
  }, 120_000)
})
