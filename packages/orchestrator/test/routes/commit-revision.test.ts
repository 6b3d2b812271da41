// POST /commitconfigdocs with buffer-revision (an extension): a commit or dry run speaks for the buffer revision the
// caller examined, and is refused with 409 once the buffer is another — another operator's change staged meanwhile is
// never committed unseen, with force or without. Without the parameter the commit takes the buffer as it is.
import { describe, expect, it } from 'vitest'
import { AUTH } from '@slipway/common/testing'
import { buildTestApp, type TestApp } from '../helpers/test-app.ts'
import { GLOBAL_YAML, SITE_YAML } from '../helpers/example-site.ts'

const YAML = { ...AUTH, 'content-type': 'application/x-yaml' }
const FAILURE = { kind: 'ValidationMessage' as const, name: 'Promenade', error: true, level: 'Error', message: 'no hardware profile', documents: [], diagnostic: null, source: 'Promenade' }

async function stage (t: TestApp, collection: string, body: string, query = '') {
  const res = await t.app.inject({ method: 'POST', url: `/api/v1.0/configdocs/${collection}${query}`, headers: YAML, payload: body })
  expect(res.statusCode, res.body).toBe(201)
}

const commit = async (t: TestApp, query: string) =>
  await t.app.inject({ method: 'POST', url: `/api/v1.0/commitconfigdocs${query}`, headers: AUTH })

const committedTags = (t: TestApp): number[] => t.store.revisions.filter((r) => r.tags.includes('committed')).map((r) => r.id)

/** global committed (revision 1), site staged (revision 2), and a validator that fails the buffer. */
async function stagedSite (): Promise<TestApp> {
  const t = await buildTestApp()
  await stage(t, 'global', GLOBAL_YAML)
  expect((await commit(t, '')).statusCode).toBe(200)
  await stage(t, 'site', SITE_YAML)
  t.validators.state.messages = [FAILURE]
  return t
}

describe('POST /api/v1.0/commitconfigdocs?buffer-revision=', () => {
  it('refuses a forced commit with 409 when another deletion was staged after the dry run, and commits nothing', async () => {
    const t = await stagedSite()
    const dry = await commit(t, '?dryrun=true&buffer-revision=2')
    expect(dry.statusCode).toBe(200)
    expect(dry.json()).toMatchObject({ message: 'Validations failed DRYRUN', details: { errorCount: 1 } })
    // another operator stages the deletion of global while the first one confirms
    await stage(t, 'global', '', '?buffermode=append&empty-collection=true')
    const forced = await commit(t, '?force=true&buffer-revision=2')
    expect(forced.statusCode).toBe(409)
    expect(forced.json()).toMatchObject({
      status: 'Failure',
      code: '409 Conflict',
      message: 'Unable to commit configuration documents',
      reason: 'The buffer is revision 3, not revision 2 as examined: it changed since. Read the buffer again (GET /configdocs) and run a new dry run before committing.',
      retry: false
    })
    expect(committedTags(t)).toEqual([1])
    // the buffer still holds both changes
    const status = (await t.app.inject({ url: '/api/v1.0/configdocs', headers: AUTH })).json()
    expect(status.map((c: { collection_name: string, new_status: string }) => `${c.collection_name}=${c.new_status}`)).toEqual(['global=deleted', 'site=created'])
    // a dry run of the old revision is refused the same way; of the new one it answers, and that revision commits
    expect((await commit(t, '?dryrun=true&buffer-revision=2')).statusCode).toBe(409)
    expect((await commit(t, '?dryrun=true&buffer-revision=3')).statusCode).toBe(200)
    const again = await commit(t, '?force=true&buffer-revision=3')
    expect(again.statusCode).toBe(200)
    expect(again.json()).toMatchObject({ message: 'Validations failed FORCED SUCCESS', code: '200 OK' })
    expect(committedTags(t)).toEqual([1, 3])
  })

  it('commits the examined revision without force when it validates; once committed, the same revision is a 409 saying the buffer is empty', async () => {
    const t = await stagedSite()
    t.validators.state.messages = []
    const done = await commit(t, '?buffer-revision=2')
    expect(done.statusCode).toBe(200)
    expect(done.json()).toMatchObject({ status: 'Success', message: 'Validations succeeded' })
    const late = await commit(t, '?force=true&buffer-revision=2')
    expect(late.statusCode).toBe(409)
    expect(late.json().reason).toBe('The buffer is empty (nothing is staged), not revision 2 as examined: it changed since. ' +
      'Read the buffer again (GET /configdocs) and run a new dry run before committing.')
    expect(committedTags(t)).toEqual([1, 2])
  })

  it('answers 400 for a buffer-revision that is no revision id, before anything is read', async () => {
    const t = await stagedSite()
    for (const bad of ['0', '-1', 'abc', '2.5', '1e3', '']) {
      const res = await commit(t, `?force=true&buffer-revision=${bad}`)
      expect(res.statusCode, bad).toBe(400)
      expect(res.json()).toMatchObject({ status: 'Failure', message: 'Invalid buffer-revision parameter', code: '400 Bad Request' })
    }
    expect(committedTags(t)).toEqual([1])
  })

  it('leaves the seed\'s commit as it was: without the parameter, force commits the buffer as it is when the commit runs', async () => {
    const t = await stagedSite()
    await stage(t, 'global', '', '?buffermode=append&empty-collection=true')
    const forced = await commit(t, '?force=true')
    expect(forced.statusCode).toBe(200)
    expect(forced.json()).toMatchObject({ message: 'Validations failed FORCED SUCCESS' })
    expect(committedTags(t)).toEqual([1, 3])
  })
})
