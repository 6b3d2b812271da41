// The backup and restore of docs/operations.md ("Backups and restore"), step by step as the page writes them, for
// the restore drill: a running stack's data folder copied in the page's order (the orchestrator's database, the
// engine, the site, the store with its secrets.key, the tokens), and put back into an empty folder. SQLite files
// are copied with SQLite's online backup (node:sqlite's backup(), the API the sqlite3 shell's `.backup` runs); an
// orchestrator on PostgreSQL is dumped with pg_dump and restored with pg_restore.
import { execFileSync } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { backup, DatabaseSync } from 'node:sqlite'

/** The files of the data folder the page says to keep, beside the databases. */
const TOKENS = ['admin-token', 'service-token', 'engine-password']

/** Where the orchestrator keeps its tables: the data folder's SQLite file, or a PostgreSQL schema. */
export type OrchestratorDatabase = { kind: 'sqlite' } | { kind: 'postgres', url: string, schema: string }

async function sqliteBackup (from: string, to: string): Promise<void> {
  mkdirSync(join(to, '..'), { recursive: true })
  const source = new DatabaseSync(from)
  try {
    await backup(source, to)
  } finally {
    source.close()
  }
}

/** Copies the running stack's `dataDir` into `backupDir` (empty or absent), in the page's order. */
export async function backUp (dataDir: string, backupDir: string, database: OrchestratorDatabase): Promise<void> {
  mkdirSync(backupDir, { recursive: true })
  // 1. the orchestrator's database first: what it names (runs, revisions) is then in the copies made after it
  if (database.kind === 'sqlite') {
    await sqliteBackup(join(dataDir, 'orchestrator', 'orchestrator.sqlite'), join(backupDir, 'orchestrator', 'orchestrator.sqlite'))
  } else {
    execFileSync('pg_dump', ['--format=custom', `--schema=${database.schema}`, `--file=${join(backupDir, 'orchestrator.pgdump')}`, database.url], { stdio: 'pipe' })
  }
  // 2. the engine's and the site's state: files written whole and renamed into place, so a copy reads whole files
  for (const folder of ['engine', 'site']) cpSync(join(dataDir, folder), join(backupDir, folder), { recursive: true })
  // 3. the store last (its revisions are named by the actions and the runs), with the key of its encrypted documents
  await sqliteBackup(join(dataDir, 'store', 'store.sqlite'), join(backupDir, 'store', 'store.sqlite'))
  cpSync(join(dataDir, 'store', 'secrets.key'), join(backupDir, 'store', 'secrets.key'))
  // 4. the tokens and the engine password the processes and the operators use
  for (const file of TOKENS) cpSync(join(dataDir, file), join(backupDir, file))
}

/** Puts `backupDir` back as `dataDir` (which must not exist: the stack is stopped and its folder gone). */
export function restore (backupDir: string, dataDir: string, database: OrchestratorDatabase): void {
  if (existsSync(dataDir)) throw new Error(`${dataDir} exists: restore into an empty place`)
  mkdirSync(dataDir, { recursive: true })
  for (const entry of readdirSync(backupDir)) {
    if (entry === 'orchestrator.pgdump') continue
    cpSync(join(backupDir, entry), join(dataDir, entry), { recursive: true })
  }
  if (database.kind === 'postgres') {
    execFileSync('pg_restore', ['--no-owner', `--dbname=${database.url}`, join(backupDir, 'orchestrator.pgdump')], { stdio: 'pipe' })
  }
}

/** The bytes of every file under `folder`. */
export function folderBytes (folder: string): number {
  let total = 0
  for (const entry of readdirSync(folder, { recursive: true, encoding: 'utf8' })) {
    const stat = statSync(join(folder, entry))
    if (stat.isFile()) total += stat.size
  }
  return total
}
