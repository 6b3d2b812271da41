// The start state of actions in the database (saved before the trigger, then started or failed), on the embedded
// SQLite and (when TEST_DATABASE_URL is set) PostgreSQL: the all-or-nothing insert, the state moves, the look-ups the
// retry and the reconciler make, and the upgrade of a database whose actions were saved before the column existed.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { describe, expect, it, onTestFinished } from 'vitest'
import { newUlid } from '@slipway/common'
import type { ActionRecord, Repositories } from '../../src/db/repositories.ts'
import { MIGRATIONS } from '../../src/db/migrations.ts'
import { openSqlite } from '../../src/db/sqlite.ts'
import { openPostgres } from '../../src/db/postgres.ts'
import { DATABASES, POSTGRES, throwAwaySchema } from '../helpers/databases.ts'

function action (overrides: Partial<ActionRecord> = {}): ActionRecord {
  return {
    id: newUlid(),
    name: 'test_site',
    parameters: { b: 1, a: [1, { y: 2, x: 1 }] },
    dag_id: 'test_site',
    dag_execution_date: null,
    user: 'admin',
    user_id: 'u-admin',
    project_id: 'p-service',
    datetime: new Date().toISOString(),
    context_marker: '123e4567-e89b-12d3-a456-426614174000',
    committed_rev_id: null,
    allow_intermediate_commits: false,
    validation_failed: false,
    tags_done: true,
    start_state: 'pending',
    start_reason: null,
    trigger_at: new Date().toISOString(),
    ...overrides
  }
}

const invoke = (a: ActionRecord) => ({ id: newUlid(), action_id: a.id, command: 'invoke', user: a.user, datetime: a.datetime })

for (const backend of DATABASES) {
  describe.skipIf(backend.skip)(`action starts on ${backend.name}`, () => {
    it('saves an action with its invoke audit and failed validation all or none', async () => {
      const { repos } = await backend.open()
      const a = action()
      const audit = invoke(a)
      await repos.actions.insert(a, { audit })
      expect(await repos.actions.get(a.id)).toEqual(a)
      expect(await repos.audit.listFor(a.id)).toEqual([audit])
      // the same audit id again: the second insert fails whole, its action is not saved
      const b = action()
      await expect(repos.actions.insert(b, { audit: { ...audit, action_id: b.id } })).rejects.toThrow()
      expect(await repos.actions.get(b.id)).toBeUndefined()
      const refused = action({ validation_failed: true, start_state: 'refused' })
      const failure = { id: newUlid(), action_id: refused.id, validation_name: 'No committed configdocs', details: 'commit first' }
      await repos.actions.insert(refused, { audit: invoke(refused), failure })
      expect(await repos.validationFailures.listFor(refused.id)).toEqual([failure])
    })

    it('moves a pending start to started or failed once, and lists only pending ones as pending', async () => {
      const { repos } = await backend.open()
      const a = action()
      const b = action()
      const c = action({ start_state: 'started', tags_done: false })
      for (const x of [a, b, c]) await repos.actions.insert(x)
      expect((await repos.actions.listStartPending()).map((x) => x.id)).toEqual([a.id, b.id])
      // only a started action's site-action tags are settled
      expect((await repos.actions.listTagsPending()).map((x) => x.id)).toEqual([c.id])
      await repos.actions.notePending(a.id, '2030-01-01T00:00:00.000Z', 'The engine did not answer')
      expect(await repos.actions.get(a.id)).toMatchObject({ trigger_at: '2030-01-01T00:00:00.000Z', start_reason: 'The engine did not answer' })
      expect(await repos.actions.markStarted(a.id, '2030-01-01T00:00:01.000Z')).toBe(true)
      expect(await repos.actions.get(a.id)).toMatchObject({ start_state: 'started', start_reason: null, dag_execution_date: '2030-01-01T00:00:01.000Z' })
      expect(await repos.actions.markStartFailed(a.id, 'too late')).toBe(false)
      expect(await repos.actions.markStartFailed(b.id, 'no run')).toBe(true)
      expect(await repos.actions.get(b.id)).toMatchObject({ start_state: 'failed', start_reason: 'no run' })
      // a run that turned up after all
      expect(await repos.actions.markStarted(b.id, null)).toBe(true)
      expect(await repos.actions.get(b.id)).toMatchObject({ start_state: 'started', start_reason: null })
      expect(await repos.actions.markStarted(c.id, null)).toBe(false)
      expect(await repos.actions.listStartPending()).toEqual([])
    })

    it('finds the earlier tries of a request by marker, caller (user id and project) and name within the window, and the workflow and start state of run ids', async () => {
      const { repos } = await backend.open()
      const marker = 'aaaaaaaa-e89b-12d3-a456-426614174000'
      const old = action({ context_marker: marker, datetime: '2020-01-01T00:00:00.000Z', start_state: 'started' })
      const pending = action({ context_marker: marker })
      const failed = action({ context_marker: marker, start_state: 'failed' })
      // the same user name: in another project, another user (another id), no project at all
      const otherProject = action({ context_marker: marker, project_id: 'p-other' })
      const otherUser = action({ context_marker: marker, user_id: 'u-other' })
      const noProject = action({ context_marker: marker, project_id: null })
      for (const x of [old, pending, failed, otherProject, otherUser, noProject]) await repos.actions.insert(x)
      expect(await repos.actions.get(otherProject.id)).toEqual(otherProject)
      const find = async (userId: string, projectId: string | null, name = 'test_site') =>
        (await repos.actions.findRetries({ contextMarker: marker, userId, projectId, name, since: '2025-01-01T00:00:00.000Z' })).map((x) => x.id)
      expect(await find('u-admin', 'p-service')).toEqual([pending.id])
      expect(await find('u-admin', 'p-other')).toEqual([otherProject.id])
      expect(await find('u-other', 'p-service')).toEqual([otherUser.id])
      expect(await find('u-admin', null)).toEqual([noProject.id])
      expect(await find('u-nobody', 'p-service')).toEqual([])
      expect(await find('u-admin', 'p-service', 'deploy_site')).toEqual([])
      const deploy = action({ name: 'deploy_site', dag_id: 'deploy_site', validation_failed: true, start_state: 'refused' })
      await repos.actions.insert(deploy)
      const owners = await repos.actions.runOwners([pending.id, failed.id, deploy.id, 'not-an-action'])
      expect(owners).toEqual(new Map([
        [pending.id, { dag_id: 'test_site', start_state: 'pending' }],
        [failed.id, { dag_id: 'test_site', start_state: 'failed' }],
        [deploy.id, { dag_id: 'deploy_site', start_state: 'refused' }]
      ]))
      expect(await repos.actions.runOwners([])).toEqual(new Map())
      const many = Array.from({ length: 1500 }, () => newUlid())
      expect((await repos.actions.runOwners([...many, old.id])).get(old.id)).toEqual({ dag_id: 'test_site', start_state: 'started' })
    })
  })
}

/** The rows a version-1 database held: one started action, one refused by a pre-run validation. */
const V1_ROWS = `
INSERT INTO actions (id, name, parameters, dag_id, dag_execution_date, "user", datetime, context_marker, committed_rev_id,
  allow_intermediate_commits, validation_failed, tags_done)
VALUES ('01ARZ3NDEKTSV4RRFFQ69G5FA1', 'deploy_site', '{}', 'deploy_site', '2025-01-01T00:00:00.000Z', 'admin', '2025-01-01T00:00:00.000Z', 'm', 2, 0, 0, 1),
       ('01ARZ3NDEKTSV4RRFFQ69G5FA2', 'update_site', '{}', 'update_site', NULL, 'admin', '2025-01-01T00:00:01.000Z', 'm', 2, 0, 1, 1);
`

async function expectUpgraded (repos: Repositories): Promise<void> {
  expect(await repos.actions.get('01ARZ3NDEKTSV4RRFFQ69G5FA1')).toMatchObject({ start_state: 'started', start_reason: null, trigger_at: null })
  // saved before the caller's id and project were kept: never answered as a retry, whoever asks
  expect(await repos.actions.get('01ARZ3NDEKTSV4RRFFQ69G5FA1')).toMatchObject({ user: 'admin', user_id: null, project_id: null })
  for (const projectId of [null, 'admin', 'service']) {
    expect(await repos.actions.findRetries({ contextMarker: 'm', userId: 'admin', projectId, name: 'deploy_site', since: '2000-01-01T00:00:00.000Z' })).toEqual([])
  }
  expect(await repos.actions.get('01ARZ3NDEKTSV4RRFFQ69G5FA2')).toMatchObject({ start_state: 'refused', validation_failed: true })
  expect(await repos.actions.listStartPending()).toEqual([])
}

describe('a database from before actions were saved before their trigger', () => {
  it('sqlite: upgrades, its actions started or refused', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'orch-v1-'))
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }))
    const old = new DatabaseSync(join(dir, 'orchestrator.sqlite'))
    old.exec(`CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY); INSERT INTO schema_migrations VALUES (1); ${MIGRATIONS[0]?.sqlite ?? ''} ${V1_ROWS}`)
    old.close()
    const repos = openSqlite(dir)
    onTestFinished(async () => { await repos.close() })
    await expectUpgraded(repos)
  })

  it.skipIf(POSTGRES.skip)('postgres: upgrades, its actions started or refused', async () => {
    const { url, schema, admin } = await throwAwaySchema()
    await admin.query(`CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY); INSERT INTO schema_migrations VALUES (1); ${MIGRATIONS[0]?.postgres ?? ''} ${V1_ROWS}`)
    const repos = await openPostgres(url, { schema })
    onTestFinished(async () => { await repos.close() })
    await expectUpgraded(repos)
  })
})
