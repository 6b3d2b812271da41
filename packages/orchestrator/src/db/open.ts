// Chooses the database: PostgreSQL when DATABASE_URL is set, else the embedded SQLite.
import { ConfigError } from '@slipway/common'
import type { Repositories } from './repositories.ts'
import { openSqlite } from './sqlite.ts'

// what a PostgreSQL that cannot be used looks like at start-up, worded for the operator (docs/operations.md: troubleshooting)
const NETWORK: Record<string, string> = {
  ECONNREFUSED: 'refuses connections (is PostgreSQL running there?)',
  ENOTFOUND: 'is a host name that does not resolve',
  EAI_AGAIN: 'is a host name that does not resolve',
  ETIMEDOUT: 'does not answer',
  EHOSTUNREACH: 'cannot be reached',
  ECONNRESET: 'closed the connection'
}
// SQLSTATE classes 28 (invalid authorization) and 3D (no such database): the server answered, the URL is wrong
const REFUSED_LOGIN = /^(28|3D)/

/** A ConfigError naming DATABASE_URL when `error` means the database cannot be used as configured; else undefined. */
export function databaseProblem (error: unknown, url: string): ConfigError | undefined {
  const e = error as { code?: string, message?: string, errors?: Array<{ code?: string }> }
  // a host with several addresses fails with an AggregateError of one error per address
  const code = e.code ?? e.errors?.[0]?.code ?? ''
  let where = 'PostgreSQL'
  try {
    const parsed = new URL(url)
    where = `PostgreSQL at ${parsed.hostname}:${parsed.port === '' ? '5432' : parsed.port}${parsed.pathname}`
  } catch {
    return new ConfigError(['DATABASE_URL: is not a URL (postgres://user:password@host:5432/database)'])
  }
  if (NETWORK[code] !== undefined) return new ConfigError([`DATABASE_URL: ${where} ${NETWORK[code]}`])
  if (REFUSED_LOGIN.test(code)) return new ConfigError([`DATABASE_URL: ${where} refused: ${e.message ?? code}`])
  return undefined
}

export async function openDatabase (config: { DATABASE_URL: string, ORCHESTRATOR_DATA_DIR: string }): Promise<Repositories> {
  if (config.DATABASE_URL !== '') {
    const { openPostgres } = await import('./postgres.ts')
    try {
      return await openPostgres(config.DATABASE_URL)
    } catch (error) {
      throw databaseProblem(error, config.DATABASE_URL) ?? error
    }
  }
  return openSqlite(config.ORCHESTRATOR_DATA_DIR)
}
