// Persists the engine's state in ENGINE_DATA_DIR: `engine.json` holds the DAG records and the run counter, and each
// run is a file of its own under `runs/`, named by its number (run ids may hold any character), so that a save
// writes only the runs that changed. Every file is written whole to a temporary name and renamed: a crash leaves
// the old file or the new one. A folder written by an earlier version as one `engine-state.json` is read once and
// rewritten in this layout.
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { DagRecord, EngineChanges, EngineSnapshot, RunRecord } from '../domain/records.ts'

const RUN_FILE = /^(\d+)\.json$/

export function createStateFile (dir: string) {
  const file = join(dir, 'engine.json')
  const runsDir = join(dir, 'runs')
  const legacyFile = join(dir, 'engine-state.json')

  function readJson (path: string): unknown {
    try {
      return JSON.parse(readFileSync(path, 'utf8'))
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
      throw new Error(`${path} is not readable as JSON: ${(error as Error).message}`)
    }
  }
  function writeJson (path: string, value: unknown): void {
    const temp = `${path}.tmp`
    writeFileSync(temp, JSON.stringify(value))
    renameSync(temp, path)
  }
  const runFile = (run: RunRecord): string => join(runsDir, `${run.seq}.json`)
  const isRun = (value: unknown): value is RunRecord => typeof value === 'object' && value !== null &&
    typeof (value as RunRecord).seq === 'number' && typeof (value as RunRecord).dag_id === 'string' &&
    typeof (value as RunRecord).dag_run_id === 'string' && Array.isArray((value as RunRecord).tis)

  /** Run `seq`'s saved file; undefined when there is none, an error when it is not that run. */
  function readRunFile (seq: number): RunRecord | undefined {
    const path = join(runsDir, `${seq}.json`)
    const run = readJson(path)
    if (run === undefined) return undefined
    if (!isRun(run) || run.seq !== seq) throw new Error(`${path} is not a run of the engine`)
    return run
  }

  /** The saved runs, in number order; a damaged run file is an error, never silently dropped. */
  function loadRuns (): RunRecord[] {
    let names: string[]
    try {
      names = readdirSync(runsDir)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return []
      throw error
    }
    const runs: RunRecord[] = []
    for (const name of names) {
      const number = RUN_FILE.exec(name)?.[1]
      // a temporary file is a save a crash cut short: the run's previous file, if any, is its state
      if (number === undefined) continue
      const run = readRunFile(Number(number))
      // listed a moment ago: a file gone since is as damaged as one that is not a run
      if (run === undefined) throw new Error(`${join(runsDir, name)} is not a run of the engine`)
      runs.push(run)
    }
    return runs.sort((a, b) => a.seq - b.seq)
  }

  function save (changes: EngineChanges): void {
    mkdirSync(runsDir, { recursive: true })
    for (const run of changes.runs) writeJson(runFile(run), run)
    for (const run of changes.removed) rmSync(runFile(run), { force: true })
    // the counter after the runs: a crash in between leaves it behind a run, which loading allows for
    writeJson(file, { seq: changes.seq, dags: changes.dags })
  }

  /** The state saved by an earlier version as one file, rewritten in this layout; null when there is none. */
  function migrate (): EngineSnapshot | null {
    const value = readJson(legacyFile) as Partial<EngineSnapshot> | undefined
    if (value === undefined) return null
    if (typeof value.seq !== 'number' || !Array.isArray(value.dags) || !Array.isArray(value.runs)) {
      throw new Error(`${legacyFile} is not an engine state file`)
    }
    const snapshot = value as EngineSnapshot
    save({ ...snapshot, removed: [] })
    rmSync(legacyFile)
    return snapshot
  }

  return {
    file,
    /** One saved run by number; undefined when its file is gone. */
    readRun: readRunFile,
    load (): EngineSnapshot | null {
      const value = readJson(file) as { seq?: unknown, dags?: unknown } | undefined
      if (value === undefined) return migrate()
      if (typeof value.seq !== 'number' || !Array.isArray(value.dags)) throw new Error(`${file} is not an engine state file`)
      return { seq: value.seq, dags: value.dags as DagRecord[], runs: loadRuns() }
    },
    save
  }
}
