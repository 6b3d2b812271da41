// The JSON depth bound of every service's JSON bodies (common's body reader) holds in the bootstrap service too:
// a body nested 3,000 deep is a 400 in each route's own error shape, refused before any design is fetched or any
// node is labelled.
import { describe, expect, it } from 'vitest'
import { AUTH, isErrorBody } from '@slipway/common/testing'
import { JSON_MAX_DEPTH } from '@slipway/common'
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
