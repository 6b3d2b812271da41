// The read use cases over the fakes: versions compared, a collection at a version, the rendered documents.
import { describe, expect, it } from 'vitest'
import { configdocsUseCases, collectionYaml, CTX, input } from '../../helpers/configdocs-use-cases.ts'

describe('reads', () => {
  it('compares two versions with the older as base whatever order they are given in', async () => {
    const u = configdocsUseCases()
    await u.stage('global', input(collectionYaml('a', '1')), CTX)
    const expected = [{
      collection_name: 'global',
      base_version: 'committed',
      base_revision: 0,
      new_version: 'buffer',
      new_revision: 1,
      base_status: 'not present',
      new_status: 'created'
    }]
    expect(await u.reads.status(['committed', 'buffer'], CTX)).toEqual(expected)
    expect(await u.reads.status(['buffer', 'committed'], CTX)).toEqual(expected)
    await expect(u.reads.status(['last_site_action', 'buffer'], CTX)).rejects.toMatchObject({ statusCode: 404, message: 'Version does not exist' })
  })

  it('reads a collection of the buffer, an emptied one as an empty text, and answers 404 for one not there', async () => {
    const u = configdocsUseCases()
    await expect(u.reads.collection('global', 'buffer', false, CTX)).rejects.toMatchObject({ statusCode: 404 })
    await u.stage('global', input(collectionYaml('a', '1')), CTX)
    expect(await u.reads.collection('global', 'buffer', false, CTX)).toBe(collectionYaml('a', '1'))
    await u.commit({ force: true, dryrun: false }, CTX)
    await u.stage('global', { ...input(''), emptyCollection: true }, CTX)
    expect(await u.reads.collection('global', 'buffer', false, CTX)).toBe('')
    expect(await u.reads.collection('global', 'committed', false, CTX)).toBe(collectionYaml('a', '1'))
    await expect(u.reads.collection('site', 'committed', false, CTX)).rejects.toMatchObject({
      statusCode: 404, reason: 'No collection site for revision committed'
    })
    await expect(u.reads.rendered('last_site_action', false, CTX)).rejects.toMatchObject({ statusCode: 404 })
  })
})
