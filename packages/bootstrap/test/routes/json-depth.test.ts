// The JSON depth bound of every service's JSON bodies (common's body reader) holds in the bootstrap service too:
// a body nested 3,000 deep is a 400 in each route's own error shape, refused before any design is fetched or any
// node is labelled. The bound is the service's own setting, JSON_MAX_DEPTH.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it, onTestFinished } from 'vitest'
import { AUTH, TEST_TOKENS, isErrorBody } from '@slipway/common/testing'
import { JSON_MAX_DEPTH } from '@slipway/common'
import { loadConfig } from '../../src/config.ts'
import { createDeps } from '../../src/deps.ts'
import { buildApp } from '../../src/app.ts'
import { buildTestApp, clusterNodes, startKube } from '../helpers/servers.ts'

const JSON_HEADERS = { ...AUTH, 'content-type': 'application/json' }
const DEEP = `{"a": ${'['.repeat(3000)}${']'.repeat(3000)}}`

describe('JSON bodies nested too deep', () => {
  it('POST /validatedesign answers 400 as a validation Status body, naming the bound', async () => {
    const app = await buildTestApp()
    const res = await app.inject({ method: 'POST', url: '/api/v1.0/validatedesign', headers: JSON_HEADERS, payload: DEEP })
    expect(res.statusCode).toBe(400)
    expect(res.json()).toMatchObject({ kind: 'Status', status: 'Failure', code: '400 Bad Request', details: { errorCount: 1 } })
    expect(res.json().details.messageList[0]).toMatchObject({
      name: 'JSON nested too deeply',
      error: true,
      message: `/api/v1.0/validatedesign: the body nests objects and arrays more than ${JSON_MAX_DEPTH} levels deep; at most ${JSON_MAX_DEPTH} are accepted`
    })
  })

  it('PUT /node-labels/{node} answers 400 with an error body and labels nothing', async () => {
    const kube = await startKube(clusterNodes())
    const app = await buildTestApp({ kubeUrl: kube.url })
    const res = await app.inject({ method: 'PUT', url: '/api/v1.0/node-labels/n1', headers: JSON_HEADERS, payload: DEEP })
    expect(res.statusCode).toBe(400)
    expect(isErrorBody(res.json())).toBe(true)
    expect(res.json()).toMatchObject({ message: 'JSON nested too deeply', reason: expect.stringContaining(`more than ${JSON_MAX_DEPTH} levels deep`) })
    expect(kube.patches).toEqual([])
  })
})

/** The service as its server wires it from `env`, on a Kubernetes fixture: configuration, deps, app. */
async function configured (env: Record<string, string>) {
  const dir = mkdtempSync(join(tmpdir(), 'bootstrap-depth-'))
  const tokens = join(dir, 'tokens.yaml')
  writeFileSync(tokens, `tokens:\n  ${TEST_TOKENS.admin}: {user: admin, roles: [admin]}\n`)
  const kube = await startKube(clusterNodes())
  const deps = createDeps(loadConfig({ AUTH_TOKENS_FILE: tokens, STORE_URL: 'http://127.0.0.1:1/api/v1.0', KUBE_API_URL: kube.url, LOG_LEVEL: 'silent', ...env }))
  const app = await buildApp({ ...deps, logger: false })
  onTestFinished(async () => { await app.close(); rmSync(dir, { recursive: true, force: true }) })
  return { app, kube }
}

describe('JSON_MAX_DEPTH', () => {
  it('is 64 unless set, and a bound below 1 or not a whole number stops the start naming the variable', () => {
    expect(loadConfig({}).JSON_MAX_DEPTH).toBe(64)
    expect(loadConfig({ JSON_MAX_DEPTH: '3' }).JSON_MAX_DEPTH).toBe(3)
    for (const bad of ['0', '2.5', 'deep']) expect(() => loadConfig({ JSON_MAX_DEPTH: bad }), bad).toThrow(/JSON_MAX_DEPTH/)
  })

  it('bounds the service\'s JSON bodies at its own setting: at 3, a body 4 deep is refused and one 3 deep is read', async () => {
    const { app, kube } = await configured({ JSON_MAX_DEPTH: '3' })
    const put = async (payload: string) => await app.inject({ method: 'PUT', url: '/api/v1.0/node-labels/n1', headers: JSON_HEADERS, payload })
    const tooDeep = await put('{"a": [[["1"]]]}')
    expect(tooDeep.statusCode).toBe(400)
    expect(isErrorBody(tooDeep.json())).toBe(true)
    expect(tooDeep.json()).toMatchObject({ message: 'JSON nested too deeply', reason: expect.stringContaining('more than 3 levels deep; at most 3 are accepted') })
    // 3 deep passes the bound and reaches the route's own check: labels are strings
    const deepEnough = await put('{"a": [["1"]]}')
    expect(deepEnough.statusCode).toBe(400)
    expect(deepEnough.json().message).not.toBe('JSON nested too deeply')
    expect(kube.patches).toEqual([])
    const flat = await put('{"a": "3"}')
    expect(flat.statusCode, flat.body).toBe(200)
    expect(kube.patches).toHaveLength(1)

    const validation = await app.inject({ method: 'POST', url: '/api/v1.0/validatedesign', headers: JSON_HEADERS, payload: '{"rel": [[["design"]]]}' })
    expect(validation.statusCode).toBe(400)
    expect(validation.json().details.messageList[0]).toMatchObject({ name: 'JSON nested too deeply', error: true, message: expect.stringContaining('at most 3 are accepted') })
  })

  it('lets a service allow deeper bodies than the default: at 100, a body 70 deep reaches the route', async () => {
    const { app } = await configured({ JSON_MAX_DEPTH: '100' })
    const payload = `{"a": ${'['.repeat(69)}${']'.repeat(69)}}`
    const res = await app.inject({ method: 'PUT', url: '/api/v1.0/node-labels/n1', headers: JSON_HEADERS, payload })
    expect(res.statusCode).toBe(400)
    expect(res.json().message).not.toBe('JSON nested too deeply')
    const refused = await (await configured({})).app.inject({ method: 'PUT', url: '/api/v1.0/node-labels/n1', headers: JSON_HEADERS, payload })
    expect(refused.json()).toMatchObject({ message: 'JSON nested too deeply', reason: expect.stringContaining('more than 64 levels deep') })
  })
})
