// Two orchestrator processes on one PostgreSQL database (a fresh schema of TEST_DATABASE_URL), behind one store,
// engine and validating component, as replicas behind a load balancer run. The first (`a`) calls them directly;
// the second (`b`) through holding proxies, so that a test can stop one of its calls, kill it there (SIGKILL) and
// restart it. The database is read directly too: the lock rows and the advisory locks the processes hold.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { parse } from 'yaml'
import { onTestFinished } from 'vitest'
import { newUlid } from '@slipway/common'
import { TEST_TOKENS, testPostgres } from '@slipway/common/testing'
import { loadConfig as storeConfig, startStore } from '@slipway/stub-store'
import { loadConfig as engineConfig, startEngine } from '@slipway/stub-engine'
import { startValidator } from '../helpers/stack.ts'
import { startHoldingProxy } from './holding-proxy.ts'
import { SERVERS, startService, type ServiceProcess } from './service-process.ts'

export { call, type Answer } from './service-process.ts'

/** The tests' PostgreSQL: skipped without TEST_DATABASE_URL, failed without it under SLIPWAY_REQUIRE_POSTGRES=1. */
export const POSTGRES = testPostgres('two orchestrators on PostgreSQL')

export interface TwoOptions {
  leaseS: number
  engineEnv?: Record<string, string>
  /** Added to both orchestrators' environment. */
  orchestratorEnv?: Record<string, string>
}

export async function twoOrchestrators (options: TwoOptions) {
  const pgUrl = POSTGRES.url()
  const schema = `t_${newUlid().toLowerCase()}`
  const sql = new pg.Client({ connectionString: pgUrl })
  await sql.connect()
  await sql.query(`CREATE SCHEMA ${schema}`)
  onTestFinished(async () => { await sql.query(`DROP SCHEMA ${schema} CASCADE`); await sql.end() })
  const dir = mkdtempSync(join(tmpdir(), 'orch-two-pg-'))
  onTestFinished(() => { rmSync(dir, { recursive: true, force: true }) })
  const tokens = join(dir, 'tokens.yaml')
  writeFileSync(tokens, `tokens:\n  ${TEST_TOKENS.admin}: {user: admin, roles: [admin]}\n`)

  const store = await startStore(storeConfig({ PORT: '0', LOG_LEVEL: 'silent' }))
  onTestFinished(async () => { await store.close() })
  const engine = await startEngine(engineConfig({ PORT: '0', LOG_LEVEL: 'silent', ENGINE_TASK_MS: '20', ...options.engineEnv }))
  onTestFinished(async () => { await engine.close() })
  const validator = await startValidator({ current: 'pass' })
  const proxies = {
    store: await startHoldingProxy(store.url),
    engine: await startHoldingProxy(engine.url),
    validator: await startHoldingProxy(validator.url)
  }

  const databaseUrl = `${pgUrl}${pgUrl.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`
  const env = (urls: { store: string, engine: string, validator: string }): Record<string, string> => ({
    DATABASE_URL: databaseUrl,
    ORCHESTRATOR_DATA_DIR: join(dir, 'unused'),
    AUTH_TOKENS_FILE: tokens,
    STORE_URL: urls.store,
    ENGINE_URL: urls.engine,
    ENGINE_USERNAME: 'admin',
    ENGINE_PASSWORD: 'admin',
    VALIDATORS: `Promenade=${urls.validator}`,
    PROVISIONER_URL: 'http://127.0.0.1:9/api/v1.0',
    COMMIT_LOCK_LEASE_S: String(options.leaseS),
    ACTION_LOCK_LEASE_S: String(options.leaseS),
    TAG_POLL_INTERVAL_MS: '500',
    ...options.orchestratorEnv
  })
  const direct = { store: store.url, engine: engine.url, validator: validator.url }
  const proxied = { store: proxies.store.url, engine: proxies.engine.url, validator: proxies.validator.url }
  const startA = async (): Promise<ServiceProcess> => await startService(SERVERS.orchestrator, env(direct))
  const startB = async (): Promise<ServiceProcess> => await startService(SERVERS.orchestrator, env(proxied))
  const a = await startA()
  const b = await startB()

  return {
    a,
    b,
    startB,
    store,
    engine,
    proxies,
    /** Lock rows of `lockType` not released, newest first. */
    async heldLocks (lockType: string): Promise<Array<{ id: string, acquired_at: string, expires_at: string }>> {
      return (await sql.query(`SELECT id, acquired_at, expires_at FROM ${schema}.api_locks WHERE lock_type = $1 AND released = 0 ORDER BY acquired_at DESC`, [lockType])).rows
    },
    /** Lock rows still in force now: not released and their lease not over. */
    async locksInForce (): Promise<Array<{ lock_type: string }>> {
      return (await sql.query(`SELECT lock_type FROM ${schema}.api_locks WHERE released = 0 AND expires_at > $1`, [new Date().toISOString()])).rows
    },
    /** Advisory locks any session holds in this database (the processes take them only inside a transaction). */
    async advisoryLocks (): Promise<number> {
      return Number((await sql.query("SELECT count(*) AS n FROM pg_locks WHERE locktype = 'advisory' AND database = (SELECT oid FROM pg_database WHERE datname = current_database())")).rows[0].n)
    },
    async actionRows (): Promise<Array<{ id: string, name: string }>> {
      return (await sql.query(`SELECT id, name FROM ${schema}.actions ORDER BY id`)).rows
    },
    /** The store's revisions that carry `tag`. */
    async tagged (tag: string): Promise<number[]> {
      const text = await (await fetch(`${store.url}/revisions`)).text()
      const list = (parse(text) as { results: Array<{ id: number, tags: string[] }> }).results
      return list.filter((r) => r.tags.includes(tag)).map((r) => r.id)
    },
    /** The engine's runs of `dagId` (its own API, as admin). */
    async runs (dagId: string): Promise<Array<{ dag_run_id: string, state: string }>> {
      const token = await (await fetch(`${engine.url}/auth/token`, {
        method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'admin', password: 'admin' })
      })).json() as { access_token: string }
      const list = await (await fetch(`${engine.url}/api/v2/dags/${dagId}/dagRuns?limit=100`, { headers: { authorization: `Bearer ${token.access_token}` } })).json() as { dag_runs: Array<{ dag_run_id: string, state: string }> }
      return list.dag_runs
    }
  }
}

export type TwoOrchestrators = Awaited<ReturnType<typeof twoOrchestrators>>
