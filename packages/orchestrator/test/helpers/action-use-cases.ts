// The action use cases built as createDeps builds them (createActionUseCases), over the fake store and engine
// (helpers/fakes.ts) and an in-memory database; closed when the test ends. For the rules of creating, controlling,
// reading and tagging actions without an app or a stand-in.
import { onTestFinished } from 'vitest'
import type { RequestContext } from '@slipway/common'
import { loadConfig } from '../../src/config.ts'
import { createActionUseCases } from '../../src/deps.ts'
import { openSqlite } from '../../src/db/sqlite.ts'
import { createDatabaseLease } from '../../src/domain/database-lease.ts'
import { createNotes } from '../../src/domain/notes.ts'
import { SITE_ACTION_LOCK } from '../../src/domain/actions/create.ts'
import { fakeEngine, fakeNoteSource, fakeStore } from './fakes.ts'
import { GLOBAL_YAML, SITE_YAML } from './example-site.ts'

/** A caller's context: `admin`, allowed everything, with a marker of its own unless `over` says otherwise. */
export function callerCtx (over: Partial<RequestContext> = {}): RequestContext {
  return {
    requestId: 'r1',
    contextMarker: '0f6c3a52-6b7e-4c1a-9d2e-5a8b7c6d4e3f',
    authenticated: true,
    user: 'admin',
    userId: 'u-admin',
    projectId: 'p-site',
    roles: ['admin'],
    token: undefined,
    authorize: () => {},
    ...over
  }
}

/** A context of its own for each request: the marker is the request id, as when the caller sent none. */
export function freshCtx (): RequestContext {
  const id = crypto.randomUUID()
  return callerCtx({ requestId: id, contextMarker: id })
}

/** `engine`: a fake engine changed before the use cases take its methods; `env`: more of the configuration. */
export function actionUseCases (options: { engine?: ReturnType<typeof fakeEngine>, env?: Record<string, string> } = {}) {
  const store = fakeStore()
  const engine = options.engine ?? fakeEngine()
  const repos = openSqlite(':memory:')
  onTestFinished(async () => { await repos.close() })
  const config = loadConfig({ LOG_LEVEL: 'silent', ...options.env })
  const notes = createNotes({ repos, fetchUrl: fakeNoteSource().fetch })
  const startLock = createDatabaseLease({ repos, leaseS: 60, lockType: SITE_ACTION_LOCK, waitMs: 1000 })
  const wired = { repos, engine: engine.client, store: store.client, notes, reads: undefined, startLock }
  const actions = createActionUseCases(config, {}, wired)
  /** The example site written to the fake store and its last revision tagged committed; answers that revision. */
  async function commitSite (): Promise<number> {
    await store.client.putCollection('global', GLOBAL_YAML, callerCtx())
    await store.client.putCollection('site', SITE_YAML, callerCtx())
    const revision = store.revisions.at(-1)!
    revision.tags.push('committed')
    return revision.id
  }
  return { store, engine, repos, ...actions, commitSite }
}

export type ActionUseCases = ReturnType<typeof actionUseCases>
