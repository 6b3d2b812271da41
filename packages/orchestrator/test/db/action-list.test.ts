// The action list's window (the newest so many, those after an id) and its version token, on the embedded SQLite and
// (when TEST_DATABASE_URL is set) PostgreSQL: both read the same rows in the same order and change the token on the
// same writes.
import { describe, expect, it } from 'vitest'
import { newUlid } from '@slipway/common'
import { DATABASES as backends } from '../helpers/databases.ts'
import { actionRecord as action } from '../helpers/action-record.ts'

const BASE_NOTE = { subject: 's', sub_type: 'action metadata', note_val: 'v', verbosity: 1, link_url: null, is_auth_link: false }
const note = (assocId: string) => ({ ...BASE_NOTE, note_id: newUlid(), assoc_id: assocId, note_timestamp: '2026-01-01T00:00:00.000Z' })

for (const backend of backends) {
  describe.skipIf(backend.skip)(`the action list on ${backend.name}`, () => {
    it('reads a window: the newest so many, those after an id, both, oldest first', async () => {
      const { repos } = await backend.open()
      const ids: string[] = []
      for (let i = 0; i < 5; i++) {
        const a = action()
        ids.push(a.id)
        await repos.actions.insert(a)
      }
      const idsOf = async (window?: { since?: string, limit?: number }) => (await repos.actions.list(window)).map((a) => a.id)
      expect(await idsOf()).toEqual(ids)
      expect(await idsOf({})).toEqual(ids)
      expect(await idsOf({ limit: 2 })).toEqual(ids.slice(3))
      expect(await idsOf({ limit: 9 })).toEqual(ids)
      expect(await idsOf({ since: ids[1] })).toEqual(ids.slice(2))
      expect(await idsOf({ since: ids[1], limit: 2 })).toEqual(ids.slice(3))
      expect(await idsOf({ since: ids[4] })).toEqual([])
      expect((await repos.actions.list({ limit: 1 }))[0]).toEqual(await repos.actions.get(String(ids[4])))
    })

    it('reads the whole list in pages: those after an id, oldest first, so many at a time', async () => {
      const { repos } = await backend.open()
      const ids: string[] = []
      for (let i = 0; i < 5; i++) {
        const a = action()
        ids.push(a.id)
        await repos.actions.insert(a)
      }
      const pageOf = async (after: string, limit: number) => (await repos.actions.page(after, limit)).map((a) => a.id)
      expect(await pageOf('', 2)).toEqual(ids.slice(0, 2))
      expect(await pageOf(String(ids[1]), 2)).toEqual(ids.slice(2, 4))
      expect(await pageOf(String(ids[3]), 2)).toEqual(ids.slice(4))
      expect(await pageOf(String(ids[4]), 2)).toEqual([])
      expect((await repos.actions.page('', 1))[0]).toEqual(await repos.actions.get(String(ids[0])))
    })

    it('changes the list version on each write a list shows, and only then', async () => {
      const { repos } = await backend.open()
      const versions = new Set<string>()
      const changed = async (): Promise<boolean> => {
        const version = await repos.actions.listVersion()
        const fresh = !versions.has(version)
        versions.add(version)
        return fresh
      }
      expect(await changed()).toBe(true)
      expect(await changed()).toBe(false)
      const pending = action({ start_state: 'pending', start_reason: null })
      await repos.actions.insert(pending)
      expect(await changed()).toBe(true)
      expect(await changed()).toBe(false)
      await repos.actions.notePending(pending.id, '2026-01-01T00:00:05.000Z', 'the engine did not answer')
      expect(await changed()).toBe(true)
      await repos.actions.markStarted(pending.id, null)
      expect(await changed()).toBe(true)
      const failing = action({ start_state: 'pending' })
      await repos.actions.insert(failing)
      expect(await changed()).toBe(true)
      await repos.actions.markStartFailed(failing.id, 'refused')
      expect(await changed()).toBe(true)
      await repos.notes.insert(note(`action/${failing.id}`))
      expect(await changed()).toBe(true)
      // what no list shows: a step's note, the tags settled, the audit
      await repos.notes.insert(note(`step/${failing.id}/action_xcom`))
      await repos.actions.markTagsDone(pending.id)
      await repos.audit.insert({ id: newUlid(), action_id: pending.id, command: 'pause', user: 'ops', datetime: '2026-01-01T00:00:01.000Z' })
      expect(await changed()).toBe(false)
    })
  })
}
