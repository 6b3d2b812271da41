// The commit use case over the fakes: it answers whether it committed and the body; the route picks the status.
import { describe, expect, it } from 'vitest'
import type { ValidationMessage } from '@slipway/common'
import { configdocsUseCases, CTX, input } from '../../helpers/configdocs-use-cases.ts'
import { GLOBAL_YAML, SITE_YAML } from '../../helpers/example-site.ts'

/** The example site staged: a buffer that passes every check. */
async function stageSite (u: ReturnType<typeof configdocsUseCases>): Promise<void> {
  await u.stage('global', input(GLOBAL_YAML), CTX)
  await u.stage('site', input(SITE_YAML, 'append'), CTX)
}

const ERROR: ValidationMessage = {
  kind: 'ValidationMessage', name: 'Promenade', error: true, level: 'Error', message: 'no', documents: [], diagnostic: null, source: 'Promenade'
}

describe('commit', () => {
  it('on a dry run validates the buffer and commits nothing: committed false, DRYRUN in the body', async () => {
    const u = configdocsUseCases()
    await stageSite(u)
    const result = await u.commit({ force: false, dryrun: true }, CTX)
    expect(result.committed).toBe(false)
    expect(result.body).toMatchObject({ status: 'Success', message: 'Validations succeeded DRYRUN' })
    expect(u.store.revisions.flatMap((r) => r.tags)).toEqual([])
  })

  it('commits nothing when a validator finds an error, unless forced; the validators get the buffer rendered by the store', async () => {
    const u = configdocsUseCases()
    await stageSite(u)
    u.validators.state.messages = [ERROR]
    const refused = await u.commit({ force: false, dryrun: false }, CTX)
    expect(refused.committed).toBe(false)
    expect(refused.body).toMatchObject({ status: 'Failure', details: { errorCount: 1 } })
    expect(u.store.revisions.flatMap((r) => r.tags)).toEqual([])
    expect(u.validators.state.designRefs).toEqual(['deckhand+http://store.test/api/v1.0/revisions/2/rendered-documents'])
    const forced = await u.commit({ force: true, dryrun: false }, CTX)
    expect(forced.committed).toBe(true)
    expect(forced.body).toMatchObject({ message: 'Validations failed FORCED SUCCESS', details: { errorCount: 1 } })
    expect(u.store.revisions.map((r) => r.tags)).toEqual([[], ['committed']])
  })

  it('refuses with 409 when nothing is staged, or when the buffer is not the revision the caller examined', async () => {
    const u = configdocsUseCases()
    await expect(u.commit({ force: false, dryrun: false }, CTX)).rejects.toMatchObject({
      statusCode: 409, reason: 'There are no documents in the buffer to commit'
    })
    await stageSite(u)
    await expect(u.commit({ force: false, dryrun: false, bufferRevision: 7 }, CTX)).rejects.toMatchObject({
      statusCode: 409, message: 'Unable to commit configuration documents'
    })
    expect(u.store.revisions.flatMap((r) => r.tags)).toEqual([])
    expect((await u.commit({ force: false, dryrun: false, bufferRevision: 2 }, CTX)).committed).toBe(true)
  })
})
