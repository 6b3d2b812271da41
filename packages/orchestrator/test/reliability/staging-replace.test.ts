// buffermode=replace writes several collections, one store request each, and the store has no transaction over
// them: a failure part-way must still leave the buffer either exactly as before or fully replaced, and the answer
// must say which. The store sits behind a gate that fails, holds or answers the chosen request itself.
import { describe, expect, it } from 'vitest'
import { AUTH, isErrorBody } from '@slipway/common/testing'
import { buildTestStack, GLOBAL_YAML, SITE_YAML } from '../helpers/stack.ts'
import { isWrite, startStoreGate, type GateAction, type GateRequest, type StoreGate } from '../helpers/store-gate.ts'
import { bufferState, extraCollection } from '../helpers/buffer-state.ts'

const TIMEOUT_MS = 1000
const YAML = { ...AUTH, 'content-type': 'application/x-yaml' }
const EXTRA = extraCollection('extra-1', 'replaced')

/** A stack whose store is behind a gate; global and site committed, then both changed in the buffer. */
async function changedBuffer () {
  let gate: StoreGate | undefined
  const stack = await buildTestStack({
    timeoutMs: TIMEOUT_MS,
    wrap: async (component, url) => {
      if (component !== 'store') return url
      gate = await startStoreGate(url)
      return gate.url
    }
  })
  const post = async (collection: string, body: string, query = '') =>
    await stack.app.inject({ method: 'POST', url: `/api/v1.0/configdocs/${collection}${query}`, headers: YAML, payload: body })
  expect((await post('global', GLOBAL_YAML)).statusCode).toBe(201)
  expect((await post('site', SITE_YAML, '?buffermode=append')).statusCode).toBe(201)
  expect((await stack.app.inject({ method: 'POST', url: '/api/v1.0/commitconfigdocs', headers: AUTH })).statusCode).toBe(200)
  expect((await post('global', GLOBAL_YAML.replace('serializeImagePulls: false', 'serializeImagePulls: true'))).statusCode).toBe(201)
  expect((await post('site', SITE_YAML.replace('10.0.0.53', '10.0.0.54'), '?buffermode=append')).statusCode).toBe(201)
  const state = async () => await bufferState(async (options) => await stack.app.inject(options))
  const before = await state()
  expect(before.statuses.filter((s) => s.status !== 'unmodified').map((s) => s.collection)).toEqual(['global', 'site'])
  return { stack, gate: gate as StoreGate, post, state, before }
}

/** The rule: the `n`-th bucket write from now gets `action`; with `after`, every later write too. */
function nthWrite (n: number, action: GateAction, after?: GateAction): (r: GateRequest) => GateAction {
  let count = 0
  return (r) => {
    if (!isWrite(r)) return 'pass'
    count++
    if (count === n) return action
    return count > n && after !== undefined ? after : 'pass'
  }
}

describe('buffermode=replace is all or nothing', () => {
  describe.each(['land', 'lose'] as const)('the store not answering the second write in time (the write %ss later)', (fate) => {
    it('answers 504 saying the buffer is as before, and it is', async () => {
      const { gate, post, state, before, stack } = await changedBuffer()
      gate.set(nthWrite(2, fate))
      const res = await post('extra', EXTRA, '?buffermode=replace')
      await gate.settled()
      expect(await state()).toEqual(before)
      expect(res.statusCode, res.body).toBe(504)
      expect(isErrorBody(res.json())).toBe(true)
      expect(res.json().message).toMatch(/store.*: the buffer is as before$/)
      expect(res.json().reason).toMatch(/did not answer PUT \/buckets\/site\/documents/)
      expect(await stack.repos.stagingJournal.pending()).toEqual([])
      // and the same replace goes through once the store answers
      gate.set(() => 'pass')
      expect((await post('extra', EXTRA, '?buffermode=replace')).statusCode).toBe(201)
      expect((await state()).statuses.filter((s) => s.status !== 'unmodified')).toEqual([{ collection: 'extra', base: 'not present', status: 'created' }])
    })
  })

  it('says which collection is in which state when writing back fails too, refuses to commit until the buffer is written back, and writes it back once the store answers', async () => {
    const { gate, post, state, before, stack } = await changedBuffer()
    const failing = { status: 503, text: 'store overloaded' }
    gate.set(nthWrite(2, failing, failing))
    const res = await post('extra', EXTRA, '?buffermode=replace')
    expect(res.statusCode, res.body).toBe(502)
    const body = res.json()
    expect(body.message).toBe('Unable to stage collection extra: the buffer is partly changed until the store answers again')
    const entries = body.details.errorList as Array<{ message: string, error: boolean }>
    expect(entries.filter((e) => e.error).map((e) => e.message)).toEqual([
      'Collection global: written back as committed',
      'Collection site: written back as committed, or as before (the store did not confirm the write)',
      'Collection extra: as before'
    ])
    expect(entries.filter((e) => !e.error).map((e) => e.message)).toEqual([expect.stringMatching(/^The collections are written back as they were once the store answers/)])
    expect(await stack.repos.stagingJournal.pending()).toHaveLength(1)
    // no commit of a half-replaced buffer while the store still fails
    const commit = await stack.app.inject({ method: 'POST', url: '/api/v1.0/commitconfigdocs', headers: AUTH })
    expect(commit.statusCode, commit.body).toBe(502)
    expect(commit.json().message).toBe('An earlier staging cut short is not yet undone: the buffer may be partly changed')
    // the store answers again: the recovery (as the server's loop runs it) writes the buffer back
    gate.set(() => 'pass')
    expect(await stack.configdocs.recoverStaging({ user: 'test', contextMarker: 'test-recovery' })).toBe(1)
    expect(await state()).toEqual(before)
    expect(await stack.repos.stagingJournal.pending()).toEqual([])
    expect(await stack.configdocs.recoverStaging({ user: 'test', contextMarker: 'test-recovery' })).toBe(0)
  })

  it('writes the reset collections back when the store refuses the new collection, and says the buffer is as before', async () => {
    const { post, state, before } = await changedBuffer()
    // the store requires storagePolicy: refused only once the buffer was reset
    const refused = EXTRA.replace('  storagePolicy: cleartext\n', '')
    const res = await post('extra', refused, '?buffermode=replace')
    expect(await state()).toEqual(before)
    expect(res.statusCode, res.body).toBe(400)
    expect(res.json().message).toBe('Document(s) invalid syntax or otherwise unsuitable: the buffer is as before')
  })

  it('undoes a staged write whose following read fails: no 5xx after a write that stands', async () => {
    const { gate, post, state, before, stack } = await changedBuffer()
    let step: 'before' | 'written' | 'failed' = 'before'
    gate.set((r) => {
      if (isWrite(r) && step === 'before') step = 'written'
      // the first read after the collection is written fails; the rest pass
      else if (step === 'written' && r.method === 'GET' && r.path.endsWith('/revisions')) { step = 'failed'; return { status: 503, text: 'store overloaded' } }
      return 'pass'
    })
    const res = await post('extra', EXTRA, '?buffermode=append')
    expect(await state()).toEqual(before)
    expect(res.statusCode, res.body).toBe(502)
    expect(res.json().message).toBe('Downstream failure: store: the buffer is as before')
    expect(await stack.repos.stagingJournal.pending()).toEqual([])
  })

  it('says the buffer is as before when the store fails before anything is written', async () => {
    const { gate, post, state, before } = await changedBuffer()
    const seenBefore = gate.seen.length
    gate.set((r) => r.method === 'GET' && r.path.includes('/diff/') ? { status: 503, text: 'store overloaded' } : 'pass')
    const res = await post('extra', EXTRA, '?buffermode=replace')
    expect(res.statusCode, res.body).toBe(502)
    expect(res.json().message).toBe('Downstream failure: store: nothing was staged, the buffer is as before')
    expect(gate.seen.slice(seenBefore).filter(isWrite)).toEqual([])
    gate.set(() => 'pass')
    expect(await state()).toEqual(before)
  })
})
