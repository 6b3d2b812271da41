// The orchestrator's two databases for tests: the embedded SQLite in a temp folder and PostgreSQL in a fresh schema
// of TEST_DATABASE_URL (skipped without it, failed without it under SLIPWAY_REQUIRE_POSTGRES=1). Each open is
// cleaned up when the test finishes.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { onTestFinished } from 'vitest'
import { newUlid } from '@slipway/common'
import { testPostgres } from '@slipway/common/testing'
import type { Repositories } from '../../src/db/repositories.ts'
import { openSqlite } from '../../src/db/sqlite.ts'
import { openPostgres } from '../../src/db/postgres.ts'

/** The tests' PostgreSQL (TEST_DATABASE_URL), for a PostgreSQL test of its own. */
export const POSTGRES = testPostgres('orchestrator database tests')

/**
 * A fresh schema of the tests' PostgreSQL, dropped when the test finishes, with a connection of its own that uses it
 * (`admin`: to make the schema a test starts from, or read what a test left).
 */
export async function throwAwaySchema (): Promise<{ url: string, schema: string, admin: pg.Client }> {
  const url = POSTGRES.url()
  const schema = `t_${newUlid().toLowerCase()}`
  const admin = new pg.Client({ connectionString: url })
  await admin.connect()
  onTestFinished(async () => { await admin.query(`DROP SCHEMA ${schema} CASCADE`); await admin.end() })
  await admin.query(`CREATE SCHEMA ${schema}`)
  await admin.query(`SET search_path = ${schema}`)
  return { url, schema, admin }
}

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
    skip: POSTGRES.skip,
    open: async () => {
      const { url, schema } = await throwAwaySchema()
      const repos = await openPostgres(url, { schema })
      onTestFinished(async () => { await repos.close() })
      return {
        repos,
        reopen: async () => {
          const again = await openPostgres(url, { schema })
          onTestFinished(async () => { await again.close() })
          return again
        }
      }
    }
  }
]
