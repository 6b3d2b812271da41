// One repository suite, run against the embedded SQLite and (when TEST_DATABASE_URL is set) PostgreSQL.
import { describe, expect, it } from 'vitest'
import { newUlid } from '@slipway/common'
import { DATABASES as backends } from '../helpers/databases.ts'
import { actionRecord as action } from '../helpers/action-record.ts'

for (const backend of backends) {
  describe.skipIf(backend.skip)(`repositories on ${backend.name}`, () => {
    it('stores and reads actions, in id order, and tracks the site-action tags', async () => {
      const { repos } = await backend.open()
      const a = action()
      const b = action({ validation_failed: true, tags_done: true, committed_rev_id: null, start_state: 'refused' })
      await repos.actions.insert(a)
      await repos.actions.insert(b)
      expect(await repos.actions.get(a.id)).toEqual(a)
      expect(await repos.actions.get('01ARZ3NDEKTSV4RRFFQ69G5FAV')).toBeUndefined()
      expect((await repos.actions.list()).map((x) => x.id)).toEqual([a.id, b.id])
      expect((await repos.actions.listTagsPending()).map((x) => x.id)).toEqual([a.id])
      await repos.actions.markTagsDone(a.id)
      expect(await repos.actions.listTagsPending()).toEqual([])
    })

    it('keeps audit rows and validation failures per action', async () => {
      const { repos } = await backend.open()
      const a = action()
      await repos.actions.insert(a)
      await repos.audit.insert({ id: newUlid(), action_id: a.id, command: 'invoke', user: 'admin', datetime: '2026-01-01T00:00:00.000Z' })
      await repos.audit.insert({ id: newUlid(), action_id: a.id, command: 'pause', user: 'ops', datetime: '2026-01-01T00:00:01.000Z' })
      expect((await repos.audit.listFor(a.id)).map((x) => x.command)).toEqual(['invoke', 'pause'])
      const failure = { id: newUlid(), action_id: a.id, validation_name: 'Intermediate commit detected', details: 'rerun with allow-intermediate-commits' }
      await repos.validationFailures.insert(failure)
      expect(await repos.validationFailures.listFor(a.id)).toEqual([failure])
      expect(await repos.validationFailures.listFor('other')).toEqual([])
    })

    it('finds notes by exact association or prefix, under a verbosity, oldest first', async () => {
      const { repos } = await backend.open()
      const base = { subject: 's', sub_type: 'action metadata', note_val: 'v', link_url: null, is_auth_link: false }
      await repos.notes.insert({ ...base, note_id: newUlid(), assoc_id: 'action/A', verbosity: 1, note_timestamp: '2026-01-01T00:00:02.000Z' })
      await repos.notes.insert({ ...base, note_id: newUlid(), assoc_id: 'action/A', verbosity: 5, note_timestamp: '2026-01-01T00:00:01.000Z' })
      await repos.notes.insert({ ...base, note_id: newUlid(), assoc_id: 'step/A/x', verbosity: 3, note_timestamp: '2026-01-01T00:00:00.000Z', link_url: 'http://h/x', is_auth_link: true })
      expect((await repos.notes.find({ exact: ['action/A'], maxVerbosity: 1 })).map((n) => n.verbosity)).toEqual([1])
      expect((await repos.notes.find({ exact: ['action/A'], maxVerbosity: 5 })).map((n) => n.verbosity)).toEqual([5, 1])
      const steps = await repos.notes.find({ prefix: 'step/A/', maxVerbosity: 5 })
      expect(steps).toHaveLength(1)
      expect(steps[0]).toMatchObject({ link_url: 'http://h/x', is_auth_link: true })
      expect(await repos.notes.get(steps[0]?.note_id ?? '')).toEqual(steps[0])
      expect(await repos.notes.find({ exact: ['action/A'], maxVerbosity: 0 })).toEqual([])
    })

    it('reads an action\'s detail in one read as the list reads give it: validations, audit, its notes and its steps\' notes', async () => {
      const { repos } = await backend.open()
      const a = action()
      const other = action()
      await repos.actions.insert(a)
      await repos.actions.insert(other)
      for (const [i, command] of ['invoke', 'pause', 'unpause'].entries()) {
        // recorded out of order: the read sorts by time, then id
        await repos.audit.insert({ id: newUlid(), action_id: a.id, command, user: 'admin', datetime: `2026-01-01T00:00:0${3 - i}.000Z` })
      }
      await repos.audit.insert({ id: newUlid(), action_id: other.id, command: 'invoke', user: 'admin', datetime: '2026-01-01T00:00:00.000Z' })
      await repos.validationFailures.insert({ id: newUlid(), action_id: a.id, validation_name: 'Intermediate commit detected', details: 'rerun' })
      const note = (assoc: string, verbosity: number, second: number) => ({
        note_id: newUlid(),
        assoc_id: assoc,
        subject: 's',
        sub_type: 'step metadata',
        note_val: `${assoc} ${verbosity}`,
        verbosity,
        link_url: verbosity === 2 ? 'http://notes.example/n' : null,
        is_auth_link: verbosity === 2,
        note_timestamp: `2026-01-01T00:00:0${second}.000Z`
      })
      for (const n of [
        note(`action/${a.id}`, 1, 5), note(`action/${a.id}`, 2, 4), note(`action/${a.id}`, 3, 6), note(`action/${other.id}`, 1, 1),
        note(`step/${a.id}/preflight`, 1, 3), note(`step/${a.id}/armada.armada_build`, 2, 2), note(`step/${a.id}/preflight`, 1, 1),
        note(`step/${other.id}/preflight`, 1, 1), note(`step/${a.id}0/x`, 1, 1)
      ]) await repos.notes.insert(n)

      for (const bounds of [{ action: 2, steps: 1 }, { action: 5, steps: 5 }, { action: 0, steps: 0 }]) {
        const found = await repos.actions.detail?.(a.id, bounds)
        expect(found).toEqual({
          action: a,
          validations: await repos.validationFailures.listFor(a.id),
          audit: await repos.audit.listFor(a.id),
          actionNotes: await repos.notes.find({ exact: [`action/${a.id}`], maxVerbosity: bounds.action }),
          stepNotes: await repos.notes.find({ prefix: `step/${a.id}/`, maxVerbosity: bounds.steps })
        })
      }
      const found = await repos.actions.detail?.(a.id, { action: 2, steps: 1 })
      expect(found?.audit.map((x) => x.command)).toEqual(['unpause', 'pause', 'invoke'])
      expect(found?.actionNotes.map((x) => x.verbosity)).toEqual([2, 1])
      expect(found?.stepNotes.map((x) => x.assoc_id)).toEqual([`step/${a.id}/preflight`, `step/${a.id}/preflight`])
      expect(await repos.actions.detail?.('01ARZ3NDEKTSV4RRFFQ69G5FAV', { action: 1, steps: 1 })).toBeUndefined()
    })

    it('gives the lock to one holder at a time, frees it on release, and lets an expired lease be taken over', async () => {
      const { repos } = await backend.open()
      const now = new Date()
      const lock = (id: string, at = now) => ({ id, lock_type: 'configdocs_update', user: 'u', reference_id: 'r', leaseS: 60, now: at })
      const first = await repos.locks.acquire(lock(newUlid()))
      expect(first).toMatchObject({ released: false, lock_type: 'configdocs_update' })
      expect(await repos.locks.acquire(lock(newUlid()))).toBeUndefined()
      await repos.locks.release(first?.id ?? '')
      const second = await repos.locks.acquire(lock(newUlid()))
      expect(second).toBeDefined()
      // the holder died: 61 s later its lease is over
      expect(await repos.locks.acquire(lock(newUlid(), new Date(now.getTime() + 61_000)))).toBeDefined()
    })

    it('renews a lease only while it is its holder\'s: not once it ran out, was released or was taken over', async () => {
      const { repos } = await backend.open()
      const t0 = new Date()
      const at = (s: number): Date => new Date(t0.getTime() + s * 1000)
      const lock = (id: string, now: Date) => ({ id, lock_type: 'configdocs_update', user: 'u', reference_id: 'r', leaseS: 60, now })
      const first = await repos.locks.acquire(lock(newUlid(), t0))
      // renewed at 50 s: in force until 110 s, so nobody takes it at 100 s
      expect(await repos.locks.renew({ id: first?.id ?? '', leaseS: 60, now: at(50) })).toBe(true)
      expect((await repos.locks.get(first?.id ?? ''))?.expires_at).toBe(at(110).toISOString())
      expect(await repos.locks.acquire(lock(newUlid(), at(100)))).toBeUndefined()
      // not renewed in time: at 111 s it is over, and another holder takes it
      expect(await repos.locks.renew({ id: first?.id ?? '', leaseS: 60, now: at(111) })).toBe(false)
      const second = await repos.locks.acquire(lock(newUlid(), at(111)))
      expect(second).toBeDefined()
      // a first holder whose clock runs behind still sees its lease in force: taken over all the same
      expect(await repos.locks.renew({ id: first?.id ?? '', leaseS: 60, now: at(105) })).toBe(false)
      expect((await repos.locks.get(first?.id ?? ''))?.expires_at).toBe(at(110).toISOString())
      expect(await repos.locks.renew({ id: second?.id ?? '', leaseS: 60, now: at(120) })).toBe(true)
      await repos.locks.release(second?.id ?? '')
      expect(await repos.locks.renew({ id: second?.id ?? '', leaseS: 60, now: at(121) })).toBe(false)
      expect(await repos.locks.renew({ id: newUlid(), leaseS: 60, now: at(121) })).toBe(false)
    })

    it('lets exactly one of many concurrent acquirers win', async () => {
      const { repos } = await backend.open()
      const now = new Date()
      const results = await Promise.all(Array.from({ length: 20 }, async () => await repos.locks.acquire({ id: newUlid(), lock_type: 'configdocs_update', user: 'u', reference_id: 'r', leaseS: 60, now })))
      expect(results.filter((r) => r !== undefined)).toHaveLength(1)
    })

    it('keeps everything across a restart', async () => {
      const { repos, reopen } = await backend.open()
      const a = action()
      await repos.actions.insert(a)
      await repos.audit.insert({ id: newUlid(), action_id: a.id, command: 'invoke', user: 'admin', datetime: new Date().toISOString() })
      await repos.notes.insert({ note_id: newUlid(), assoc_id: `action/${a.id}`, subject: a.id, sub_type: 'action metadata', note_val: 'Configdoc revision 3', verbosity: 1, link_url: null, is_auth_link: false, note_timestamp: new Date().toISOString() })
      await repos.close()
      const again = await reopen()
      expect(await again.actions.get(a.id)).toEqual(a)
      expect(await again.audit.listFor(a.id)).toHaveLength(1)
      expect(await again.notes.find({ exact: [`action/${a.id}`], maxVerbosity: 1 })).toHaveLength(1)
    })
  })
}

describe('the action detail on SQLite', () => {
  it('answers the same object while nothing is written, and reads again after any write, by this connection or another', async () => {
    const { repos, reopen } = await backends[0]!.open()
    const a = action()
    await repos.actions.insert(a)
    const bounds = { action: 1, steps: 1 }
    const first = await repos.actions.detail?.(a.id, bounds)
    expect(await repos.actions.detail?.(a.id, bounds)).toBe(first)
    // a write to any table, even one the detail does not read, is a new read
    await repos.locks.acquire({ id: newUlid(), lock_type: 'configdocs', user: 'admin', reference_id: 'x', leaseS: 60, now: new Date() })
    const afterLock = await repos.actions.detail?.(a.id, bounds)
    expect(afterLock).not.toBe(first)
    expect(afterLock).toEqual(first)
    await repos.audit.insert({ id: newUlid(), action_id: a.id, command: 'pause', user: 'admin', datetime: '2026-01-01T00:00:01.000Z' })
    expect((await repos.actions.detail?.(a.id, bounds))?.audit.map((x) => x.command)).toEqual(['pause'])
    // another connection to the same file (another process) commits: seen at once
    const other = await reopen()
    await other.audit.insert({ id: newUlid(), action_id: a.id, command: 'unpause', user: 'admin', datetime: '2026-01-01T00:00:02.000Z' })
    await other.actions.markStartFailed(a.id, 'nope')
    expect((await repos.actions.detail?.(a.id, bounds))?.audit.map((x) => x.command)).toEqual(['pause', 'unpause'])
    expect((await repos.actions.detail?.(a.id, { action: 2, steps: 1 }))?.action).toEqual(await repos.actions.get(a.id))
  })
})
