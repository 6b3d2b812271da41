// The staging use case over the fakes: the buffer modes, and a refusal that writes nothing.
import { describe, expect, it } from 'vitest'
import { configdocsUseCases, collectionYaml, CTX, input } from '../../helpers/configdocs-use-cases.ts'

describe('stage', () => {
  it('stages into an empty buffer; rejectOnContents then refuses another collection with 409, append takes it', async () => {
    const u = configdocsUseCases()
    expect(await u.stage('global', input(collectionYaml('a', '1')), CTX)).toMatchObject({ status: 'Success', code: '201 Created' })
    await expect(u.stage('site', input(collectionYaml('b', '2')), CTX)).rejects.toMatchObject({
      statusCode: 409, message: 'Invalid collection specified for buffer', reason: 'Buffermode : rejectOnContents'
    })
    await expect(u.stage('global', input(collectionYaml('a', '3'), 'append'), CTX)).rejects.toMatchObject({ statusCode: 409 })
    expect(u.store.revisions).toHaveLength(1)
    await u.stage('site', input(collectionYaml('b', '2'), 'append'), CTX)
    expect([...(u.store.revisions.at(-1)?.collections.keys() ?? [])]).toEqual(['global', 'site'])
  })

  it('with replace, writes the buffer\'s other collections back as committed before staging the new one', async () => {
    const u = configdocsUseCases()
    await u.stage('global', input(collectionYaml('a', '1')), CTX)
    await u.commit({ force: true, dryrun: false }, CTX)
    await u.stage('global', input(collectionYaml('a', '2')), CTX)
    await u.stage('site', input(collectionYaml('b', '1'), 'append'), CTX)
    await u.stage('extra', input(collectionYaml('c', '1'), 'replace'), CTX)
    expect((await u.reads.status(['committed', 'buffer'], CTX)).map((s) => [s.collection_name, s.new_status]))
      .toEqual([['extra', 'created'], ['global', 'unmodified']])
    expect(await u.repos.stagingJournal.pending()).toEqual([])
  })

  it('refuses a body with no documents, or the committed documents again, with 400 and leaves the buffer as it was', async () => {
    const u = configdocsUseCases()
    await expect(u.stage('global', input('# only a comment\n'), CTX)).rejects.toMatchObject({ statusCode: 400, message: 'No documents in the body' })
    expect(u.store.revisions).toEqual([])
    await u.stage('global', input(collectionYaml('a', '1')), CTX)
    await u.commit({ force: true, dryrun: false }, CTX)
    await expect(u.stage('global', input(collectionYaml('a', '1')), CTX)).rejects.toMatchObject({
      statusCode: 400, message: 'Collection global not added to Shipyard buffer'
    })
    expect(u.store.revisions).toHaveLength(1)
  })

  it('refuses a body without the deployment-version document when that check is an error, before writing', async () => {
    const u = configdocsUseCases({ versionSeverity: 'Error' })
    await expect(u.stage('global', input(collectionYaml('a', '1')), CTX)).rejects.toMatchObject({
      statusCode: 400, message: 'Deployment version document missing from collection'
    })
    expect(u.store.revisions).toEqual([])
  })
})
