// Upgrades from every released schema: a database made by the oldest migration alone — then by each later one but
// the newest — holding what that schema held (actions started and refused, their command audit, a validation failure,
// action and step notes, a released lock), is opened the way the orchestrator opens its database at start
// (openDatabase: ORCHESTRATOR_DATA_DIR, or DATABASE_URL), and everything it held is read back through the API as
// every schema since has shown it. On the embedded SQLite, and on PostgreSQL when TEST_DATABASE_URL is set.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { describe, expect, it, onTestFinished } from 'vitest'
import { AUTH } from '@slipway/common/testing'
import { MIGRATIONS } from '../../src/db/migrations.ts'
import { openDatabase } from '../../src/db/open.ts'
import { buildTestStack } from '../helpers/stack.ts'
import { POSTGRES, throwAwaySchema } from '../helpers/databases.ts'

const STARTED = '01ARZ3NDEKTSV4RRFFQ69G5FA1'
const REFUSED = '01ARZ3NDEKTSV4RRFFQ69G5FA2'
const NOTE = '01ARZ3NDEKTSV4RRFFQ69G5FN1'
const STEP_NOTE = '01ARZ3NDEKTSV4RRFFQ69G5FN2'
const FAILURE = '01ARZ3NDEKTSV4RRFFQ69G5FV1'

/** What the oldest schema held, in its own columns: every later migration only adds to these tables. */
const OLDEST_ROWS = `
INSERT INTO actions (id, name, parameters, dag_id, dag_execution_date, "user", datetime, context_marker, committed_rev_id,
  allow_intermediate_commits, validation_failed, tags_done)
VALUES ('${STARTED}', 'deploy_site', '{"continue-on-fail":"true"}', 'deploy_site', '2025-01-01T00:00:00.000Z', 'admin',
        '2025-01-01T00:00:00.000Z', '123e4567-e89b-12d3-a456-426614174000', 2, 0, 0, 1),
       ('${REFUSED}', 'update_site', '{}', 'update_site', NULL, 'operator', '2025-01-02T00:00:00.000Z',
        '123e4567-e89b-12d3-a456-426614174001', 2, 1, 1, 1);
INSERT INTO action_command_audit (id, action_id, command, "user", datetime)
VALUES ('01ARZ3NDEKTSV4RRFFQ69G5FC1', '${STARTED}', 'invoke', 'admin', '2025-01-01T00:00:00.000Z'),
       ('01ARZ3NDEKTSV4RRFFQ69G5FC2', '${STARTED}', 'pause', 'admin', '2025-01-01T00:01:00.000Z'),
       ('01ARZ3NDEKTSV4RRFFQ69G5FC3', '${STARTED}', 'unpause', 'admin', '2025-01-01T00:02:00.000Z'),
       ('01ARZ3NDEKTSV4RRFFQ69G5FC4', '${REFUSED}', 'invoke', 'operator', '2025-01-02T00:00:00.000Z');
INSERT INTO preflight_validation_failures (id, action_id, validation_name, details)
VALUES ('${FAILURE}', '${REFUSED}', 'Site design', 'Node n9 has no kubelet certificate');
INSERT INTO api_locks (id, lock_type, "user", reference_id, acquired_at, expires_at, released)
VALUES ('01ARZ3NDEKTSV4RRFFQ69G5FL1', 'configdocs', 'admin', '123e4567-e89b-12d3-a456-426614174002',
        '2025-01-01T00:00:00.000Z', '2025-01-01T00:05:00.000Z', 1);
INSERT INTO notes (note_id, assoc_id, subject, sub_type, note_val, verbosity, link_url, is_auth_link, note_timestamp)
VALUES ('${NOTE}', 'action/${STARTED}', '${STARTED}', 'action metadata', 'Configdoc revision 2', 1, NULL, 0,
        '2025-01-01T00:00:01.000Z'),
       ('${STEP_NOTE}', 'step/${STARTED}/drydock_build', 'drydock_build', 'step metadata', 'Drydock task 7', 1, NULL, 0,
        '2025-01-01T00:00:02.000Z');
`

/** The text that makes a database of schema `version`: its migrations in order, recorded as the runner records them. */
function schemaUpTo (version: number, dialect: 'sqlite' | 'postgres'): string {
  const applied = MIGRATIONS.filter((m) => m.version <= version)
  return [
    'CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY);',
    ...applied.map((m) => `${m[dialect]}\nINSERT INTO schema_migrations (version) VALUES (${m.version});`)
  ].join('\n')
}

/** Every schema an orchestrator was released with before the newest, the oldest first. */
const OLDER = MIGRATIONS.map((m) => m.version).filter((v) => v < Math.max(...MIGRATIONS.map((m) => m.version)))

async function expectReadBack (config: { DATABASE_URL: string, ORCHESTRATOR_DATA_DIR: string }): Promise<void> {
  const repos = await openDatabase(config)
  onTestFinished(async () => { await repos.close() })
  const { app } = await buildTestStack({ repos })
  const get = async (url: string) => await app.inject({ url: `/api/v1.0${url}`, headers: AUTH })

  const list = await get('/actions')
  expect(list.statusCode).toBe(200)
  expect(list.json().map((a: { id: string }) => a.id)).toEqual([STARTED, REFUSED])

  const started = await get(`/actions/${STARTED}?verbosity=5`)
  expect(started.statusCode).toBe(200)
  expect(started.json()).toMatchObject({
    id: STARTED,
    name: 'deploy_site',
    parameters: { 'continue-on-fail': 'true' },
    dag_id: 'deploy_site',
    dag_execution_date: '2025-01-01T00:00:00',
    user: 'admin',
    datetime: '2025-01-01 00:00:00.000000+00:00',
    context_marker: '123e4567-e89b-12d3-a456-426614174000',
    // saved before the start was recorded: an action the engine had started
    start_status: 'started',
    validations: [],
    command_audit: [
      { id: '01ARZ3NDEKTSV4RRFFQ69G5FC1', action_id: STARTED, command: 'invoke', user: 'admin' },
      { id: '01ARZ3NDEKTSV4RRFFQ69G5FC2', action_id: STARTED, command: 'pause', user: 'admin' },
      { id: '01ARZ3NDEKTSV4RRFFQ69G5FC3', action_id: STARTED, command: 'unpause', user: 'admin' }
    ],
    notes: [{
      note_id: NOTE,
      assoc_id: `action/${STARTED}`,
      note_val: 'Configdoc revision 2',
      sub_type: 'action metadata',
      note_timestamp: '2025-01-01 00:00:01.000000+00:00',
      resolved_url_value: null
    }]
  })
  // a step's note is shown with its step, which only the engine's run has: the row is there for it
  expect((await repos.notes.find({ prefix: `step/${STARTED}/`, maxVerbosity: 5 })).map((n) => n.note_id)).toEqual([STEP_NOTE])

  const refused = await get(`/actions/${REFUSED}`)
  expect(refused.statusCode).toBe(200)
  expect(refused.json()).toMatchObject({
    id: REFUSED,
    user: 'operator',
    action_lifecycle: 'Failed',
    start_status: 'refused',
    validations: [{ validation_name: 'Site design', action_id: REFUSED, id: FAILURE, details: 'Node n9 has no kubelet certificate' }],
    command_audit: [{ command: 'invoke', user: 'operator' }]
  })
  const failure = await get(`/actions/${REFUSED}/validations/${FAILURE}`)
  expect(failure.statusCode).toBe(200)
  expect(failure.json()).toMatchObject({ id: FAILURE, validation_name: 'Site design', details: 'Node n9 has no kubelet certificate' })

  // saved before callers' ids were kept, and long ago: the same marker again is a new action, never a replay of it
  const again = await app.inject({
    method: 'POST',
    url: '/api/v1.0/actions',
    headers: { ...AUTH, 'content-type': 'application/json', 'x-context-marker': '123e4567-e89b-12d3-a456-426614174000' },
    payload: '{"name":"deploy_site","parameters":{"continue-on-fail":"true"}}'
  })
  expect(again.json().id).not.toBe(STARTED)
  expect(again.json().replayed).toBeUndefined()
}

describe('a database of an earlier release', () => {
  it('knows the schemas it upgrades from: the oldest migration is version 1, each later one the next number', () => {
    expect(MIGRATIONS.map((m) => m.version)).toEqual(MIGRATIONS.map((_, i) => i + 1))
    expect(OLDER[0]).toBe(1)
  })

  it.each(OLDER)('sqlite: made by the migrations up to version %i, upgraded at start, its data read back through the API', async (version) => {
    const dir = mkdtempSync(join(tmpdir(), `orch-schema-${version}-`))
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }))
    const old = new DatabaseSync(join(dir, 'orchestrator.sqlite'))
    old.exec(`${schemaUpTo(version, 'sqlite')}\n${OLDEST_ROWS}`)
    old.close()
    await expectReadBack({ DATABASE_URL: '', ORCHESTRATOR_DATA_DIR: dir })
    const upgraded = new DatabaseSync(join(dir, 'orchestrator.sqlite'))
    const versions = upgraded.prepare('SELECT version FROM schema_migrations ORDER BY version').all().map((r) => Number(r.version))
    upgraded.close()
    expect(versions).toEqual(MIGRATIONS.map((m) => m.version))
  })

  it.skipIf(POSTGRES.skip).each(OLDER)('postgres: made by the migrations up to version %i, upgraded at start, its data read back through the API', async (version) => {
    const { url, schema, admin } = await throwAwaySchema()
    await admin.query(`${schemaUpTo(version, 'postgres')}\n${OLDEST_ROWS}`)
    const databaseUrl = `${url}${url.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`
    await expectReadBack({ DATABASE_URL: databaseUrl, ORCHESTRATOR_DATA_DIR: '' })
    const versions = (await admin.query('SELECT version FROM schema_migrations ORDER BY version')).rows.map((r: { version: number }) => Number(r.version))
    expect(versions).toEqual(MIGRATIONS.map((m) => m.version))
  })
})
