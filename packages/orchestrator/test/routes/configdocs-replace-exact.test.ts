// buffermode=replace and the undo of a staging write collections back as a revision holds them. The store does not
// list everything it holds: ValidationPolicy documents never, and an encrypted document only with a reference that
// rendering resolves — to other data than stored when the document takes values by substitution. A collection no
// text restores is refused before anything is written, or (when only an undo would need it) left as the staging
// left it with the answer saying so; a buffer whose secrets cannot be read is still replaced.
import { describe, expect, it } from 'vitest'
import { AUTH } from '@slipway/common/testing'
import { buildTestStack, GLOBAL_YAML } from '../helpers/stack.ts'
import { bufferState, extraCollection } from '../helpers/buffer-state.ts'
import { isWrite, startStoreGate, type StoreGate } from '../helpers/store-gate.ts'
import { creds, HOSTS, PLAIN_SECRET } from '../helpers/secret-documents.ts'

type Stack = Awaited<ReturnType<typeof buildTestStack>>
const YAML = { ...AUTH, 'content-type': 'application/x-yaml' }
const EXTRA = extraCollection('extra-1', 'replaced')

const POLICY = `---
schema: deckhand/ValidationPolicy/v1
metadata:
  schema: metadata/Control/v1
  name: site-deploy-ready
  storagePolicy: cleartext
data:
  validations: []
`
const checks = (value: string): string => POLICY + extraCollection('checked-1', value)

async function post (stack: Stack, collection: string, body: string, query = '') {
  return await stack.app.inject({ method: 'POST', url: `/api/v1.0/configdocs/${collection}${query}`, headers: YAML, payload: body })
}

async function stage (stack: Stack, collection: string, body: string, query = ''): Promise<void> {
  const res = await post(stack, collection, body, query)
  expect(res.statusCode, res.body).toBe(201)
}

async function commit (stack: Stack): Promise<void> {
  const res = await stack.app.inject({ method: 'POST', url: '/api/v1.0/commitconfigdocs', headers: AUTH })
  expect(res.statusCode, res.body).toBe(200)
}

/** How many revisions the store holds: a refusal before any write leaves it as it was. */
const revisionCount = async (stack: Stack): Promise<number> =>
  Number(/count: (\d+)/.exec(await (await fetch(`${stack.store.url}/revisions`)).text())?.[1])

const state = async (stack: Stack) => await bufferState(async (options) => await stack.app.inject(options))
const statuses = async (stack: Stack) => (await state(stack)).statuses.filter((s) => s.status !== 'unmodified')

describe('POST /api/v1.0/configdocs/{collection}?buffermode=replace with documents the store does not list', () => {
  it('refuses with 409 before writing anything when a committed collection holds ValidationPolicy documents, and staging that collection itself gets out', async () => {
    const stack = await buildTestStack()
    await stage(stack, 'global', GLOBAL_YAML)
    await stage(stack, 'checks', checks('one'), '?buffermode=append')
    await commit(stack)
    await stage(stack, 'checks', checks('two'))
    const before = await state(stack)
    const revisions = await revisionCount(stack)

    const res = await post(stack, 'extra', EXTRA, '?buffermode=replace')
    expect(res.statusCode, res.body).toBe(409)
    expect(res.json()).toMatchObject({
      message: 'Unable to replace the buffer',
      reason: 'Collection checks cannot be written back as committed: it holds ValidationPolicy documents (site-deploy-ready), ' +
        'which the store keeps but never lists. Nothing was written; the buffer is as before',
      details: { errorList: [expect.objectContaining({ message: expect.stringMatching(/^Stage collection checks itself with buffermode=replace/) })] }
    })
    expect(await revisionCount(stack)).toBe(revisions)
    expect(await state(stack)).toEqual(before)

    // the way out: the collection staged itself is not written back first
    await stage(stack, 'checks', checks('three'), '?buffermode=replace')
    expect(await statuses(stack)).toEqual([{ collection: 'checks', base: 'present', status: 'modified' }])
    // its policy is still held: staged with the committed value again, the collection is as committed
    const same = await post(stack, 'checks', checks('one'), '?buffermode=replace')
    expect(same.statusCode, same.body).toBe(400)
    expect(same.json().message).toMatch(/^Collection checks not added to Shipyard buffer/)
  })

  it('does not say the buffer is as before when an undo cannot restore a collection\'s ValidationPolicy documents', async () => {
    const stack = await buildTestStack()
    await stage(stack, 'global', GLOBAL_YAML)
    await commit(stack)
    await stage(stack, 'checks', checks('one'))
    const revisions = await revisionCount(stack)
    // the store requires storagePolicy: the new collection is refused once `checks` was emptied
    const res = await post(stack, 'extra', EXTRA.replace('  storagePolicy: cleartext\n', ''), '?buffermode=replace')
    expect(res.statusCode, res.body).toBe(400)
    expect(res.json().message).toBe('Document(s) invalid syntax or otherwise unsuitable: the buffer is as before but for collection checks, ' +
      'emptied (it cannot be written back as it was: it holds ValidationPolicy documents (site-deploy-ready), which the store keeps but never lists)')
    // emptied, not written back without its policy
    expect(await revisionCount(stack)).toBe(revisions + 1)
    expect(await statuses(stack)).toEqual([])
  })
})

describe('the undo of a staging whose collection the store cannot give back', () => {
  it('leaves the collection staged and says so when a read after the write fails and the committed collection holds ValidationPolicy documents', async () => {
    let gate: StoreGate | undefined
    const stack = await buildTestStack({
      wrap: async (component, url) => {
        if (component !== 'store') return url
        gate = await startStoreGate(url)
        return gate.url
      }
    })
    await stage(stack, 'global', GLOBAL_YAML)
    await stage(stack, 'checks', checks('one'), '?buffermode=append')
    await commit(stack)
    let step: 'before' | 'written' | 'failed' = 'before'
    gate?.set((r) => {
      if (isWrite(r) && step === 'before') step = 'written'
      // the first read after the collection is written fails; the rest pass
      else if (step === 'written' && r.method === 'GET' && r.path.endsWith('/revisions')) { step = 'failed'; return { status: 503, text: 'store overloaded' } }
      return 'pass'
    })
    const revisions = await revisionCount(stack)
    const res = await post(stack, 'checks', checks('two'))
    expect(res.statusCode, res.body).toBe(502)
    expect(res.json().message).toBe('Downstream failure: store: the buffer is as before but for collection checks, staged with the new documents ' +
      '(it cannot be written back as it was: it holds ValidationPolicy documents (site-deploy-ready), which the store keeps but never lists)')
    // the staged write stands, not a copy of the committed collection without its policy
    expect(await revisionCount(stack)).toBe(revisions + 1)
    expect(await statuses(stack)).toEqual([{ collection: 'checks', base: 'present', status: 'modified' }])
    expect(await stack.repos.stagingJournal.pending()).toEqual([])
  })
})

describe('POST /api/v1.0/configdocs/{collection}?buffermode=replace with secrets', () => {
  it('refuses with 409 before writing anything when a committed secret takes values by substitution, and staging that collection itself gets out', async () => {
    const stack = await buildTestStack()
    await stage(stack, 'global', GLOBAL_YAML)
    await stage(stack, 'hosts', HOSTS, '?buffermode=append')
    await stage(stack, 'creds', creds('pw1') + PLAIN_SECRET, '?buffermode=append')
    await commit(stack)
    await stage(stack, 'creds', creds('pw2') + PLAIN_SECRET)
    const before = await state(stack)
    const revisions = await revisionCount(stack)

    const res = await post(stack, 'extra', EXTRA, '?buffermode=replace')
    expect(res.statusCode, res.body).toBe(409)
    expect(res.json()).toMatchObject({
      message: 'Unable to replace the buffer',
      reason: 'Collection creds cannot be written back as committed: its encrypted document deckhand/Passphrase/v1 db-url takes values ' +
        'by substitution or layering, and the store gives its data only as rendered, not as stored. Nothing was written; the buffer is as before'
    })
    expect(await revisionCount(stack)).toBe(revisions)
    expect(await state(stack)).toEqual(before)

    // staged itself, the collection is replaced; the secret keeps its substitution: a new host reaches it
    await stage(stack, 'creds', creds('pw1') + PLAIN_SECRET, '?buffermode=replace')
    await stage(stack, 'hosts', HOSTS.replace('10.0.0.5', '10.0.0.6'), '?buffermode=append')
    const rendered = await stack.app.inject({ url: '/api/v1.0/renderedconfigdocs?version=buffer&cleartext-secrets=true', headers: AUTH })
    expect(rendered.statusCode).toBe(200)
    expect(rendered.body).toContain('postgres://app:pw1@10.0.0.6/db')
  })

  it('writes a committed secret that takes nothing from others back with its committed value', async () => {
    const stack = await buildTestStack()
    await stage(stack, 'global', GLOBAL_YAML)
    await stage(stack, 'keys', PLAIN_SECRET, '?buffermode=append')
    await commit(stack)
    await stage(stack, 'keys', PLAIN_SECRET.replace('key-hunter2', 'key-other'))
    await stage(stack, 'extra', EXTRA, '?buffermode=replace')
    // the store gives the secret written again a new reference: the collection may diff as modified, its value is the
    // committed one
    const keys = await stack.app.inject({ url: '/api/v1.0/configdocs/keys?version=buffer&cleartext-secrets=true', headers: AUTH })
    expect(keys.statusCode, keys.body).toBe(200)
    expect(keys.body).toContain('data: key-hunter2')
  })

  it('replaces a buffer whose secrets cannot be read (a substitution source missing): the created collection is emptied', async () => {
    const stack = await buildTestStack()
    await stage(stack, 'global', GLOBAL_YAML)
    await commit(stack)
    // staged: the store checks substitutions only when rendering
    await stage(stack, 'creds', creds('pw1', 'no-such-host') + PLAIN_SECRET)
    const res = await post(stack, 'extra', EXTRA, '?buffermode=replace')
    expect(res.statusCode, res.body).toBe(201)
    expect(await statuses(stack)).toEqual([{ collection: 'extra', base: 'not present', status: 'created' }])
  })
})
