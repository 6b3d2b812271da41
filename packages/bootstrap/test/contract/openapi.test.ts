// Contract test: the served GET /api/v1.0/openapi.json against real answers. Every route answers the statuses the
// route tests exercise, and each answer's body must match what the document says of that status, so the
// document cannot drift from the code.
import { describe, expect, it } from 'vitest'
import { openApiChecker, type OpenApiDocument } from '@slipway/airflow-contract/testing'
import { AUTH, TEST_TOKENS } from '@slipway/common/testing'
import { buildTestApp, joinUrl, setupJoin } from '../helpers/servers.ts'

const API = '/api/v1.0'
const JSON_HEADERS = { ...AUTH, 'content-type': 'application/json' }
type App = Awaited<ReturnType<typeof buildTestApp>>

describe('the bootstrap service\'s OpenAPI document', () => {
  it('is served without a token and describes every answer of every route', async () => {
    const { app, href } = await setupJoin()
    const served = await app.inject({ url: `${API}/openapi.json` })
    expect(served.statusCode).toBe(200)
    const doc = served.json() as OpenApiDocument & { openapi: string }
    expect(doc.openapi).toBe('3.1.0')
    const contract = openApiChecker([{ id: 'bootstrap', doc }])
    const call = async (status: number, method: 'GET' | 'POST' | 'PUT', url: string, options: { app?: App, headers?: Record<string, string>, payload?: string } = {}) => {
      const res = await (options.app ?? app).inject({ method, url, headers: options.headers ?? AUTH, payload: options.payload })
      expect(res.statusCode, `${method} ${url}: ${res.body.slice(0, 300)}`).toBe(status)
      const type = res.headers['content-type']
      const body: unknown = String(type ?? '').startsWith('application/json') ? res.json() : res.body
      const contentType = type === undefined ? undefined : String(type)
      contract.response(method, url, { status: res.statusCode, body, text: res.body, contentType })
    }

    await call(200, 'GET', '/versions')
    await call(204, 'GET', `${API}/health`)
    await call(200, 'GET', `${API}/`)

    const join = [['design_ref', href], ['hostname', 'n1'], ['ip', '192.168.77.11']] as Array<[string, string]>
    await call(200, 'GET', joinUrl(join))
    await call(400, 'GET', joinUrl(join.slice(0, 2)))
    await call(400, 'GET', joinUrl([...join, ['leave_kubectl', 'maybe']]))
    await call(400, 'GET', joinUrl([...join, ['labels.dynamic', 'novalue']]))
    await call(401, 'GET', joinUrl(join), { headers: {} })

    await call(200, 'POST', `${API}/validatedesign`, { headers: JSON_HEADERS, payload: JSON.stringify({ rel: 'design', href, type: 'application/x-yaml' }) })
    await call(400, 'POST', `${API}/validatedesign`, { headers: JSON_HEADERS, payload: '{"href":' })
    await call(400, 'POST', `${API}/validatedesign`, { headers: { ...AUTH, 'content-type': 'application/x-yaml' }, payload: 'href: x' })
    await call(403, 'POST', `${API}/validatedesign`, { headers: { 'x-auth-token': TEST_TOKENS.reader } })

    await call(200, 'PUT', `${API}/node-labels/n1`, { headers: JSON_HEADERS, payload: '{"a":"1"}' })
    await call(400, 'PUT', `${API}/node-labels/n1`, { headers: JSON_HEADERS, payload: '{"a":1}' })
    await call(404, 'PUT', `${API}/node-labels/nX`, { headers: JSON_HEADERS, payload: '{}' })
    await call(502, 'PUT', `${API}/node-labels/n1`, { app: await buildTestApp(), headers: JSON_HEADERS, payload: '{}' })
    await call(503, 'PUT', `${API}/node-labels/n1`, { app: await buildTestApp({ kubeUrl: 'http://127.0.0.1:1' }), headers: JSON_HEADERS, payload: '{}' })

    expect(() => contract.response('POST', `${API}/validatedesign`, { status: 400, body: { message: 'x' }, text: '{"message":"x"}' })).toThrow(/does not match the contract/)
    const answered = new Set([...contract.seen].map((s) => s.replace(/ \d+$/, '')))
    expect(contract.operations().filter((op) => !answered.has(op))).toEqual([])
  }, 60_000)
})
