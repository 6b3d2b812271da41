// A site's history through the orchestrator's API on the real stub-store: two collections committed at different
// times, a deploy, a change to one, the other emptied. After every step, every collection is read at every version,
// and every pair of versions is compared, against what Deckhand's revision semantics imply: a revision holds, for
// each collection, what the last revision at or before it that wrote the collection left there.
import { describe, expect, it } from 'vitest'
import { parseYamlDocuments } from '@slipway/common'
import { AUTH } from '@slipway/common/testing'
import { STORE_MODES } from '@slipway/stub-store'
import { buildTestStack, GLOBAL_YAML, SITE_YAML } from '../helpers/stack.ts'

type Stack = Awaited<ReturnType<typeof buildTestStack>>
type Version = 'buffer' | 'committed' | 'last_site_action' | 'successful_site_action'
/** What one revision holds: collection → the YAML text last written to it (absent: no live documents). */
type Snapshot = Record<string, string>

const VERSIONS: Version[] = ['buffer', 'committed', 'last_site_action', 'successful_site_action']
const COLLECTIONS = ['global', 'site']
const RANK: Record<Version, number> = { successful_site_action: 0, last_site_action: 1, committed: 2, buffer: 3 }
const GLOBAL_CHANGED = GLOBAL_YAML.replace('serializeImagePulls: false', 'serializeImagePulls: true')
const SITE_CHANGED = SITE_YAML.replace('10.0.0.53', '10.0.0.54')
const SITE_CHANGED_AGAIN = SITE_YAML.replace('10.0.0.53', '10.0.0.55')
const EXTRA_YAML = `---
schema: example/Extra/v1
metadata:
  schema: metadata/Document/v1
  name: extra-1
  layeringDefinition: {abstract: false, layer: site}
  storagePolicy: cleartext
data: {ratio: 1.0, answer: 'yes', when: 2026-01-01}
`

/** The model: every revision's snapshot and the revisions each tag names. */
class Model {
  readonly revisions: Snapshot[] = [{}] // revision 0: the empty store
  committed: number | undefined
  lastSiteAction: number | undefined
  successfulSiteAction: number | undefined

  get latest (): number { return this.revisions.length - 1 }
  /** A PUT of one collection writes a new revision only when it changes what the latest revision holds. */
  put (collection: string, text: string | undefined): void {
    const next = { ...this.revisions[this.latest] }
    if (next[collection] === text) return
    if (text === undefined) delete next[collection]
    else next[collection] = text
    this.revisions.push(next)
  }

  idOf (version: Version): number | undefined {
    if (version === 'buffer') return this.latest > (this.committed ?? 0) ? this.latest : undefined
    if (version === 'committed') return this.committed
    return version === 'last_site_action' ? this.lastSiteAction : this.successfulSiteAction
  }

  /** Deckhand's diff of two revisions, collection by collection. */
  diff (a: number, b: number): Record<string, string> {
    const left = this.revisions[a] as Snapshot
    const right = this.revisions[b] as Snapshot
    const out: Record<string, string> = {}
    for (const c of new Set([...Object.keys(left), ...Object.keys(right)])) {
      if (c in left && c in right) out[c] = left[c] === right[c] ? 'unmodified' : 'modified'
      else if (a === 0 || b === 0) out[c] = 'created'
      else out[c] = (c in (a > b ? left : right)) ? 'created' : 'deleted'
    }
    return out
  }

  /** buffermode=replace: each collection the buffer changed written back as the committed revision holds it. */
  replaceBuffer (): void {
    const committed = this.revisions[this.committed ?? 0] as Snapshot
    for (const c of Object.keys(this.bufferChanges()).sort()) this.put(c, committed[c])
  }

  /** The buffer's changed collections: the diff committed (or 0) → buffer, less the unmodified. */
  bufferChanges (): Record<string, string> {
    const buffer = this.idOf('buffer')
    if (buffer === undefined) return {}
    return Object.fromEntries(Object.entries(this.diff(this.committed ?? 0, buffer)).filter(([, s]) => s !== 'unmodified'))
  }

  /** GET /configdocs/{c}?version=v: the expected status and the text whose documents the body holds. */
  read (c: string, v: Version): { status: 200, text: string } | { status: 404 } {
    if (v === 'buffer') {
      const change = this.bufferChanges()[c]
      if (change === undefined) return { status: 404 }
      return { status: 200, text: change === 'deleted' ? '' : (this.revisions[this.latest] as Snapshot)[c] as string }
    }
    const id = this.idOf(v)
    const text = id === undefined ? undefined : (this.revisions[id] as Snapshot)[c]
    return text === undefined ? { status: 404 } : { status: 200, text }
  }

  /** GET /configdocs?version=a,b: the older version as base, missing revisions read as the buffer's or 0. */
  status (x: Version, y: Version): { status: 404 } | { status: 200, body: unknown[] } {
    const [base, next] = [x, y].sort((a, b) => RANK[a as Version] - RANK[b as Version]) as [Version, Version]
    for (const v of [base, next]) if ((v === 'last_site_action' || v === 'successful_site_action') && this.idOf(v) === undefined) return { status: 404 }
    let baseId = this.idOf(base) ?? 0
    let newId = this.idOf(next)
    if (base === 'committed' && this.committed === undefined) { baseId = 0; newId = this.idOf('buffer') ?? 0 }
    newId ??= this.idOf('buffer') ?? baseId
    const diff = this.diff(baseId, newId)
    return {
      status: 200,
      body: Object.keys(diff).sort().map((c) => ({
        collection_name: c,
        base_version: base,
        base_revision: baseId,
        new_version: next,
        new_revision: newId,
        base_status: diff[c] === 'created' ? 'not present' : 'present',
        new_status: diff[c]
      }))
    }
  }
}

/** Documents as comparable facts: schema, name, and the data of documents kept in cleartext. */
function facts (text: string): string[] {
  return (parseYamlDocuments(text) as Array<{ schema: string, metadata: { name: string, storagePolicy?: string }, data?: unknown }>)
    .filter((d) => d !== null)
    .map((d) => `${d.schema} ${d.metadata.name} ${d.metadata.storagePolicy === 'encrypted' ? '(encrypted)' : JSON.stringify(d.data ?? {})}`)
    .sort()
}

async function check (stack: Stack, model: Model, step: string): Promise<void> {
  for (const c of COLLECTIONS) {
    for (const v of VERSIONS) {
      const res = await stack.app.inject({ url: `/api/v1.0/configdocs/${c}?version=${v}`, headers: AUTH })
      const expected = model.read(c, v)
      expect(res.statusCode, `${step}: ${c} at ${v}`).toBe(expected.status)
      if (expected.status === 404) {
        expect(res.json(), `${step}: ${c} at ${v}`).toMatchObject({ status: 'Failure', message: 'No documents to retrieve', code: '404 Not Found' })
      } else {
        expect(facts(res.body), `${step}: ${c} at ${v}`).toEqual(facts(expected.text))
      }
    }
  }
  for (const [i, x] of VERSIONS.entries()) {
    for (const y of VERSIONS.slice(i + 1)) {
      const res = await stack.app.inject({ url: `/api/v1.0/configdocs?version=${x},${y}`, headers: AUTH })
      const expected = model.status(x, y)
      expect(res.statusCode, `${step}: ${x},${y}`).toBe(expected.status)
      if (expected.status === 200) {
        expect(res.json(), `${step}: ${x},${y}`).toEqual(expected.body)
        // the caller's order and the `versions` spellings answer the same
        const again = await stack.app.inject({ url: `/api/v1.0/configdocs?versions=${y}&versions=${x}`, headers: AUTH })
        expect(again.json(), `${step}: versions=${y}&versions=${x}`).toEqual(expected.body)
      } else {
        expect(res.json()).toMatchObject({ message: 'Version does not exist' })
      }
      // a collection the status list shows present on a side reads 200 there, and one it omits or shows
      // absent reads 404 (the buffer side lists the whole buffer revision, its reads only what it changed)
      if (expected.status === 200) {
        const entries = expected.body as Array<{ collection_name: string, base_version: Version, base_status: string, new_status: string }>
        for (const entry of entries) {
          if (entry.base_version !== 'buffer') {
            const present = entry.base_status === 'present'
            expect(model.read(entry.collection_name, entry.base_version).status, `${step}: list vs read`).toBe(present ? 200 : 404)
          }
        }
      }
    }
  }
}

async function stage (stack: Stack, model: Model, collection: string, text: string | undefined, mode: string): Promise<void> {
  if (mode === 'replace') model.replaceBuffer()
  const query = text === undefined ? `?empty-collection=true&buffermode=${mode}` : `?buffermode=${mode}`
  const res = await stack.app.inject({
    method: 'POST',
    url: `/api/v1.0/configdocs/${collection}${query}`,
    headers: { ...AUTH, 'content-type': 'application/x-yaml' },
    payload: text ?? ''
  })
  expect(res.statusCode, res.body).toBe(201)
  model.put(collection, text)
}

async function commit (stack: Stack, model: Model): Promise<void> {
  const res = await stack.app.inject({ method: 'POST', url: '/api/v1.0/commitconfigdocs', headers: AUTH })
  expect(res.statusCode, res.body).toBe(200)
  model.committed = model.latest
}

async function deploy (stack: Stack, model: Model): Promise<void> {
  const created = await stack.app.inject({
    method: 'POST', url: '/api/v1.0/actions?allow-intermediate-commits=true', headers: { ...AUTH, 'content-type': 'application/json' }, payload: JSON.stringify({ name: 'deploy_site' })
  })
  expect(created.statusCode, created.body).toBe(201)
  const id = String(created.json().id)
  const deadline = Date.now() + 20_000
  for (;;) {
    const action = (await stack.app.inject({ url: `/api/v1.0/actions/${id}`, headers: AUTH })).json()
    if (action.action_lifecycle === 'Complete') break
    if (action.action_lifecycle === 'Failed' || Date.now() > deadline) throw new Error(`deploy_site ended ${String(action.action_lifecycle)}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  // the workflow tags the committed revision it ran on
  model.lastSiteAction = model.committed
  model.successfulSiteAction = model.committed
}

// on both store modes: the documented rules, and the real Deckhand's departures from them (rollback restoring the
// oldest copies, ownership checked against the last write only, …): Slipway must be right on either
describe.each(STORE_MODES)('configdocs over a site\'s history, store $name', ({ env: storeEnv }) => {
  it('reads every collection at every version, and compares every pair of versions, as the revisions imply', async () => {
    const stack = await buildTestStack({ storeEnv })
    const model = new Model()
    await check(stack, model, 'empty store')

    await stage(stack, model, 'global', GLOBAL_YAML, 'rejectOnContents')
    await check(stack, model, 'global staged')
    await commit(stack, model)
    await check(stack, model, 'global committed')

    await stage(stack, model, 'site', SITE_YAML, 'rejectOnContents')
    await check(stack, model, 'site staged')
    await commit(stack, model)
    await check(stack, model, 'site committed')
    // the collection committed first is still committed: the revision that wrote `site` inherits `global`
    expect((await stack.app.inject({ url: '/api/v1.0/configdocs/global?version=committed', headers: AUTH })).statusCode).toBe(200)

    await deploy(stack, model)
    await check(stack, model, 'deployed')

    await stage(stack, model, 'global', GLOBAL_CHANGED, 'rejectOnContents')
    await check(stack, model, 'global changed')
    await commit(stack, model)
    await check(stack, model, 'global change committed')

    await stage(stack, model, 'site', undefined, 'rejectOnContents')
    await check(stack, model, 'site emptied')
    await commit(stack, model)
    await check(stack, model, 'site deletion committed')
    // the emptied collection is gone after its commit and still there at the site action before it
    expect((await stack.app.inject({ url: '/api/v1.0/configdocs/site?version=committed', headers: AUTH })).statusCode).toBe(404)
    expect((await stack.app.inject({ url: '/api/v1.0/configdocs/site?version=last_site_action', headers: AUTH })).statusCode).toBe(200)
    expect(model.revisions.length - 1).toBe(4)
  }, 60_000)

  it('clears the buffer for buffermode=replace by writing back the committed collections, a collection committed long ago and documents deleted since included', async () => {
    const stack = await buildTestStack({ storeEnv })
    const model = new Model()
    await stage(stack, model, 'global', GLOBAL_YAML, 'rejectOnContents')
    await stage(stack, model, 'site', SITE_YAML, 'append')
    await commit(stack, model)
    // `global` was committed long ago: the committed revision below wrote only `site`
    await stage(stack, model, 'site', SITE_CHANGED, 'rejectOnContents')
    await commit(stack, model)
    await check(stack, model, 'site change committed')

    // the buffer: global's documents all deleted, site changed again, a new collection
    await stage(stack, model, 'global', undefined, 'rejectOnContents')
    await stage(stack, model, 'site', SITE_CHANGED_AGAIN, 'append')
    await stage(stack, model, 'extra', EXTRA_YAML, 'append')
    await check(stack, model, 'buffer with three collections')

    // replace: only the newly staged collection is left in the buffer; global and extra read as committed
    await stage(stack, model, 'extra', EXTRA_YAML.replace('ratio: 1.0', 'ratio: 2.5'), 'replace')
    await check(stack, model, 'replaced')
    const listed = (await stack.app.inject({ url: '/api/v1.0/configdocs', headers: AUTH })).json()
    expect(listed.map((c: { collection_name: string, new_status: string }) => [c.collection_name, c.new_status])).toEqual([['extra', 'created'], ['global', 'unmodified'], ['site', 'unmodified']])
    const global = await stack.app.inject({ url: '/api/v1.0/configdocs/global?version=committed', headers: AUTH })
    expect(facts(global.body)).toEqual(facts(GLOBAL_YAML))

    // and the same buffer commits to what was committed, plus the new collection
    await commit(stack, model)
    await check(stack, model, 'replaced buffer committed')
    const extra = await stack.app.inject({ url: '/api/v1.0/configdocs/extra?version=committed', headers: AUTH })
    expect(extra.body).toContain('ratio: 2.5')
    expect(extra.body).toMatch(/answer: ['"]yes['"]/)
  }, 60_000)
})
