// Chooses the database: PostgreSQL when DATABASE_URL is set, else the embedded SQLite.
import type { Repositories } from './repositories.ts'
import { openSqlite } from './sqlite.ts'

export async function openDatabase (config: { DATABASE_URL: string, ORCHESTRATOR_DATA_DIR: string }): Promise<Repositories> {
  if (config.DATABASE_URL !== '') {
    const { openPostgres } = await import('./postgres.ts')
    return await openPostgres(config.DATABASE_URL)
  }
  return openSqlite(config.ORCHESTRATOR_DATA_DIR)
}
