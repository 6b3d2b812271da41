// The configdocs and site-action leases while their holder works, on SQLite and (TEST_DATABASE_URL) PostgreSQL: two
// orchestrators on one database, the first one's call to the store, the validating component or the engine held by a
// proxy for longer than the lease.
// - A holder that is alive keeps its lease however slow its call: neither orchestrator's staging recovery undoes its
//   staging meanwhile, nothing is staged under its commit, no other site action starts beside it, and its request
//   completes.
// - A holder whose heartbeat cannot reach the database (its renewals fail) is taken over once its lease runs out,
//   as a dead one is: the other orchestrator undoes its staging, stages, or starts its own site action. When its call
//   then comes back it writes nothing more (no store write, no tag, no saved action, no trigger) and answers 503
//   saying the lock was lost, never 201 or 200.
import { describe, expect, it } from 'vitest'
import { AUTH } from '@slipway/common/testing'
import type { Repositories } from '../../src/db/repositories.ts'
import { buildTestStack, GLOBAL_YAML, SITE_YAML } from '../helpers/stack.ts'
import { DATABASES } from '../helpers/databases.ts'
import { bufferState, extraCollection } from '../helpers/buffer-state.ts'
import { startHoldingProxy, type HoldingProxy, type HoldRule } from './holding-proxy.ts'

// short, so that a test outlasts it several times over; a renewal every 2/3 s keeps it on a busy machine
const LEASE_S = 2
const LEASE_MS = LEASE_S * 1000
const YAML = { ...AUTH, 'content-type': 'application/x-yaml' }
const JSON_HEADERS = { ...AUTH, 'content-type': 'application/json' }
const EXTRA = extraCollection('lease-extra', 'staged')
const RECOVERY = { contextMarker: 'staging-recovery', user: 'slipway' }
const sleep = async (ms: number): Promise<void> => { await new Promise((resolve) => setTimeout(resolve, ms)) }

/** `repos` whose lease renewals fail while `cut.on`: the first orchestrator's database out of reach for its heartbeat. */
function withRenewalsCut (repos: Repositories) {
  const cut = { on: false }
  const wrapped: Repositories = {
    ...repos,
    locks: {
      ...repos.locks,
      renew: async (lock) => {
        if (cut.on) throw new Error('the database is out of reach')
        return await repos.locks.renew(lock)
      }
    }
  }
  return { wrapped, cut }
}

/** Holds the first request `match` picks, once; every other request passes. */
function holdOnce (proxy: HoldingProxy, rule: HoldRule, match: (r: Request) => boolean): void {
  let done = false
  proxy.set((r) => {
    if (done || !match(r)) return 'pass'
    done = true
    return rule
  })
}

/** Two orchestrators on one database (`a` with its renewals cut on demand), one component behind a proxy. */
async function twoOnOne (backend: (typeof DATABASES)[number], behind: 'store' | 'engine' | 'validator') {
  const { repos } = await backend.open()
  const { wrapped, cut } = withRenewalsCut(repos)
  let proxy: HoldingProxy | undefined
  const stack = await buildTestStack({
    repos: wrapped,
    leaseS: LEASE_S,
    orchestratorEnv: { ACTION_LOCK_LEASE_S: String(LEASE_S) },
    // a site action's run stays running: the next one's in-progress check sees it
    engineEnv: { ENGINE_TASK_MS: '200', ENGINE_HANG_TASKS: 'deploy_site/final_deployment_status' },
    wrap: async (component, url) => {
      if (component !== behind) return url
      proxy = await startHoldingProxy(url)
      return proxy.url
    }
  })
  const other = await stack.orchestrator(repos)
  const post = async (app: typeof stack.app, url: string, payload: string, headers = YAML) =>
    await app.inject({ method: 'POST', url: `/api/v1.0${url}`, headers, payload })
  expect((await post(stack.app, '/configdocs/global', GLOBAL_YAML)).statusCode).toBe(201)
  expect((await post(stack.app, '/configdocs/site?buffermode=append', SITE_YAML)).statusCode).toBe(201)
  expect((await stack.app.inject({ method: 'POST', url: '/api/v1.0/commitconfigdocs', headers: AUTH })).statusCode).toBe(200)
  return { stack, a: stack, other, repos, cut, proxy: proxy as HoldingProxy, post }
}

type Request = { method: string, path: string }
const isWrite = (r: Request): boolean => r.method === 'PUT' && /\/buckets\/[^/]+\/documents$/.test(r.path)
/** Anything but a read sent to the engine (its list of runs is a POST), or a token asked for. */
const isEngineWrite = (r: Request): boolean =>
  r.method !== 'GET' && !r.path.endsWith('/dagRuns/list') && !r.path.endsWith('/auth/token')

const STAGINGS: Array<{ mode: 'append' | 'replace', where: string, match: () => (r: Request) => boolean }> = [
  // the staging's last read, after its write and its checks: an undo here left a 201 without the collection
  { mode: 'append', where: 'its last read (after its write)', match: () => (r) => /\/validations\/detail$/.test(r.path) },
  // between the writes that reset the buffer and the write of the new collection
  {
    mode: 'replace',
    where: 'the read between its writes',
    match: () => {
      let writes = 0
      return (r) => { if (isWrite(r)) writes++; return writes > 0 && r.method === 'GET' }
    }
  }
]

for (const backend of DATABASES) {
  describe.skipIf(backend.skip)(`${backend.name}: the configdocs lease of a staging held at the store`, () => {
    it.each(STAGINGS)('buffermode=$mode held at $where for 3 leases: never undone meanwhile, answered 201, the collection staged', async ({ mode, match }) => {
      const w = await twoOnOne(backend, 'store')
      // global and site changed in the buffer: a replace resets both before it stages
      expect((await w.post(w.a.app, '/configdocs/global', GLOBAL_YAML.replace('serializeImagePulls: false', 'serializeImagePulls: true'))).statusCode).toBe(201)
      const state = async () => await bufferState(async (options) => await w.a.app.inject(options))
      const before = await state()
      holdOnce(w.proxy, 'hold', match())
      const pending = w.post(w.a.app, `/configdocs/extra?buffermode=${mode}`, EXTRA)
      const held = await w.proxy.held()
      const heldAt = Date.now()
      // both orchestrators' recovery loops look for stagings cut short, all along: this one is under way
      let looks = 0
      while (Date.now() < heldAt + 3 * LEASE_MS) {
        expect(await w.a.configdocs.recoverStaging(RECOVERY)).toBe('busy')
        expect(await w.other.configdocs.recoverStaging(RECOVERY)).toBe('busy')
        looks++
        await sleep(250)
      }
      await held.release()
      const res = await pending
      expect(res.statusCode, res.body).toBe(201)
      const after = await state()
      expect(after.documents.extra?.map((d) => d.name)).toEqual(['lease-extra'])
      const changed = (s: typeof before): string[] => s.statuses.filter((c) => c.status !== 'unmodified').map((c) => c.collection).sort()
      expect(changed(after)).toEqual(mode === 'append' ? [...changed(before), 'extra'].sort() : ['extra'])
      expect(await w.repos.stagingJournal.pending()).toEqual([])
      expect(await w.other.configdocs.recoverStaging(RECOVERY)).toBe(0)
      console.log(`${backend.name}: buffermode=${mode} held ${((Date.now() - heldAt) / 1000).toFixed(1)} s (lease ${LEASE_S} s): ${looks} looks of each recovery answered busy, then 201`)
    }, 60_000)

    it.each(STAGINGS)('buffermode=$mode held at $where, its renewals failing: undone by the other once the lease ran out; it writes nothing more and answers 503', async ({ mode, match }) => {
      const w = await twoOnOne(backend, 'store')
      expect((await w.post(w.a.app, '/configdocs/global', GLOBAL_YAML.replace('serializeImagePulls: false', 'serializeImagePulls: true'))).statusCode).toBe(201)
      const state = async () => await bufferState(async (options) => await w.a.app.inject(options))
      const before = await state()
      holdOnce(w.proxy, 'hold', match())
      const pending = w.post(w.a.app, `/configdocs/extra?buffermode=${mode}`, EXTRA)
      const held = await w.proxy.held()
      w.cut.on = true
      // the other orchestrator's recovery: refused while the lease is in force, then it undoes the staging
      const deadline = Date.now() + 10 * LEASE_MS
      let undone: number | 'busy'
      while ((undone = await w.other.configdocs.recoverStaging(RECOVERY)) === 'busy' && Date.now() < deadline) await sleep(100)
      expect(undone).toBe(1)
      expect(await state()).toEqual(before)
      // the first orchestrator's database back, its held read answered: nothing more is written
      w.cut.on = false
      const seenBefore = w.proxy.seen.length
      await held.release()
      const res = await pending
      expect(res.statusCode, res.body).toBe(503)
      expect(res.json().message).toMatch(/the configdocs lock was lost/)
      expect(res.json().reason).toMatch(/configdocs_update lock's lease \(2 s\) ran out before this request renewed it/)
      expect(w.proxy.seen.slice(seenBefore).filter(isWrite)).toEqual([])
      expect(await state()).toEqual(before)
      expect(await w.repos.stagingJournal.pending()).toEqual([])
      // the lock is free: the next staging goes through
      expect((await w.post(w.other.app, '/configdocs/extra?buffermode=append', EXTRA)).statusCode).toBe(201)
    }, 60_000)
  })

  describe.skipIf(backend.skip)(`${backend.name}: the configdocs lease of a commit held at its validation`, () => {
    const validation = (r: Request): boolean => r.method === 'POST' && r.path.endsWith('/validatedesign')
    const commit = async (app: Awaited<ReturnType<typeof twoOnOne>>['stack']['app']) =>
      await app.inject({ method: 'POST', url: '/api/v1.0/commitconfigdocs', headers: AUTH })

    it('held for 3 leases: the other\'s stagings are refused meanwhile, then it commits', async () => {
      const w = await twoOnOne(backend, 'validator')
      expect((await w.post(w.a.app, '/configdocs/global', GLOBAL_YAML.replace('serializeImagePulls: false', 'serializeImagePulls: true'))).statusCode).toBe(201)
      holdOnce(w.proxy, 'hold', validation)
      const pending = commit(w.a.app)
      const held = await w.proxy.held()
      const heldAt = Date.now()
      while (Date.now() < heldAt + 3 * LEASE_MS) {
        const res = await w.post(w.other.app, '/configdocs/extra?buffermode=append', EXTRA)
        expect(res.statusCode, res.body).toBe(409)
        expect(res.json().message).toBe('Blocked by another process')
        await sleep(250)
      }
      await held.release()
      const res = await pending
      expect(res.statusCode, res.body).toBe(200)
      const after = await bufferState(async (options) => await w.a.app.inject(options))
      expect(after.statuses.filter((c) => c.status !== 'unmodified')).toEqual([])
    }, 60_000)

    it('held with its renewals failing: the other stages once the lease ran out; it commits nothing and answers 503', async () => {
      const w = await twoOnOne(backend, 'validator')
      expect((await w.post(w.a.app, '/configdocs/global', GLOBAL_YAML.replace('serializeImagePulls: false', 'serializeImagePulls: true'))).statusCode).toBe(201)
      holdOnce(w.proxy, 'hold', validation)
      const pending = commit(w.a.app)
      const held = await w.proxy.held()
      w.cut.on = true
      const deadline = Date.now() + 10 * LEASE_MS
      let staged = await w.post(w.other.app, '/configdocs/extra?buffermode=append', EXTRA)
      while (staged.statusCode === 409 && Date.now() < deadline) staged = await w.post(w.other.app, '/configdocs/extra?buffermode=append', EXTRA)
      expect(staged.statusCode, staged.body).toBe(201)
      const state = async () => await bufferState(async (options) => await w.a.app.inject(options))
      const before = await state()
      w.cut.on = false
      await held.release()
      const res = await pending
      expect(res.statusCode, res.body).toBe(503)
      expect(res.json().message).toBe('The configdocs_update lock was lost')
      // the buffer, the other's staging in it, is not committed unseen
      expect(await state()).toEqual(before)
      expect(before.statuses.filter((c) => c.status !== 'unmodified').map((c) => c.collection).sort()).toEqual(['extra', 'global'])
    }, 60_000)
  })

  describe.skipIf(backend.skip)(`${backend.name}: the site-action lease of a start held at the engine`, () => {
    // the in-progress check's list of runs, its answer (no run in progress) kept from the first orchestrator
    const runsList = (r: Request): boolean => r.method === 'POST' && r.path.endsWith('/dags/~/dagRuns/list')
    type Two = Awaited<ReturnType<typeof twoOnOne>>
    const create = async (w: Two, app: Two['stack']['app']) => await w.post(app, '/actions', '{"name": "deploy_site"}', JSON_HEADERS)
    const blocked = (res: { statusCode: number, body: string }): boolean =>
      res.statusCode === 409 && (JSON.parse(res.body) as { message?: string }).message === 'Blocked by another process'

    it('held for 3 leases: the other\'s site actions are refused meanwhile, then it starts, one run', async () => {
      const w = await twoOnOne(backend, 'engine')
      holdOnce(w.proxy, 'hold-answer', runsList)
      const pending = create(w, w.a.app)
      const held = await w.proxy.held()
      const heldAt = Date.now()
      const refused: number[] = []
      while (Date.now() < heldAt + 3 * LEASE_MS) {
        const res = await create(w, w.other.app)
        expect(blocked(res), res.body).toBe(true)
        refused.push(Date.now() - heldAt)
      }
      await held.release()
      const res = await pending
      expect(res.statusCode, res.body).toBe(201)
      const runs = await w.stack.engineClient.runs({ dagIds: ['deploy_site'] }, {})
      expect(runs.map((r) => r.dag_run_id)).toEqual([res.json().id])
      expect((await w.repos.actions.list()).map((a) => a.id)).toEqual([res.json().id])
      console.log(`${backend.name}: a site action held ${((Date.now() - heldAt) / 1000).toFixed(1)} s (lease ${LEASE_S} s): the other's ${refused.length} tries refused, then 201 with one run`)
    }, 60_000)

    it('held with its renewals failing: the other starts once the lease ran out; it saves and starts nothing and answers 503', async () => {
      const w = await twoOnOne(backend, 'engine')
      holdOnce(w.proxy, 'hold-answer', runsList)
      const pending = create(w, w.a.app)
      const held = await w.proxy.held()
      w.cut.on = true
      const deadline = Date.now() + 10 * LEASE_MS
      let taken = await create(w, w.other.app)
      while (blocked(taken) && Date.now() < deadline) taken = await create(w, w.other.app)
      expect(taken.statusCode, taken.body).toBe(201)
      w.cut.on = false
      const seenBefore = w.proxy.seen.length
      // its list of runs (none in progress when it was read) comes back now
      await held.release()
      const res = await pending
      expect(res.statusCode, res.body).toBe(503)
      expect(res.json().message).toBe('The site_action_start lock was lost')
      expect(res.json().reason).toMatch(/this request wrote nothing after that/)
      expect(w.proxy.seen.slice(seenBefore).filter(isEngineWrite)).toEqual([])
      const runs = await w.stack.engineClient.runs({ dagIds: ['deploy_site'] }, {})
      expect(runs.map((r) => r.dag_run_id)).toEqual([taken.json().id])
      expect((await w.repos.actions.list()).map((a) => a.id)).toEqual([taken.json().id])
    }, 60_000)
  })
}
