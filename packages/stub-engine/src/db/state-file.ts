// Persists the engine's state as one JSON file in ENGINE_DATA_DIR, written atomically (temp file + rename).
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { EngineSnapshot } from '../domain/records.ts'

export function createStateFile (dir: string) {
  const file = join(dir, 'engine-state.json')
  return {
    file,
    load (): EngineSnapshot | null {
      let text: string
      try {
        text = readFileSync(file, 'utf8')
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
        throw error
      }
      const value = JSON.parse(text) as Partial<EngineSnapshot>
      if (typeof value.seq !== 'number' || !Array.isArray(value.dags) || !Array.isArray(value.runs)) {
        throw new Error(`${file} is not an engine state file`)
      }
      return value as EngineSnapshot
    },
    save (snapshot: EngineSnapshot): void {
      mkdirSync(dir, { recursive: true })
      const temp = `${file}.${process.pid}.tmp`
      writeFileSync(temp, JSON.stringify(snapshot))
      renameSync(temp, file)
    }
  }
}
