// Persists the Armada stand-in's releases as SITE_DATA_DIR/armada-state.json, replaced atomically on every change.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { Value } from 'typebox/value'
import { ArmadaStateSchema, type ArmadaState } from '../schemas/armada.ts'

export const ARMADA_STATE_FILE_NAME = 'armada-state.json'

export function createArmadaStateFile (dir: string) {
  const path = join(dir, ARMADA_STATE_FILE_NAME)
  const temporary = `${path}.tmp`

  /** The saved releases, or undefined when nothing was saved yet; a damaged file is an error, never dropped. */
  function load (): ArmadaState | undefined {
    let text: string
    try {
      text = readFileSync(path, 'utf8')
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
      throw error
    }
    const state: unknown = JSON.parse(text)
    if (!Value.Check(ArmadaStateSchema, state)) throw new Error(`${path} is not an Armada stand-in state file`)
    return state
  }

  function save (state: ArmadaState): void {
    mkdirSync(dir, { recursive: true })
    writeFileSync(temporary, JSON.stringify(state))
    renameSync(temporary, path)
  }

  return { path, load, save }
}
