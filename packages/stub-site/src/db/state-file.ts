// Persists the site's state as JSON files under SITE_DATA_DIR, each replaced atomically on every change:
// site-state.json (the nodes and the ConfigMaps) and armada-state.json (the Armada stand-in's releases).
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Static, TSchema } from 'typebox'
import { Value } from 'typebox/value'
import { ArmadaStateSchema } from '../schemas/armada.ts'
import { SiteStateSchema } from '../schemas/nodes.ts'

export const STATE_FILE_NAME = 'site-state.json'
export const ARMADA_STATE_FILE_NAME = 'armada-state.json'

/** dir/name holding one value `schema` accepts; `what` names the file in the error for a damaged one. */
export function createJsonStateFile<S extends TSchema> (dir: string, name: string, schema: S, what: string) {
  const path = join(dir, name)
  const temporary = `${path}.tmp`

  /** The saved state, or undefined when nothing was saved yet; a damaged file is an error, never silently dropped. */
  function load (): Static<S> | undefined {
    let text: string
    try {
      text = readFileSync(path, 'utf8')
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
      throw error
    }
    const state: unknown = JSON.parse(text)
    if (!Value.Check(schema, state)) throw new Error(`${path} is not ${what}`)
    return state
  }

  function save (state: Static<S>): void {
    mkdirSync(dir, { recursive: true })
    // write then rename: a crash leaves either the old or the new file, never half of one
    writeFileSync(temporary, JSON.stringify(state))
    renameSync(temporary, path)
  }

  return { path, load, save }
}

export const createStateFile = (dir: string) => createJsonStateFile(dir, STATE_FILE_NAME, SiteStateSchema, 'a stub-site state file')

export const createArmadaStateFile = (dir: string) =>
  createJsonStateFile(dir, ARMADA_STATE_FILE_NAME, ArmadaStateSchema, 'an Armada stand-in state file')
