// The pre-run checks that need nothing but what they are given: a committed revision, no commit a site action has not
// used, and no error among the deployment documents' findings. Each passes quietly or throws the failure that the
// refused action is saved with and answered by. Then the in-progress check of a site action, over the fakes.
import { describe, expect, it } from 'vitest'
import { DownstreamError, type ValidationMessage } from '@slipway/common'
import {
  PreRunFailure, refuseDocumentErrors, refuseIntermediateCommits, requireCommittedRevision
} from '../../../src/domain/actions/pre-run-checks.ts'
import type { Versions } from '../../../src/domain/configdocs/versions.ts'
import { actionUseCases, freshCtx } from '../../helpers/action-use-cases.ts'
import { fakeEngine } from '../../helpers/fakes.ts'

function versions (revisions: Array<{ id: number, tags: string[] }>, committed?: number): Versions {
  const latest = revisions.at(-1)?.id
  return { revisions, committed, buffer: undefined, last_site_action: undefined, successful_site_action: undefined, latest }
}

function failureOf (check: () => void): PreRunFailure {
  try {
    check()
  } catch (error) {
    if (error instanceof PreRunFailure) return error
    throw error
  }
  throw new Error('the check passed')
}

const message = (text: string, error: boolean): ValidationMessage =>
  ({ kind: 'ValidationMessage', name: 'check', error, message: text, level: error ? 'Error' : 'Info', documents: [], diagnostic: null })

describe('requireCommittedRevision', () => {
  it('passes with a committed revision and fails without one', () => {
    expect(requireCommittedRevision(versions([{ id: 1, tags: ['committed'] }], 1))).toBeUndefined()
    const failure = failureOf(() => { requireCommittedRevision(versions([])) })
    expect(failure.title).toBe('No committed configdocs')
    expect(failure.details).toMatch(/commit configuration documents first/)
  })
})

describe('refuseIntermediateCommits', () => {
  it('passes when the commit before the committed one was used by a site action, or there is none', () => {
    expect(refuseIntermediateCommits(versions([{ id: 1, tags: ['committed'] }], 1), false)).toBeUndefined()
    const used = versions([{ id: 1, tags: ['committed', 'site-action-failure'] }, { id: 2, tags: ['committed'] }], 2)
    expect(refuseIntermediateCommits(used, false)).toBeUndefined()
  })

  it('fails on a commit no site action used, unless intermediate commits are allowed', () => {
    const unused = versions([{ id: 1, tags: ['committed'] }, { id: 2, tags: ['committed'] }], 2)
    expect(failureOf(() => { refuseIntermediateCommits(unused, false) }).title).toBe('Intermediate commit detected')
    expect(refuseIntermediateCommits(unused, true)).toBeUndefined()
  })
})

describe('refuseDocumentErrors', () => {
  it('passes on findings without an error, and fails on errors with each one as a message', () => {
    expect(refuseDocumentErrors([message('fine', false)], {})).toBeUndefined()
    const failure = failureOf(() => { refuseDocumentErrors([message('first', true), message('fine', false), message('second', true)], {}) })
    expect(failure.title).toBe('Document validation failed')
    expect(failure.details).toBe('first; second')
    expect(failure.messages.map((m) => m.message)).toEqual(['first', 'second'])
  })

  it('lets errors through when continue-on-fail is true, in any letter case', () => {
    expect(refuseDocumentErrors([message('first', true)], { 'continue-on-fail': 'TRUE' })).toBeUndefined()
    expect(refuseDocumentErrors([message('first', true)], { 'continue-on-fail': true })).toBeUndefined()
    expect(failureOf(() => { refuseDocumentErrors([message('first', true)], { 'continue-on-fail': 'yes' }) }).title).toBe('Document validation failed')
  })
})

describe('the in-progress check of a site action', () => {
  it('refuses while another site action\'s start is pending (the engine may yet run it), naming that action', async () => {
    const engine = fakeEngine()
    const trigger = engine.client.trigger
    engine.client.trigger = async () => { throw new DownstreamError('engine', 'socket hang up', { failure: 'unreachable' }) }
    const u = actionUseCases({ engine })
    await u.commitSite()
    await expect(u.create({ name: 'deploy_site', parameters: {} }, false, freshCtx())).rejects.toMatchObject({ statusCode: 503 })
    const [pending] = await u.repos.actions.list()
    engine.client.trigger = trigger
    const refused = await u.create({ name: 'update_software', parameters: {} }, true, freshCtx())
    expect(refused.created).toBe(false)
    expect(refused.body).toMatchObject({ reason: 'Another site action is in progress' })
    expect('validations' in refused.body && refused.body.validations[0]?.details)
      .toBe(`Action ${String(pending?.id)} (deploy_site) is waiting for the engine to confirm its run; GET /actions/${String(pending?.id)} shows when it has started or failed to start.`)
    // test_site is no site action: the check is not its
    expect((await u.create({ name: 'test_site', parameters: {} }, false, freshCtx())).created).toBe(true)
  })
})
