import { describe, expect, it } from 'vitest'
import { AUTH } from '@slipway/common/testing'
import { buildTestApp, joinUrl } from '../helpers/servers.ts'

describe('GET /api/v1.0/join-scripts parameter order', () => {
  it('answers an invalid leave_kubectl before a missing required parameter, as upstream reads it first', async () => {
    const app = await buildTestApp()
    const res = await app.inject({ url: joinUrl([['leave_kubectl', 'maybe']]), headers: AUTH })
    expect(res.statusCode).toBe(400)
    expect(res.json()).toMatchObject({ message: 'The "leave_kubectl" parameter is invalid: \'maybe\' is not a boolean.', reason: 'Invalid parameter', details: { errorType: 'HTTPInvalidParam' } })
  })

  it('then names the first missing required parameter', async () => {
    const app = await buildTestApp()
    const res = await app.inject({ url: joinUrl([['leave_kubectl', 'True']]), headers: AUTH })
    expect(res.json()).toMatchObject({ message: 'The "design_ref" parameter is required.', details: { errorType: 'HTTPMissingParam' } })
  })
})
