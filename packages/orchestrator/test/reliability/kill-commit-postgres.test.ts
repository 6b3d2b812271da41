// One of two orchestrators on one PostgreSQL database killed (SIGKILL) in the middle of a commit, at a point the
// test chooses: its call to the validating component held (nothing written yet), or its one write — the store's
// `committed` tag — held and then landing after its death or lost. The other orchestrator's commits are refused
// while the dead one's configdocs lock is in force, one goes through once its lease is over, and the buffer is
// committed exactly once (by the dead one's landed write, or by the other); the killed one, restarted, sees the
// same; no lock row in force and no advisory lock is left.
import { describe, expect, it } from 'vitest'
import { GLOBAL_YAML, SITE_YAML } from '../helpers/stack.ts'
import { call, POSTGRES, twoOrchestrators, type Answer } from './two-on-postgres.ts'

// long enough that the other orchestrator is refused at least once on a busy machine, short enough to wait out
const LEASE_S = 8
const YAML = 'application/x-yaml'
const EXTRA = '---\nschema: example/Extra/v1\nmetadata: {schema: metadata/Document/v1, name: killed-commit, layeringDefinition: {abstract: false, layer: site}, storagePolicy: cleartext}\ndata: {n: 1}\n'
const blocked = (answer: Answer): boolean => answer.status === 409 && answer.body?.message === 'Blocked by another process'

const CASES = [
  { name: 'its validation call held', component: 'validator', path: /\/validatedesign$/, fate: 'lose' },
  { name: 'its committed-tag write held, then landing', component: 'store', path: /\/revisions\/\d+\/tags\/committed$/, fate: 'land' },
  { name: 'its committed-tag write held, then lost', component: 'store', path: /\/revisions\/\d+\/tags\/committed$/, fate: 'lose' }
] as const

describe.skipIf(POSTGRES.skip)('two orchestrators on PostgreSQL, one killed mid-commit', () => {
  it.each(CASES)('$name: the other commits once the lease is over, and the buffer is committed exactly once', async ({ component, path, fate }) => {
    const w = await twoOrchestrators({ leaseS: LEASE_S })
    expect((await call(w.a.origin, 'POST', '/configdocs/global', GLOBAL_YAML, YAML)).status).toBe(201)
    expect((await call(w.a.origin, 'POST', '/configdocs/site?buffermode=append', SITE_YAML, YAML)).status).toBe(201)
    expect((await call(w.a.origin, 'POST', '/commitconfigdocs')).status).toBe(200)
    expect((await call(w.b.origin, 'POST', '/configdocs/extra', EXTRA, YAML)).status).toBe(201)
    const committedBefore = await w.tagged('committed')
    expect(committedBefore).toHaveLength(1)

    // b's commit stops at the chosen call, inside the configdocs lock; b is killed there
    w.proxies[component].set((r) => r.method === 'POST' && path.test(r.path) ? 'hold' : 'pass')
    const pending = call(w.b.origin, 'POST', '/commitconfigdocs').catch((error: unknown) => error)
    const held = await w.proxies[component].held()
    const [lock, ...others] = await w.heldLocks('configdocs_update')
    expect(others).toEqual([])
    await w.b.kill()
    await held.callerGone
    expect(await pending).toBeInstanceOf(Error)
    w.proxies[component].set(() => 'pass')
    if (fate === 'land') expect(await held.land()).toBe(201)
    else held.lose()
    const expiresAt = Date.parse(String(lock?.expires_at))

    // a's commits: refused while the dead one's lock is in force, then one gets through (or finds it done)
    const answers: Answer[] = []
    for (;;) {
      const answer = await call(w.a.origin, 'POST', '/commitconfigdocs')
      answers.push(answer)
      if (!blocked(answer)) break
      if (Date.now() > expiresAt + 30_000) throw new Error(`the dead orchestrator's lock was still in force 30 s after its lease: ${answer.text}`)
      await new Promise((resolve) => setTimeout(resolve, 250))
    }
    const last = answers.at(-1) as Answer
    console.log(`killed mid-commit (${component} call held, ${fate}): the other's ${answers.length - 1} commits refused, ` +
      `then ${last.status} ${((last.endedAt - expiresAt) / 1000).toFixed(1)} s after the lease's end (lease ${LEASE_S} s)`)
    for (const answer of answers.slice(0, -1)) expect(blocked(answer), answer.text).toBe(true)
    for (const answer of answers.filter((x) => x.endedAt < expiresAt)) expect(blocked(answer), answer.text).toBe(true)
    expect(last.endedAt).toBeGreaterThanOrEqual(expiresAt)
    if (fate === 'land') {
      // the dead one's write stands: nothing is left to commit
      expect(last.status, last.text).toBe(409)
      expect(last.text).toMatch(/no documents in the buffer to commit/)
    } else {
      expect(last.status, last.text).toBe(200)
      expect(last.body.message).toBe('Validations succeeded')
    }

    // committed exactly once, seen alike by a and by the killed one restarted on the same database
    const committed = await w.tagged('committed')
    expect(committed).toHaveLength(2)
    const restarted = await w.startB()
    for (const origin of [w.a.origin, restarted.origin]) {
      expect((await call(origin, 'GET', '/configdocs/extra?version=committed')).text).toContain('name: killed-commit')
      const again = await call(origin, 'POST', '/commitconfigdocs')
      expect(again.status, again.text).toBe(409)
      expect(blocked(again)).toBe(false)
    }
    expect(await w.locksInForce()).toEqual([])
    expect(await w.advisoryLocks()).toBe(0)
  }, 90_000)
})
