// The staging journal on SQLite and PostgreSQL: rows kept across a restart until finished, newest first.
import { describe, expect, it } from 'vitest'
import { DATABASES } from '../helpers/databases.ts'

describe.each(DATABASES)('$name: staging journal', (backend) => {
  it.skipIf(backend.skip)('keeps a staging begun and not finished across a restart, newest first, and forgets it once finished (saying whether it was there)', async () => {
    const { repos, reopen } = await backend.open()
    const first = {
      id: '01J00000000000000000000001',
      sources: [{ collection: 'global', revision: 7 }, { collection: 'site', revision: 5 }, { collection: 'extra', revision: null }],
      user: 'admin',
      context_marker: 'c1',
      started_at: '2026-01-01T00:00:00.000Z'
    }
    const second = { ...first, id: '01J00000000000000000000002', sources: [{ collection: 'only', revision: null }], started_at: '2026-01-01T00:00:01.000Z' }
    await repos.stagingJournal.begin(first)
    await repos.stagingJournal.begin(second)
    expect(await repos.stagingJournal.pending()).toEqual([second, first])
    await repos.close()
    const again = await reopen()
    expect(await again.stagingJournal.pending()).toEqual([second, first])
    expect(await again.stagingJournal.finish(second.id)).toBe(true)
    expect(await again.stagingJournal.pending()).toEqual([first])
    expect(await again.stagingJournal.finish(first.id)).toBe(true)
    expect(await again.stagingJournal.pending()).toEqual([])
    // a row already gone (undone by another holder of the configdocs lock) is told apart from one just finished
    expect(await again.stagingJournal.finish(first.id)).toBe(false)
  })
})
