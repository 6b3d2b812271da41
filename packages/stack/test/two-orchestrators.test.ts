// Two orchestrator processes on one PostgreSQL database, behind the same store, engine and bootstrap service, as
// replicas behind a load balancer run: a 200-way mixed load of staging, commits and site actions through both at
// once keeps the seed's rules across them; one killed (SIGKILL) in the middle of a commit or of an action's creation
// leaves the other going, its lock free at its lease, nothing half-written and no extra run in the engine.
import { spawn, type ChildProcess } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { newUlid } from '@slipway/common'
import { testPostgres } from '@slipway/common/testing'
import { freePort } from '@slipway/common/ports'
import { stackEnvironment, type ProcessName } from '../src/stack.ts'
import { runningStack } from './helpers/running-stack.ts'

const POSTGRES = testPostgres('two orchestrators')
// the stack's environment is written when the file is collected: a required PostgreSQL that is missing fails it here
const PG_URL = POSTGRES.skip ? '' : POSTGRES.url()
const REPO = resolve(import.meta.dirname, '../../..')
const SITE = join(REPO, 'examples/site')
const ADMIN = 'two-orchestrators-admin-token'
// long enough that a lock of the killed orchestrator still holds when the test asks the other one, on a busy machine
const LEASE_S = 10
const SCHEMA = `t_${newUlid().toLowerCase()}`
const DATABASE_URL = `${PG_URL}${PG_URL.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${SCHEMA}`)}`
const ORCHESTRATOR_ENV = { DATABASE_URL, COMMIT_LOCK_LEASE_S: String(LEASE_S), ACTION_LOCK_LEASE_S: String(LEASE_S), TAG_POLL_INTERVAL_MS: '200' }

type Answer = { status: number, text: string, json: () => any }

describe.skipIf(POSTGRES.skip)('two orchestrators on one PostgreSQL database', () => {
  let admin: pg.Client | undefined
  beforeAll(async () => {
    admin = new pg.Client({ connectionString: PG_URL })
    await admin.connect()
    await admin.query(`CREATE SCHEMA ${SCHEMA}`)
  })
  afterAll(async () => {
    await admin?.query(`DROP SCHEMA ${SCHEMA} CASCADE`)
    await admin?.end()
  })

  const running = runningStack({
    name: 'two-orchestrators',
    adminToken: ADMIN,
    callTimeoutMs: 30_000,
    // deploy_site's last step hangs: a started site action stays in progress for the whole test
    env: { orchestrator: ORCHESTRATOR_ENV, engine: { ENGINE_TASK_MS: '20', ENGINE_HANG_TASKS: 'deploy_site/final_deployment_status' } }
  })

  /** The second orchestrator: the first's environment with another port, a process of its own. */
  let second: { url: string, child: ChildProcess } | undefined
  /** Every second orchestrator started, stopped after the tests whatever happened to them. */
  const children: ChildProcess[] = []
  async function startSecond (): Promise<{ url: string, child: ChildProcess }> {
    const dataDir = running.dataDir
    const port = await freePort('127.0.0.1')
    const ports = Object.fromEntries(
      Object.entries(running.stack.urls).map(([name, url]) => [name, Number(new URL(url).port)])
    ) as Record<ProcessName, number>
    const env = stackEnvironment({
      host: '127.0.0.1',
      ports,
      dataDir,
      serviceToken: running.stack.serviceToken,
      engineUser: 'slipway',
      enginePassword: readFileSync(join(dataDir, 'engine-password'), 'utf8').trim(),
      tokensFile: join(dataDir, 'tokens.yaml')
    }).orchestrator
    const child = spawn(process.execPath, [join(REPO, 'packages/orchestrator/src/server.ts')], {
      env: { ...process.env, ...env, ...ORCHESTRATOR_ENV, PORT: String(port), LOG_LEVEL: 'warn' },
      stdio: 'ignore'
    })
    children.push(child)
    const url = `http://127.0.0.1:${port}`
    const deadline = Date.now() + 30_000
    while (Date.now() < deadline) {
      if (await fetch(`${url}/api/v1.0/health`).then((r) => r.ok, () => false)) return { url, child }
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    child.kill('SIGKILL')
    throw new Error('the second orchestrator did not become healthy')
  }
  afterAll(() => { for (const child of children) child.kill('SIGKILL') })

  const via = (which: 0 | 1) => async (method: string, path: string, body?: string, type?: string): Promise<Answer> =>
    await running.call(method, path, { body, type, base: `${which === 0 ? running.stack.urls.orchestrator : second!.url}/api/v1.0` })

  it('keeps the seed\'s rules across both under a 200-way mixed load, with no 5xx, and both see every action', async () => {
    second = await startSecond()
    const yaml = 'application/x-yaml'
    const [a, b] = [via(0), via(1)]
    expect((await a('POST', '/configdocs/global', readFileSync(join(SITE, 'global.yaml'), 'utf8'), yaml)).status).toBe(201)
    expect((await b('POST', '/configdocs/site?buffermode=append', readFileSync(join(SITE, 'site.yaml'), 'utf8'), yaml)).status).toBe(201)
    expect((await a('POST', '/commitconfigdocs')).status).toBe(200)

    const started = performance.now()
    const requests = Array.from({ length: 200 }, async (_, i) => {
      const call = i % 2 === 0 ? a : b
      const kind = ['stage', 'commit', 'create'][i % 3] as 'stage' | 'commit' | 'create'
      const answer = kind === 'stage'
        ? await call('POST', `/configdocs/extra-${i}`, `---\nschema: example/Extra/v1\nmetadata: {schema: metadata/Document/v1, name: extra-${i}, layeringDefinition: {abstract: false, layer: site}, storagePolicy: cleartext}\ndata: {n: ${i}}\n`, yaml)
        : kind === 'commit'
          ? await call('POST', '/commitconfigdocs')
          : await call('POST', '/actions?allow-intermediate-commits=true', '{"name": "deploy_site"}', 'application/json')
      return { kind, status: answer.status, id: kind === 'create' ? String(answer.json().id ?? '') : '' }
    })
    const answers = await Promise.all(requests)
    const seconds = ((performance.now() - started) / 1000).toFixed(1)
    const tally: Record<string, Record<number, number>> = {}
    for (const { kind, status } of answers) (tally[kind] ??= {})[status] = ((tally[kind] ??= {})[status] ?? 0) + 1
    console.log(`two orchestrators, 200 mixed requests in ${seconds} s: ${JSON.stringify(tally)}`)

    expect(answers.filter((x) => x.status >= 500)).toEqual([])
    // buffer rules: one stage into an empty buffer wins, the others (rejectOnContents) are 409
    expect(tally.stage?.[201]).toBe(1)
    // one site action at a time: exactly one create starts a run; the others are saved with their failed validation
    expect(tally.create?.[201]).toBe(1)
    expect((tally.create?.[201] ?? 0) + (tally.create?.[409] ?? 0)).toBe(answers.filter((x) => x.kind === 'create').length)
    expect(Object.keys(tally.commit ?? {}).every((s) => s === '200' || s === '409')).toBe(true)

    // every action through either orchestrator; the engine has exactly one run, that of the action answered 201
    const created = answers.filter((x) => x.kind === 'create').map((x) => x.id).sort()
    for (const call of [a, b]) expect((await call('GET', '/actions')).json().map((x: { id: string }) => x.id).sort()).toEqual(created)
    const winner = answers.find((x) => x.kind === 'create' && x.status === 201)!.id
    const runs = await engineRuns()
    expect(runs.map((r) => r.dag_run_id)).toEqual([winner])
    // the database and the store agree: every 200 commit is one more committed revision
    const committedTags = (await (await fetch(`${running.stack.urls.store}/api/v1.0/revisions?tag=committed`, { headers: { 'x-auth-token': running.stack.serviceToken } })).text()).match(/^- /gm)?.length ?? 0
    expect(committedTags).toBe(1 + (tally.commit?.[200] ?? 0))
    expect((await a('POST', `/actions/${winner}/control/stop`)).status).toBe(202)
  }, 120_000)

  it('goes on when the other is killed in the middle of a commit: the lock frees at its lease, the commit happens once', async () => {
    const [a] = [via(0)]
    const b = via(1)
    expect((await b('POST', '/configdocs/killed-commit?buffermode=append', '---\nschema: example/Extra/v1\nmetadata: {schema: metadata/Document/v1, name: killed-commit, layeringDefinition: {abstract: false, layer: site}, storagePolicy: cleartext}\ndata: {}\n', 'application/x-yaml')).status).toBe(201)
    // the validating component hangs, so the second orchestrator's commit waits inside the lock
    running.stack.signalProcess('bootstrap', 'SIGSTOP')
    const pending = b('POST', '/commitconfigdocs').catch(() => undefined)
    const expiresAt = await liveLock('configdocs_update')
    second!.child.kill('SIGKILL')
    await pending
    running.stack.signalProcess('bootstrap', 'SIGCONT')
    const killedAt = Date.now()
    // while the dead holder's lease runs, the other orchestrator refuses a commit; once it has run out, it commits
    let waited = 0
    for (;;) {
      const answer = await a('POST', '/commitconfigdocs')
      if (answer.status === 200) { waited = Date.now() - killedAt; break }
      expect(answer.status).toBe(409)
      if (Date.now() > expiresAt + 30_000) throw new Error('the lock was not freed at its lease')
      await new Promise((resolve) => setTimeout(resolve, 250))
    }
    expect(Date.now()).toBeGreaterThanOrEqual(expiresAt)
    console.log(`two orchestrators, killed mid-commit: the other committed ${(waited / 1000).toFixed(1)} s later (lease ${LEASE_S} s)`)
    expect((await a('POST', '/commitconfigdocs')).status).toBe(409) // nothing left to commit: committed once
  }, 120_000)

  it('goes on when the other is killed in the middle of an action\'s creation: no half-written action, no extra run', async () => {
    second = await startSecond()
    const [a, b] = [via(0), via(1)]
    const before = (await a('GET', '/actions')).json().length as number
    // the engine hangs, so the second orchestrator's create waits inside the site-action lock (its in-progress
    // check asks the engine), before the trigger
    running.stack.signalProcess('engine', 'SIGSTOP')
    const pending = b('POST', '/actions?allow-intermediate-commits=true', '{"name": "update_software"}', 'application/json').catch(() => undefined)
    const expiresAt = await liveLock('site_action_start')
    second.child.kill('SIGKILL')
    await pending
    running.stack.signalProcess('engine', 'SIGCONT')
    const killedAt = Date.now()
    const created = await a('POST', '/actions?allow-intermediate-commits=true', '{"name": "update_software"}', 'application/json')
    expect(created.status, created.text).toBe(201)
    const waited = Date.now() - killedAt
    console.log(`two orchestrators, killed mid-create: the other's create waited ${(waited / 1000).toFixed(1)} s for the site-action lock (lease ${LEASE_S} s)`)
    // it waited for the dead holder's lease to run out, then took the lock
    expect(Date.now()).toBeGreaterThanOrEqual(expiresAt)
    const actions = (await a('GET', '/actions')).json() as Array<{ id: string, name: string }>
    expect(actions).toHaveLength(before + 1)
    const runs = await engineRuns()
    expect(runs.filter((r) => r.dag_id === 'update_software').map((r) => r.dag_run_id)).toEqual([String(created.json().id)])
  }, 120_000)

  /**
   * Waits until a holder has the lock `lockType` in the shared database, and answers when its lease runs out: how a
   * test knows a request is inside the lock, however slow the machine.
   */
  async function liveLock (lockType: string): Promise<number> {
    const deadline = Date.now() + 30_000
    for (;;) {
      const rows = (await admin!.query(`SELECT expires_at FROM ${SCHEMA}.api_locks WHERE lock_type = $1 AND released = 0`, [lockType])).rows as Array<{ expires_at: string | Date }>
      const live = rows.map((row) => new Date(row.expires_at).getTime()).filter((at) => at > Date.now())
      if (live.length > 0) return Math.max(...live)
      if (Date.now() > deadline) throw new Error(`no holder of the ${lockType} lock within 30 s`)
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
  }

  async function engineRuns (): Promise<Array<{ dag_id: string, dag_run_id: string }>> {
    const token = await (await fetch(`${running.stack.urls.engine}/auth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'slipway', password: readFileSync(join(running.dataDir, 'engine-password'), 'utf8').trim() })
    })).json() as { access_token: string }
    const list = await (await fetch(`${running.stack.urls.engine}/api/v2/dags/~/dagRuns?limit=100`, { headers: { authorization: `Bearer ${token.access_token}` } })).json() as { dag_runs: Array<{ dag_id: string, dag_run_id: string }> }
    return list.dag_runs
  }
})
