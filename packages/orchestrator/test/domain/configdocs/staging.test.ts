// The recovery of a staging cut short, over the fakes: a journal row left behind is undone under the configdocs lock.
import { describe, expect, it } from 'vitest'
import { newUlid } from '@slipway/common'
import { configdocsUseCases, collectionYaml, CTX, input } from '../../helpers/configdocs-use-cases.ts'

describe('recoverStaging', () => {
  it('writes each collection of a row left behind back as its source revision holds it, and answers how many it undid', async () => {
    const u = configdocsUseCases()
    await u.stage('global', input(collectionYaml('a', '1')), CTX)
    // a staging that wrote `site` and was cut short before it finished: its row names what `site` held before (none)
    await u.repos.stagingJournal.begin({
      id: newUlid(), sources: [{ collection: 'site', revision: null }], user: 'admin', context_marker: 'c', started_at: new Date().toISOString()
    })
    await u.store.client.putCollection('site', collectionYaml('b', '1'), CTX)
    expect(await u.recoverStaging(CTX)).toBe(1)
    expect([...(u.store.revisions.at(-1)?.collections.keys() ?? [])]).toEqual(['global'])
    expect(await u.recoverStaging(CTX)).toBe(0)
  })

  it('answers busy while another holder has the configdocs lock, and undoes nothing', async () => {
    const u = configdocsUseCases()
    await u.repos.stagingJournal.begin({
      id: newUlid(), sources: [{ collection: 'site', revision: null }], user: 'admin', context_marker: 'c', started_at: new Date().toISOString()
    })
    await u.repos.locks.acquire({ id: newUlid(), lock_type: 'configdocs_update', user: 'other', reference_id: 'x', leaseS: 60, now: new Date() })
    expect(await u.recoverStaging(CTX)).toBe('busy')
    expect(await u.repos.stagingJournal.pending()).toHaveLength(1)
  })
})
