// The document store (stub-store, its own process, its SQLite file on disk) killed with SIGKILL in the middle of a
// write the orchestrator makes while staging, at three points chosen by the test, not by timing:
// - half of the write's body received (a proxy sends the rest only after the kill, i.e. never);
// - inside the store's database transaction: the store is seen holding SQLite's write lock (/proc/locks), frozen
//   with SIGSTOP, seen still holding it, then killed;
// - the write done and its answer held by the proxy, so the orchestrator is never told.
// The orchestrator answers a 5xx naming the store and no 500; the store restarted on the same data is intact
// (integrity check) and holds every revision it had; once it answers again the buffer is exactly as before the
// staging (a write that stood is written back by the orchestrator's recovery), the committed documents are
// unchanged, and staging and committing go on: no configdocs lock is left held.
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { parse } from 'yaml'
import { describe, expect, it, onTestFinished } from 'vitest'
import { TEST_TOKENS } from '@slipway/common/testing'
import { GLOBAL_YAML, SITE_YAML, startValidator } from '../helpers/stack.ts'
import { startHoldingProxy } from './holding-proxy.ts'
import { call, SERVERS, startService, type ServiceProcess } from './service-process.ts'

const YAML = 'application/x-yaml'
// the store is seen inside its transaction through the kernel's table of file locks (Linux)
const PROC_LOCKS = existsSync('/proc/locks')
if (!PROC_LOCKS) console.warn('the store killed inside its write transaction: /proc/locks is missing (not Linux); that case is reported as skipped')

/** `count` small documents in one collection, each marked with `round`. */
function bigCollection (name: string, count: number, round: number): string {
  return Array.from({ length: count }, (_, i) =>
    `---\nschema: example/Extra/v1\nmetadata: {schema: metadata/Document/v1, name: ${name}-${i}, layeringDefinition: {abstract: false, layer: site}, storagePolicy: cleartext}\ndata: {round: ${round}, i: ${i}}\n`
  ).join('')
}

async function world () {
  const dir = mkdtempSync(join(tmpdir(), 'orch-kill-store-'))
  onTestFinished(() => { rmSync(dir, { recursive: true, force: true }) })
  const storeDir = join(dir, 'store')
  const tokens = join(dir, 'tokens.yaml')
  writeFileSync(tokens, `tokens:\n  ${TEST_TOKENS.admin}: {user: admin, roles: [admin]}\n`)
  const startStoreProcess = async (): Promise<ServiceProcess> => await startService(SERVERS.store, { STORE_DATA_DIR: storeDir })
  let store = await startStoreProcess()
  const proxy = await startHoldingProxy(`${store.origin}/api/v1.0`)
  const validator = await startValidator({ current: 'pass' })
  const orchestrator = await startService(SERVERS.orchestrator, {
    ORCHESTRATOR_DATA_DIR: join(dir, 'orchestrator'),
    AUTH_TOKENS_FILE: tokens,
    STORE_URL: proxy.url,
    VALIDATORS: `Promenade=${validator.url}`,
    ENGINE_WATCH_INTERVAL_MS: '0'
  })
  const api = orchestrator.origin

  /** The buffer as the API shows it: each collection's status, and the documents of each changed one. */
  async function buffer (): Promise<{ statuses: unknown, documents: Record<string, string> }> {
    const list = await call(api, 'GET', '/configdocs')
    expect(list.status, list.text).toBe(200)
    // writing a collection back makes new revisions of the same documents: revision numbers are left out
    const documents: Record<string, string> = {}
    for (const c of list.body as Array<{ collection_name: string, new_status: string }>) {
      if (c.new_status === 'unmodified') continue
      documents[c.collection_name] = (await call(api, 'GET', `/configdocs/${c.collection_name}?version=buffer`)).text
    }
    const statuses = (list.body as Array<Record<string, unknown>>)
      .map((c) => ({ collection: c.collection_name, base: c.base_status, status: c.new_status }))
    return { statuses, documents }
  }
  /** Every revision id the store holds (the store read directly, not through the proxy). */
  const revisions = async (): Promise<number[]> =>
    (parse(await (await fetch(`${store.origin}/api/v1.0/revisions`)).text()) as { results: Array<{ id: number }> }).results.map((r) => r.id)

  return {
    api,
    proxy,
    storeDir,
    store: () => store,
    buffer,
    revisions,
    /** Kills nothing itself: starts the store again on the same data and sends the orchestrator's calls to it. */
    async restartStore (): Promise<void> {
      store = await startStoreProcess()
      proxy.retarget(store.origin)
    },
    integrity: (): string => {
      const db = new DatabaseSync(join(storeDir, 'store.sqlite'), { readOnly: true })
      try {
        return String((db.prepare('PRAGMA integrity_check').get() as Record<string, unknown>).integrity_check)
      } finally {
        db.close()
      }
    }
  }
}

type World = Awaited<ReturnType<typeof world>>

/** The example site committed, then a collection staged that is still in the buffer. */
async function committedSite (w: World): Promise<Record<string, string>> {
  expect((await call(w.api, 'POST', '/configdocs/global', GLOBAL_YAML, YAML)).status).toBe(201)
  expect((await call(w.api, 'POST', '/configdocs/site?buffermode=append', SITE_YAML, YAML)).status).toBe(201)
  expect((await call(w.api, 'POST', '/commitconfigdocs')).status).toBe(200)
  expect((await call(w.api, 'POST', '/configdocs/pending?buffermode=append', bigCollection('pending', 2, 0), YAML)).status).toBe(201)
  const committed: Record<string, string> = {}
  for (const c of ['global', 'site']) committed[c] = (await call(w.api, 'GET', `/configdocs/${c}?version=committed`)).text
  return committed
}

/** Whether `pid` holds SQLite's WAL write lock on the file with inode `inode` (its -shm file), per /proc/locks. */
function holdsWriteLock (pid: number, inode: number): boolean {
  return readFileSync('/proc/locks', 'utf8').split('\n').some((line) => {
    const f = line.trim().split(/\s+/)
    // n: POSIX ADVISORY WRITE pid maj:min:inode start end — the write lock is byte 120 of the -shm file
    return f[1] === 'POSIX' && f[3] === 'WRITE' && Number(f[4]) === pid && Number(f[5]?.split(':')[2]) === inode && f[6] === '120'
  })
}

/**
 * Stages big collections until the store is caught inside one's database transaction: seen holding the write
 * lock, frozen, seen still holding it, killed. Each try that the store finishes before it is caught is a staging
 * like any other; the buffer before the caught one is answered.
 */
async function killInsideTransaction (w: World): Promise<{ before: Awaited<ReturnType<World['buffer']>>, revisions: number[], answer: Awaited<ReturnType<typeof call>>, tries: number }> {
  const inode = statSync(join(w.storeDir, 'store.sqlite-shm')).ino
  for (let tries = 1; tries <= 10; tries++) {
    const before = await w.buffer()
    const revisions = await w.revisions()
    const pid = w.store().pid
    const state = { settled: false }
    const pending = call(w.api, 'POST', `/configdocs/big-${tries}?buffermode=append`, bigCollection(`big-${tries}`, 3000, tries), YAML)
      .finally(() => { state.settled = true })
    let caught = false
    while (!state.settled && !caught) {
      if (holdsWriteLock(pid, inode)) {
        process.kill(pid, 'SIGSTOP')
        if (holdsWriteLock(pid, inode)) caught = true
        else process.kill(pid, 'SIGCONT')
      }
      await new Promise((resolve) => setImmediate(resolve))
    }
    if (!caught) { expect((await pending).status).toBe(201); continue }
    await w.store().kill()
    return { before, revisions, answer: await pending, tries }
  }
  throw new Error('the store was not caught inside a write transaction in 10 tries')
}

type KillPoint = 'half-body' | 'in-transaction' | 'hold-answer'

/** Kills the store at `point` of a staging write and checks what the restart finds. */
async function killDuring (point: KillPoint): Promise<void> {
  const w = await world()
  const committed = await committedSite(w)
  let before = await w.buffer()
  let revisionsBefore = await w.revisions()
  let answer: Awaited<ReturnType<typeof call>>
  if (point === 'in-transaction') {
    const caught = await killInsideTransaction(w)
      ;({ before, answer } = caught)
    revisionsBefore = caught.revisions
    console.log(`the store caught inside its write transaction on try ${caught.tries}`)
  } else {
    w.proxy.set((r) => r.method === 'PUT' && /\/buckets\/big\/documents$/.test(r.path) ? point : 'pass')
    const pending = call(w.api, 'POST', '/configdocs/big?buffermode=append', bigCollection('big', 200, 1), YAML)
    const held = await w.proxy.held()
    await w.store().kill()
    w.proxy.set(() => 'pass')
    held.lose()
    answer = await pending
  }
  // a 5xx naming the store, never a 500 and never a success
  expect(answer.status, answer.text).toBeGreaterThan(500)
  expect(`${String(answer.body.message)} ${String(answer.body.reason)}`).toMatch(/store|Deckhand/i)

  await w.restartStore()
  const backAt = Date.now()
  expect(w.integrity()).toBe('ok')
  const revisionsAfter = await w.revisions()
  expect(revisionsAfter.slice(0, revisionsBefore.length)).toEqual(revisionsBefore)
  if (point !== 'hold-answer') expect(revisionsAfter).toEqual(revisionsBefore)
  // the orchestrator writes back what stood (hold-answer) once the store answers: at start-up of its recovery
  // loop and every 5 s after; a generous bound for a busy machine
  const deadline = Date.now() + 60_000
  let after = await w.buffer().catch(() => undefined)
  while (JSON.stringify(after) !== JSON.stringify(before) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 500))
    after = await w.buffer().catch(() => undefined)
  }
  expect(after).toEqual(before)
  console.log(`the store killed (${point}): the staging answered ${answer.status} (${String(answer.body.message)}); ` +
      `${revisionsAfter.length - revisionsBefore.length} revisions more after the restart; the buffer as before ${((Date.now() - backAt) / 1000).toFixed(1)} s after it`)
  for (const c of ['global', 'site']) expect((await call(w.api, 'GET', `/configdocs/${c}?version=committed`)).text).toBe(committed[c])
  // no lock left held: staging and committing go on at once
  const staged = await call(w.api, 'POST', '/configdocs/big?buffermode=append', bigCollection('big', 3, 2), YAML)
  expect(staged.status, staged.text).toBe(201)
  const commit = await call(w.api, 'POST', '/commitconfigdocs')
  expect(commit.status, commit.text).toBe(200)
}

describe('the store killed in the middle of a write', () => {
  const title = 'the store restarts intact, the buffer is as before, staging goes on'
  it.each(['half-body', 'hold-answer'] as const)(`%s: ${title}`, killDuring, 120_000)
  it.skipIf(!PROC_LOCKS)(`in-transaction: ${title}`, async () => { await killDuring('in-transaction') }, 120_000)
})
