// The orchestrator process killed (SIGKILL) in the middle of a buffermode=replace: the gate in front of the store
// holds the second write until the test has killed the process, then lets it land or loses it. After a restart on
// the same database the buffer is exactly as before the replace: the staging journal row left behind is undone
// once the dead process's configdocs lock runs out.
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { describe, expect, it, onTestFinished } from 'vitest'
import { AUTH, TEST_TOKENS } from '@slipway/common/testing'
import { loadConfig as storeConfig, startStore } from '@slipway/stub-store'
import { createStoreClient } from '../../src/clients/store.ts'
import { openSqlite } from '../../src/db/sqlite.ts'
import { bufferChanges, readVersions } from '../../src/domain/configdocs/versions.ts'
import { GLOBAL_YAML, SITE_YAML, startValidator } from '../helpers/stack.ts'
import { isWrite, startStoreGate } from '../helpers/store-gate.ts'
import { bufferState, extraCollection } from '../helpers/buffer-state.ts'

const SERVER = resolve(import.meta.dirname, '../../src/server.ts')

interface Orchestrator {
  url: string
  /** Resolves once the output holds `pattern`. */
  until: (pattern: RegExp) => Promise<void>
  kill: () => Promise<void>
}

/** `node src/server.ts` with `env`; killed after the test if still running. */
async function startServer (env: Record<string, string>): Promise<Orchestrator> {
  const child = spawn(process.execPath, [SERVER], { env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
  const exited = new Promise<void>((resolve) => child.once('exit', () => { resolve() }))
  onTestFinished(async () => {
    if (child.exitCode === null && child.signalCode === null) { child.kill('SIGKILL'); await exited }
  })
  let output = ''
  const waiters: Array<() => void> = []
  const take = (chunk: Buffer): void => { output += chunk.toString(); for (const waiter of waiters) waiter() }
  child.stdout.on('data', take)
  child.stderr.on('data', take)
  const until = async (pattern: RegExp): Promise<void> => {
    await new Promise<void>((resolve, reject) => {
      const check = (): void => { if (pattern.test(output)) resolve() }
      waiters.push(check)
      check()
      exited.then(() => { check(); reject(new Error(`the orchestrator exited before ${String(pattern)}:\n${output}`)) }, () => {})
    })
  }
  await until(/Server listening at http:\/\/127\.0\.0\.1:\d+/)
  const port = /Server listening at http:\/\/127\.0\.0\.1:(\d+)/.exec(output)?.[1] ?? ''
  return { url: `http://127.0.0.1:${port}`, until, kill: async () => { child.kill('SIGKILL'); await exited } }
}

/** Fastify's inject shape over real HTTP, for the buffer-state helper. */
function client (orchestrator: Orchestrator) {
  return async (options: { method: 'GET' | 'POST', url: string, headers: Record<string, string>, payload?: string }) => {
    const res = await fetch(orchestrator.url + options.url, { method: options.method, headers: options.headers, body: options.payload })
    return { statusCode: res.status, body: await res.text() }
  }
}

describe.each(['land', 'lose'] as const)('the orchestrator killed mid-replace (the held write then %ss)', (fate) => {
  it('restarts to the buffer exactly as before the replace', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'orch-kill-'))
    onTestFinished(() => { rmSync(dir, { recursive: true, force: true }) })
    const tokens = join(dir, 'tokens.yaml')
    writeFileSync(tokens, `tokens:\n  ${TEST_TOKENS.admin}: {user: admin, roles: [admin]}\n`)
    const store = await startStore(storeConfig({ PORT: '0', LOG_LEVEL: 'silent' }))
    onTestFinished(async () => { await store.close() })
    const gate = await startStoreGate(store.url)
    const validator = await startValidator({ current: 'pass' })
    const env = {
      PORT: '0',
      LOG_LEVEL: 'info',
      ORCHESTRATOR_DATA_DIR: join(dir, 'data'),
      AUTH_TOKENS_FILE: tokens,
      STORE_URL: gate.url,
      VALIDATORS: `Promenade=${validator.url}`,
      ENGINE_WATCH_INTERVAL_MS: '0',
      // the dead process's lock blocks the recovery until its lease runs out
      COMMIT_LOCK_LEASE_S: '2'
    }
    let orchestrator = await startServer(env)
    let call = client(orchestrator)
    const post = async (collection: string, body: string, query = '') =>
      await call({ method: 'POST', url: `/api/v1.0/configdocs/${collection}${query}`, headers: { ...AUTH, 'content-type': 'application/x-yaml' }, payload: body })
    expect((await post('global', GLOBAL_YAML)).statusCode).toBe(201)
    expect((await post('site', SITE_YAML, '?buffermode=append')).statusCode).toBe(201)
    expect((await call({ method: 'POST', url: '/api/v1.0/commitconfigdocs', headers: AUTH })).statusCode).toBe(200)
    expect((await post('global', GLOBAL_YAML.replace('serializeImagePulls: false', 'serializeImagePulls: true'))).statusCode).toBe(201)
    expect((await post('site', SITE_YAML.replace('10.0.0.53', '10.0.0.54'), '?buffermode=append')).statusCode).toBe(201)
    const before = await bufferState(call)

    // the first write (global written back as committed) passes; the second (site) is held until the kill
    let writes = 0
    gate.set((r) => isWrite(r) && ++writes === 2 ? fate : 'pass')
    const replace = post('extra', extraCollection('extra-1', 'replaced'), '?buffermode=replace').catch((error: unknown) => error)
    const held = await gate.held()
    expect(held.path).toMatch(/\/buckets\/site\/documents$/)
    await orchestrator.kill()
    expect(await replace).toBeInstanceOf(Error)
    await gate.settled()
    gate.set(() => 'pass')
    // the kill left the buffer half replaced: global written back as committed, site as the held write left it
    const storeClient = createStoreClient({ baseUrl: store.url, timeoutMs: 5000 })
    const half = await bufferChanges(storeClient, await readVersions(storeClient, {}), {})
    expect(half).toEqual(fate === 'land' ? {} : { site: 'modified' })

    orchestrator = await startServer(env)
    call = client(orchestrator)
    // the recovery loop runs at start-up and every 5 s; the dead process's lock lasts 2 s
    await Promise.race([orchestrator.until(/a staging cut short was undone/), new Promise((resolve) => setTimeout(resolve, 30_000))])
    expect(await bufferState(call)).toEqual(before)
    const repos = openSqlite(join(dir, 'data'))
    onTestFinished(async () => { await repos.close() })
    expect(await repos.stagingJournal.pending()).toEqual([])
    // and staging goes on: the replace now goes through
    expect((await post('extra', extraCollection('extra-1', 'replaced'), '?buffermode=replace')).statusCode).toBe(201)
  }, 60_000)
})
