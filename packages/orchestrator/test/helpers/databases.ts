// The orchestrator's two databases for tests: the embedded SQLite in a temp folder and, when TEST_DATABASE_URL is
// set, PostgreSQL in a fresh schema. Each open is cleaned up when the test finishes.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { onTestFinished } from 'vitest'
import { newUlid } from '@slipway/common'
import type { Repositories } from '../../src/db/repositories.ts'
import { openSqlite } from '../../src/db/sqlite.ts'
import { openPostgres } from '../../src/db/postgres.ts'

const PG_URL = process.env.TEST_DATABASE_URL
if (PG_URL === undefined || PG_URL === '') console.warn('orchestrator database tests: TEST_DATABASE_URL is not set; the PostgreSQL half of each is reported as skipped')

/** Each database opened fresh; `reopen` gives a new connection to the same data (restart). */
export const DATABASES: Array<{
  name: string
  skip: boolean
  open: () => Promise<{ repos: Repositories, reopen: () => Promise<Repositories> }>
}> = [
  {
    name: 'sqlite',
    skip: false,
    open: async () => {
      const dir = mkdtempSync(join(tmpdir(), 'orch-db-'))
      onTestFinished(() => rmSync(dir, { recursive: true, force: true }))
      const repos = openSqlite(dir)
      onTestFinished(async () => { await repos.close() })
      return {
        repos,
        reopen: async () => {
          const again = openSqlite(dir)
          onTestFinished(async () => { await again.close() })
          return again
        }
      }
    }
  },
  {
    name: 'postgres',
    skip: PG_URL === undefined || PG_URL === '',
    open: async () => {
      const schema = `t_${newUlid().toLowerCase()}`
      const admin = new pg.Client({ connectionString: PG_URL })
      await admin.connect()
      await admin.query(`CREATE SCHEMA ${schema}`)
      onTestFinished(async () => { await admin.query(`DROP SCHEMA ${schema} CASCADE`); await admin.end() })
      const repos = await openPostgres(String(PG_URL), { schema })
      onTestFinished(async () => { await repos.close() })
      return {
        repos,
        reopen: async () => {
          const again = await openPostgres(String(PG_URL), { schema })
          onTestFinished(async () => { await again.close() })
          return again
        }
      }
    }
  }
]
