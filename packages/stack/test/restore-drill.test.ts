// The restore drill of docs/operations.md: a running stack with committed documents (an encrypted secret among them)
// and finished actions is backed up as the page says, stopped and wiped, restored into an empty data folder and
// started again; everything read back through the API is identical — configdocs and their versions, rendered
// documents with the secret in cleartext, the store's revisions, actions with their steps, audit and notes, a step's
// log, workflows, site statuses. On the embedded SQLite, and on PostgreSQL when TEST_DATABASE_URL is set. The backup's
// size and the time of the backup and of the restore are printed.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import pg from 'pg'
import { describe, expect, it, onTestFinished } from 'vitest'
import { newUlid } from '@slipway/common'
import { testPostgres } from '@slipway/common/testing'
import { startStack, type ProcessName, type Stack } from '../src/stack.ts'
import {
  backUp, backUpAsThePageSays, folderBytes, restore, restoreAsThePageSays, sqliteShell, type OrchestratorDatabase
} from './helpers/backup.ts'

const POSTGRES = testPostgres('restore drill')
const SITE = resolve(import.meta.dirname, '../../../examples/site')
const SECRET_VALUE = `drill-${newUlid()}`
const SECRETS_YAML = `---
schema: deckhand/Passphrase/v1
metadata:
  schema: metadata/Document/v1
  name: drill-passphrase
  layeringDefinition: {abstract: false, layer: site}
  storagePolicy: encrypted
data: ${SECRET_VALUE}
`
const ENV: Partial<Record<ProcessName, Record<string, string>>> = {
  engine: { ENGINE_TASK_MS: '20', ENGINE_FAIL_TASKS: 'update_site/final_deployment_status' },
  orchestrator: { TAG_POLL_INTERVAL_MS: '200' }
}

interface Answer { status: number, text: string }

function client (stack: () => Stack) {
  async function call (method: string, path: string, body?: string, type?: string): Promise<Answer> {
    const headers: Record<string, string> = { 'x-auth-token': stack().adminToken }
    if (type !== undefined) headers['content-type'] = type
    const response = await fetch(`${stack().urls.orchestrator}/api/v1.0${path}`, { method, headers, body, signal: AbortSignal.timeout(30_000) })
    return { status: response.status, text: await response.text() }
  }
  async function until<T> (what: string, probe: () => Promise<T | undefined>): Promise<T> {
    const deadline = Date.now() + 90_000
    while (Date.now() < deadline) {
      const value = await probe()
      if (value !== undefined) return value
      await new Promise((resolve) => setTimeout(resolve, 200))
    }
    throw new Error(`timed out waiting for ${what}`)
  }
  async function finished (actionId: string): Promise<Record<string, unknown>> {
    return await until(`action ${actionId} to end`, async () => {
      const action = JSON.parse((await call('GET', `/actions/${actionId}`)).text) as Record<string, unknown>
      return ['Complete', 'Failed'].includes(String(action.action_lifecycle)) ? action : undefined
    })
  }
  return { call, until, finished }
}

/** Everything an operator reads back, path → status and body, with the store's revisions read as the steps read them. */
async function readEverything (stack: Stack, call: ReturnType<typeof client>['call']): Promise<Map<string, Answer>> {
  const read = new Map<string, Answer>()
  const paths = [
    '/configdocs', '/configdocs?version=committed,successful_site_action',
    '/configdocs/global?version=committed', '/configdocs/site?version=committed',
    '/configdocs/secrets?version=committed&cleartext-secrets=true', '/configdocs/secrets?version=committed',
    '/configdocs/site?version=successful_site_action', '/configdocs/site?version=last_site_action',
    '/renderedconfigdocs?version=committed&cleartext-secrets=true', '/renderedconfigdocs?version=successful_site_action',
    '/actions', '/workflows', '/site_statuses'
  ]
  for (const path of paths) read.set(path, await call('GET', path))
  for (const action of JSON.parse(read.get('/actions')?.text ?? '[]') as Array<{ id: string, steps: Array<{ id: string }> }>) {
    read.set(`/actions/${action.id}?verbosity=5`, await call('GET', `/actions/${action.id}?verbosity=5`))
    for (const step of action.steps.slice(0, 3)) read.set(`/actions/${action.id}/steps/${step.id}`, await call('GET', `/actions/${action.id}/steps/${step.id}`))
    read.set(`/actions/${action.id}/steps/final_deployment_status/logs`, await call('GET', `/actions/${action.id}/steps/final_deployment_status/logs`))
  }
  const revisions = await fetch(`${stack.urls.store}/api/v1.0/revisions`, { headers: { 'x-auth-token': stack.serviceToken } })
  read.set('store /revisions', { status: revisions.status, text: await revisions.text() })
  return read
}

async function drill (name: string, database: OrchestratorDatabase, orchestratorEnv: Record<string, string>): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), `slipway-restore-${name}-`))
  const dataDir = join(root, 'data')
  let backupDir = join(root, 'backup')
  // the page's own blocks when they can run here (SQLite, the sqlite3 shell installed), else its steps in code
  const asThePageSays = database.kind === 'sqlite' && sqliteShell()
  let stack: Stack | undefined
  onTestFinished(async () => { await stack?.close(); rmSync(root, { recursive: true, force: true }) })
  const start = async (ports: Record<ProcessName, number>): Promise<Stack> => await startStack({
    dataDir,
    ports,
    env: { ...ENV, orchestrator: { ...ENV.orchestrator, ...orchestratorEnv } },
    output: () => {}
  })
  // no admin token given: the first start makes one in the data folder, the restored start reads it from the copy
  stack = await start({ orchestrator: 0, bootstrap: 0, store: 0, engine: 0, site: 0 })
  const adminToken = stack.adminToken
  const { call, until, finished } = client(() => stack as Stack)
  // the restored stack answers where this one did: its peers' addresses are the same
  const ports = Object.fromEntries(Object.entries(stack.urls).map(([process, url]) => [process, Number(new URL(url).port)]))
  const samePorts = ports as Record<ProcessName, number>

  // committed documents, an encrypted secret among them, and two finished site actions, one Failed
  const yaml = 'application/x-yaml'
  expect((await call('POST', '/configdocs/global', readFileSync(join(SITE, 'global.yaml'), 'utf8'), yaml)).status).toBe(201)
  expect((await call('POST', '/configdocs/site?buffermode=append', readFileSync(join(SITE, 'site.yaml'), 'utf8'), yaml)).status).toBe(201)
  expect((await call('POST', '/configdocs/secrets?buffermode=append', SECRETS_YAML, yaml)).status).toBe(201)
  expect((await call('POST', '/commitconfigdocs')).status).toBe(200)
  const ids: string[] = []
  for (const action of ['deploy_site', 'update_site']) {
    const created = await call('POST', '/actions', JSON.stringify({ name: action }), 'application/json')
    expect(created.status).toBe(201)
    ids.push(String(JSON.parse(created.text).id))
    await finished(ids.at(-1) ?? '')
  }
  // the tags of both are set (the failed one's last_site_action), so nothing changes after the backup
  const tagged = async (tag: string): Promise<boolean> => (await call('GET', `/configdocs/site?version=${tag}`)).status === 200
  await until('both actions tagged', async () => await tagged('last_site_action') && await tagged('successful_site_action') ? true : undefined)
  const before = await readEverything(stack, call)

  // the drill's readings are worth nothing unless they hold what they are meant to
  expect(before.get('/renderedconfigdocs?version=committed&cleartext-secrets=true')?.text).toContain(SECRET_VALUE)
  expect(before.get('/configdocs/secrets?version=committed')?.text).not.toContain(SECRET_VALUE)
  const actions = JSON.parse(before.get('/actions')?.text ?? '[]') as Array<{ id: string, action_lifecycle: string, steps: unknown[] }>
  expect(actions.map((a) => [a.id, a.action_lifecycle])).toEqual([[ids[0], 'Complete'], [ids[1], 'Failed']])
  expect(actions.every((a) => a.steps.length > 10)).toBe(true)
  const detail = JSON.parse(before.get(`/actions/${ids[0] ?? ''}?verbosity=5`)?.text ?? '{}') as { notes?: unknown[], command_audit?: unknown[] }
  expect(detail.notes?.length).toBeGreaterThan(0)
  expect(detail.command_audit?.length).toBe(1)
  expect(before.get(`/actions/${ids[1] ?? ''}/steps/final_deployment_status/logs`)?.text).toMatch(/ERROR/)
  for (const [path, answer] of before) expect(answer.status, path).toBe(200)

  let t = performance.now()
  if (asThePageSays) backupDir = backUpAsThePageSays(root)
  else await backUp(dataDir, backupDir, database)
  const backupMs = performance.now() - t
  const bytes = folderBytes(backupDir)

  // wiped: stopped, the data folder gone, the orchestrator's PostgreSQL schema dropped
  await stack.close()
  stack = undefined
  rmSync(dataDir, { recursive: true, force: true })
  if (database.kind === 'postgres') await sql(database.url, `DROP SCHEMA ${database.schema} CASCADE`)

  t = performance.now()
  if (asThePageSays) restoreAsThePageSays(root, backupDir)
  else restore(backupDir, dataDir, database)
  const restoreMs = performance.now() - t
  stack = await start(samePorts)
  expect(stack.adminToken).toBe(adminToken)
  const after = await readEverything(stack, call)
  console.log(`restore drill (${name}, ${asThePageSays ? 'the operations page\'s shell blocks' : 'the page\'s steps in code'}): backup ${(bytes / 1024 / 1024).toFixed(2)} MiB in ${backupMs.toFixed(0)} ms, restore ${restoreMs.toFixed(0)} ms`)
  expect([...after.keys()]).toEqual([...before.keys()])
  for (const [path, answer] of before) expect(after.get(path), path).toEqual(answer)
}

async function sql (url: string, text: string): Promise<void> {
  const admin = new pg.Client({ connectionString: url })
  await admin.connect()
  try { await admin.query(text) } finally { await admin.end() }
}

describe('the restore drill', () => {
  it('restores a stack on the embedded SQLite: every read after the restore is the read before it', async () => {
    await drill('sqlite', { kind: 'sqlite' }, {})
  }, 300_000)

  it.skipIf(POSTGRES.skip)('restores a stack whose orchestrator is on PostgreSQL (pg_dump, pg_restore)', async () => {
    const url = POSTGRES.url()
    const schema = `t_${newUlid().toLowerCase()}`
    await sql(url, `CREATE SCHEMA ${schema}`)
    onTestFinished(async () => { await sql(url, `DROP SCHEMA IF EXISTS ${schema} CASCADE`) })
    const databaseUrl = `${url}${url.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`
    await drill('postgres', { kind: 'postgres', url, schema }, { DATABASE_URL: databaseUrl })
  }, 300_000)
})
