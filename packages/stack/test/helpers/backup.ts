// The backup and restore of docs/operations.md ("Backups and restore"), for the restore drill: the page's own shell
// blocks run as written when the sqlite3 shell is installed, else the same steps here — a running stack's data
// folder copied in the page's order (the orchestrator's database, the engine, the site, the store with its
// secrets.key, the tokens) with SQLite's online backup (node:sqlite's backup(), the API `.backup` runs), and put back
// into an empty folder. An orchestrator on PostgreSQL (in a schema of the tests' database) is dumped with pg_dump
// and restored with pg_restore.
import { execFileSync, spawnSync } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join, resolve } from 'node:path'
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

const OPERATIONS = resolve(import.meta.dirname, '../../../../docs/operations.md')

/** The first bash block after the heading `heading` of docs/operations.md. */
export function operationsScript (heading: string): string {
  const text = readFileSync(OPERATIONS, 'utf8')
  const at = text.indexOf(`\n${heading}\n`)
  if (at < 0) throw new Error(`docs/operations.md has no heading ${heading}`)
  const block = /```bash\n([\s\S]*?)```/.exec(text.slice(at))?.[1]
  if (block === undefined) throw new Error(`docs/operations.md has no bash block under ${heading}`)
  return block
}

/** Whether the sqlite3 shell the page's blocks use is installed. */
export const sqliteShell = (): boolean => spawnSync('sqlite3', ['-version'], { stdio: 'ignore' }).status === 0

function bash (script: string, cwd: string, env: Record<string, string> = {}): void {
  const run = spawnSync('bash', ['-euo', 'pipefail', '-c', script], { cwd, env: { ...process.env, ...env }, encoding: 'utf8' })
  if (run.status !== 0) throw new Error(`the page's script failed (${String(run.status)}): ${run.stderr}`)
}

/** Runs the page's backup block in `root` (which holds the stack's `data`); answers the folder it made. */
export function backUpAsThePageSays (root: string): string {
  bash(operationsScript('### How, with `npm start`\'s data folder'), root)
  const made = readdirSync(root).filter((name) => name.startsWith('backup-'))
  if (made.length !== 1) throw new Error(`the page's backup made ${made.length} backup folders in ${root}`)
  return join(root, made[0] ?? '')
}

/** Runs the page's restore block in `root`, all but its last line (`npm start`: the drill starts the stack itself). */
export function restoreAsThePageSays (root: string, backupDir: string): void {
  const lines = operationsScript('### Restore').trimEnd().split('\n')
  if (lines.at(-1) !== 'npm start') throw new Error(`the page's restore block ends with ${lines.at(-1) ?? 'nothing'}, not npm start`)
  bash(lines.slice(0, -1).join('\n'), root, { BACKUP: backupDir })
}
