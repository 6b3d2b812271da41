// The orchestrator killed (SIGKILL) between the engine's acceptance of a trigger and the save of the action's start,
// on SQLite and on PostgreSQL: `TEST_HALT_AFTER_TRIGGER` halts the request exactly there and says so, so the kill
// lands in that gap every time. After a restart on the same database the action is there with its one run (the
// start-up reconcile confirms it), the same request sent again answers that action without a second run, and a run
// the engine has without any action is reported in the log and counted in the metrics.
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import pg from 'pg'
import { describe, expect, it, onTestFinished } from 'vitest'
import { newUlid } from '@slipway/common'
import { testPostgres } from '@slipway/common/testing'
import { loadConfig as storeConfig, startStore } from '@slipway/stub-store'
import { testStoreEnv } from '@slipway/stub-store/testing'
import { loadConfig as engineConfig, startEngine } from '@slipway/stub-engine'
import { createEngineClient } from '../../src/clients/engine.ts'

const SERVER = resolve(import.meta.dirname, '../../src/server.ts')
const TOKEN = 'kill-test-admin-token'
const MARKER = '0b1c2d3e-4f50-4617-8293-a4b5c6d7e8f9'
const POSTGRES = testPostgres('orchestrator kill test')

interface Running {
  url: string
  child: ChildProcess
  exited: Promise<number | null>
  /** Resolves with the first match of `pattern` in the process's stdout or stderr (so far or to come). */
  waitFor: (stream: 'stdout' | 'stderr', pattern: RegExp) => Promise<RegExpMatchArray>
}

/** `node packages/orchestrator/src/server.ts` with `env`, on a free port; SIGKILLed (by its pid) when the test ends. */
async function orchestratorProcess (env: Record<string, string>): Promise<Running> {
  const child = spawn(process.execPath, [SERVER], { env: { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', PORT: '0', ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve))
  onTestFinished(async () => {
    if (child.exitCode === null && child.signalCode === null) { child.kill('SIGKILL'); await exited }
  })
  const text = { stdout: '', stderr: '' }
  const waiting: Array<{ stream: 'stdout' | 'stderr', pattern: RegExp, resolve: (m: RegExpMatchArray) => void }> = []
  const look = (): void => {
    for (const w of [...waiting]) {
      const match = text[w.stream].match(w.pattern)
      if (match !== null) { waiting.splice(waiting.indexOf(w), 1); w.resolve(match) }
    }
  }
  child.stdout?.on('data', (chunk: Buffer) => { text.stdout += chunk.toString(); look() })
  child.stderr?.on('data', (chunk: Buffer) => { text.stderr += chunk.toString(); look() })
  const waitFor = async (stream: 'stdout' | 'stderr', pattern: RegExp): Promise<RegExpMatchArray> => {
    const found = new Promise<RegExpMatchArray>((resolve) => { waiting.push({ stream, pattern, resolve }); look() })
    const gone = exited.then((code) => { throw new Error(`the orchestrator exited (${String(code)}) before ${String(pattern)}:\n${text.stderr}`) })
    const late = new Promise<never>((_resolve, reject) => setTimeout(() => { reject(new Error(`no ${String(pattern)} in ${stream} within 60 s:\n${text[stream].slice(-3000)}`)) }, 60_000).unref())
    return await Promise.race([found, gone, late])
  }
  const listening = await waitFor('stdout', /Server listening at (http:\/\/127\.0\.0\.1:\d+)/)
  return { url: `${listening[1]}/api/v1.0`, child, exited, waitFor }
}

/** The database of each backend as the orchestrator's variables name it, fresh for the test. */
const BACKENDS = [
  {
    name: 'sqlite',
    skip: false,
    database: async (): Promise<Record<string, string>> => {
      const dir = mkdtempSync(join(tmpdir(), 'orch-kill-'))
      onTestFinished(() => rmSync(dir, { recursive: true, force: true }))
      return { ORCHESTRATOR_DATA_DIR: dir }
    }
  },
  {
    name: 'postgres',
    skip: POSTGRES.skip,
    database: async (): Promise<Record<string, string>> => {
      const pgUrl = POSTGRES.url()
      const schema = `t_${newUlid().toLowerCase()}`
      const admin = new pg.Client({ connectionString: pgUrl })
      await admin.connect()
      await admin.query(`CREATE SCHEMA ${schema}`)
      onTestFinished(async () => { await admin.query(`DROP SCHEMA ${schema} CASCADE`); await admin.end() })
      const url = new URL(pgUrl)
      url.searchParams.set('options', `-c search_path=${schema}`)
      return { DATABASE_URL: url.toString() }
    }
  }
]

describe.each(BACKENDS)('$name: the orchestrator killed between trigger and save', (backend) => {
  it.skipIf(backend.skip)('keeps the action with its one run after a restart; a retry starts no second run; a run without an action is reported', async () => {
    const store = await startStore(storeConfig({ PORT: '0', LOG_LEVEL: 'silent', ...testStoreEnv() }))
    const engine = await startEngine(engineConfig({ PORT: '0', LOG_LEVEL: 'silent', ENGINE_TASK_MS: '20' }))
    onTestFinished(async () => { await engine.close(); await store.close() })
    const folder = mkdtempSync(join(tmpdir(), 'orch-kill-tokens-'))
    onTestFinished(() => rmSync(folder, { recursive: true, force: true }))
    const tokens = join(folder, 'tokens.yaml')
    writeFileSync(tokens, `tokens:\n  ${TOKEN}: {user: admin, project: service, roles: [admin]}\n`)
    const env = {
      ...await backend.database(),
      AUTH_TOKENS_FILE: tokens,
      STORE_URL: store.url,
      ENGINE_URL: engine.url,
      ENGINE_USERNAME: 'admin',
      ENGINE_PASSWORD: 'admin',
      ENGINE_TIMEOUT_MS: '10000',
      ACTION_RECONCILE_INTERVAL_MS: '200',
      // the start-up reconcile's line when it found nothing is at debug
      LOG_LEVEL: 'debug'
    }
    const direct = createEngineClient({ baseUrl: engine.url, username: 'admin', password: 'admin', timeoutMs: 10_000 })
    const headers = { 'x-auth-token': TOKEN, 'content-type': 'application/json', 'x-context-marker': MARKER }
    const body = JSON.stringify({ name: 'test_site', parameters: { note: 'kill me' } })

    // the first reconciles only at its start, and that pass is over before the action is made: the action's start
    // stays pending until the kill
    const first = await orchestratorProcess({ ...env, TEST_HALT_AFTER_TRIGGER: 'true', ACTION_RECONCILE_INTERVAL_MS: '3600000' })
    await first.waitFor('stdout', /"pending":0,"orphanRuns":0,"msg":"actions reconciled with the engine at start-up"/)
    const answer = fetch(`${first.url}/actions`, { method: 'POST', headers, body }).then((r) => r.status, (error: unknown) => error)
    const halted = await first.waitFor('stderr', /TEST_HALT_AFTER_TRIGGER: the engine accepted the trigger of action ([0-9A-Z]{26})/)
    const id = String(halted[1])
    first.child.kill('SIGKILL')
    expect(await first.exited).toBeNull()
    expect(await answer).toBeInstanceOf(Error)
    // the engine runs the workflow; the orchestrator that triggered it is gone
    expect((await direct.runs({ dagIds: ['test_site'] })).map((r) => r.dag_run_id)).toEqual([id])

    const second = await orchestratorProcess(env)
    // the reconcile at start-up finds the run of the pending start
    await second.waitFor('stdout', new RegExp(`"actionId":"${id}".*"msg":"action start confirmed: the engine has its run"`))
    await second.waitFor('stdout', /"started":1,"failed":0,"pending":0,"orphanRuns":0,"msg":"actions reconciled with the engine at start-up"/)
    const call = async (path: string, init: RequestInit = {}) => await fetch(`${second.url}${path}`, { headers, ...init })
    const list = await (await call('/actions')).json() as Array<Record<string, unknown>>
    expect(list).toEqual([expect.objectContaining({ id, name: 'test_site', parameters: { note: 'kill me' }, context_marker: MARKER, start_status: 'started' })])
    // the same request again: that action, no second run
    const retried = await call('/actions', { method: 'POST', body })
    expect(retried.status).toBe(201)
    const replay = await retried.json() as Record<string, unknown>
    expect(replay).toMatchObject({ id, name: 'test_site', context_marker: MARKER, replayed: true, start_status: 'started' })
    expect(['queued', 'running', 'success']).toContain(replay.dag_status)
    expect((await direct.runs({ dagIds: ['test_site'] })).map((r) => r.dag_run_id)).toEqual([id])
    const deadline = Date.now() + 30_000
    let action = await (await call(`/actions/${id}`)).json() as Record<string, unknown>
    while (action.action_lifecycle !== 'Complete') {
      if (Date.now() > deadline) throw new Error(`the action stayed ${String(action.action_lifecycle)}`)
      await new Promise((resolve) => setTimeout(resolve, 100))
      action = await (await call(`/actions/${id}`)).json() as Record<string, unknown>
    }
    expect(action.command_audit).toEqual([expect.objectContaining({ command: 'invoke', user: 'admin' })])
    expect(action.notes).toEqual([expect.objectContaining({ note_val: 'Configdoc revision null' })])

    // a run started in the engine by hand: no action has it, and the running orchestrator says so
    await direct.trigger('test_site', 'manual__by_hand', {})
    await second.waitFor('stdout', /"runId":"manual__by_hand".*"msg":"engine run without an action/)
    const metrics = await (await fetch(second.url.replace(/\/api\/v1\.0$/, '/metrics'))).text()
    expect(metrics).toMatch(/^slipway_orphan_runs\{service="orchestrator"\} 1$/m)
    expect(metrics).toMatch(/^slipway_action_starts_pending\{service="orchestrator"\} 0$/m)
  }, 120_000)
})
