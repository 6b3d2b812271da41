// A small body whose aliases expand a hundredfold: the store copies every alias when it reads the body and writes
// the copies, so such a body is refused with a 413 before anything is written, however few aliases it has.
import { describe, expect, it } from 'vitest'
import { AUTH, isErrorBody } from '@slipway/common/testing'
import { loadConfig } from '../../src/config.ts'
import { buildTestApp } from '../helpers/test-app.ts'

const YAML = { ...AUTH, 'content-type': 'application/x-yaml' }
const LIMIT = 1_000_000

/** A collection of one document whose data holds one anchored string of `size` characters and `copies` aliases. */
function amplified (size: number, copies: number): string {
  return `---
schema: example/Big/v1
metadata:
  schema: metadata/Document/v1
  name: big
  layeringDefinition: {abstract: false, layer: site}
  storagePolicy: cleartext
data:
  value: &big ${'x'.repeat(size)}
  copies: [${Array.from({ length: copies }, () => '*big').join(', ')}]
`
}

describe('POST /api/v1.0/configdocs/{collection_id}: documents bounded in their expanded size', () => {
  it('refuses a body whose 99 aliases of one anchored value expand past the limit with a 413, before anything is written', async () => {
    const stack = await buildTestApp({ env: { EXPANDED_BODY_LIMIT_BYTES: String(LIMIT) } })
    const body = amplified(100_000, 99)
    expect(body.length).toBeLessThan(150_000)
    const res = await stack.app.inject({ method: 'POST', url: '/api/v1.0/configdocs/big', headers: YAML, payload: body })
    expect(res.statusCode, res.body).toBe(413)
    expect(isErrorBody(res.json())).toBe(true)
    expect(res.json()).toMatchObject({
      message: 'Documents too large once their aliases are expanded',
      reason: `The documents of collection big take more than ${LIMIT} bytes with every YAML alias replaced by a copy of what it names (the body is ${body.length} bytes)`
    })
    expect(stack.store.revisions).toEqual([])
    const status = await stack.app.inject({ method: 'GET', url: '/api/v1.0/configdocs', headers: AUTH })
    expect(status.json()).toEqual([])
  })

  it('stages the same anchored value referenced a few times, within the limit', async () => {
    const stack = await buildTestApp({ env: { EXPANDED_BODY_LIMIT_BYTES: String(LIMIT) } })
    const res = await stack.app.inject({ method: 'POST', url: '/api/v1.0/configdocs/big', headers: YAML, payload: amplified(100_000, 3) })
    expect(res.statusCode, res.body).toBe(201)
    expect(stack.store.revisions).toHaveLength(1)
  })

  it('bounds the expanded size by default at twice the body limit, the most the store takes in one body', () => {
    const config = loadConfig({})
    expect(config.EXPANDED_BODY_LIMIT_BYTES).toBe(33_554_432)
    expect(config.EXPANDED_BODY_LIMIT_BYTES).toBe(2 * config.BODY_LIMIT_BYTES)
    expect(loadConfig({ EXPANDED_BODY_LIMIT_BYTES: '1000' }).EXPANDED_BODY_LIMIT_BYTES).toBe(1000)
  })
})
