// GET /actions for a long history: the seed's plain answer unchanged; an ETag while the engine watch is fresh and a
// 304 to If-None-Match while nothing a list shows changed; this service's window (`limit`, `since`). Its 400s and the
// answer without a watch: actions-rules.test.ts.
import { describe, expect, it } from 'vitest'
import { AUTH } from '@slipway/common/testing'
import { buildTestStack } from '../helpers/stack.ts'

type Stack = Awaited<ReturnType<typeof buildTestStack>>
const JSON_HEADERS = { ...AUTH, 'content-type': 'application/json' }

const read = async (stack: Stack, url: string, headers: Record<string, string> = {}) =>
  await stack.app.inject({ url, headers: { ...AUTH, ...headers } })

async function until (what: string, probe: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!await probe()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

/** Creates test_site actions one after another and waits for all of them to end; their ids, oldest first. */
async function finishedActions (stack: Stack, count: number): Promise<string[]> {
  const ids: string[] = []
  for (let i = 0; i < count; i++) {
    const res = await stack.app.inject({ method: 'POST', url: '/api/v1.0/actions', headers: JSON_HEADERS, payload: '{"name":"test_site"}' })
    expect(res.statusCode).toBe(201)
    ids.push(String(res.json().id))
  }
  await until('every action to end', async () => (await read(stack, '/api/v1.0/actions')).json()
    .every((a: { action_lifecycle: string }) => a.action_lifecycle === 'Complete' || a.action_lifecycle === 'Failed'))
  return ids
}

/** The list's ETag once two reads in a row give the same one: the watch has seen everything the engine did. */
async function settledTag (stack: Stack, url: string): Promise<string> {
  let last = ''
  await until('a settled ETag', async () => {
    const tag = String((await read(stack, url)).headers.etag)
    const same = tag === last
    last = tag
    return same
  })
  return last
}

describe('GET /api/v1.0/actions at scale', () => {
  it('answers 304 to If-None-Match while nothing changed, and 200 with the new list and a new ETag after a change', async () => {
    const stack = await buildTestStack({ watch: { intervalMs: 50, staleMs: 60_000 } })
    const [first] = await finishedActions(stack, 1)
    const tag = await settledTag(stack, '/api/v1.0/actions')
    expect(tag).toMatch(/^W\/".+"$/)
    const full = await read(stack, '/api/v1.0/actions')
    expect(full.statusCode).toBe(200)
    expect(full.headers.etag).toBe(tag)

    const notModified = await read(stack, '/api/v1.0/actions', { 'if-none-match': tag })
    expect(notModified.statusCode).toBe(304)
    expect(notModified.body).toBe('')
    expect(notModified.headers.etag).toBe(tag)
    // another tag among several, or *, matches as well; another query's tag does not
    expect((await read(stack, '/api/v1.0/actions', { 'if-none-match': `W/"other", ${tag}` })).statusCode).toBe(304)
    expect((await read(stack, '/api/v1.0/actions', { 'if-none-match': '*' })).statusCode).toBe(304)
    expect((await read(stack, '/api/v1.0/actions?limit=1', { 'if-none-match': tag })).statusCode).toBe(200)
    expect((await read(stack, '/api/v1.0/actions?verbosity=0', { 'if-none-match': tag })).statusCode).toBe(200)

    const [second] = await finishedActions(stack, 1)
    const changed = await read(stack, '/api/v1.0/actions', { 'if-none-match': tag })
    expect(changed.statusCode).toBe(200)
    expect(changed.headers.etag).not.toBe(tag)
    expect(changed.json().map((a: { id: string }) => a.id)).toEqual([first, second])
  })

  it('keeps the seed\'s plain answer: the whole list, oldest first, the same as a window holding everything', async () => {
    const stack = await buildTestStack({ watch: { intervalMs: 50, staleMs: 60_000 } })
    const ids = await finishedActions(stack, 3)
    await settledTag(stack, '/api/v1.0/actions')
    const plain = await read(stack, '/api/v1.0/actions')
    expect(plain.statusCode).toBe(200)
    expect(plain.headers['content-type']).toBe('application/json; charset=utf-8')
    expect(plain.json().map((a: { id: string }) => a.id)).toEqual(ids)
    expect(plain.json()[0]).toMatchObject({ name: 'test_site', dag_id: 'test_site', start_status: 'started', user: 'admin' })
    expect((await read(stack, '/api/v1.0/actions?limit=999999')).body).toBe(plain.body)
  })

  it('answers a window: the newest `limit` actions, those created after `since`, both, in the list\'s order', async () => {
    const stack = await buildTestStack({ watch: { intervalMs: 50, staleMs: 60_000 } })
    const ids = await finishedActions(stack, 3)
    const idsOf = async (query: string): Promise<string[]> => {
      const res = await read(stack, `/api/v1.0/actions?${query}`)
      expect(res.statusCode).toBe(200)
      return res.json().map((a: { id: string }) => a.id)
    }
    expect(await idsOf('limit=2')).toEqual(ids.slice(1))
    expect(await idsOf('limit=1')).toEqual(ids.slice(2))
    expect(await idsOf(`since=${ids[0]}`)).toEqual(ids.slice(1))
    expect(await idsOf(`since=${String(ids[0]).toLowerCase()}`)).toEqual(ids.slice(1))
    expect(await idsOf(`since=${ids[0]}&limit=1`)).toEqual(ids.slice(2))
    expect(await idsOf(`since=${ids[2]}`)).toEqual([])
    // a window has an ETag of its own and answers 304 as the whole list does
    const tag = await settledTag(stack, '/api/v1.0/actions?limit=2')
    expect((await read(stack, '/api/v1.0/actions?limit=2', { 'if-none-match': tag })).statusCode).toBe(304)
  })
})
