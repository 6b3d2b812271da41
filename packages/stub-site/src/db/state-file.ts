// Persists the site's state as one JSON file under SITE_DATA_DIR, replaced atomically on every change.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { Value } from 'typebox/value'
import { SiteStateSchema, type SiteState } from '../schemas/nodes.ts'

export const STATE_FILE_NAME = 'site-state.json'

export function createStateFile (dir: string) {
  const path = join(dir, STATE_FILE_NAME)
  const temporary = `${path}.tmp`

  /** The saved state, or undefined when nothing was saved yet; a damaged file is an error, never silently dropped. */
  function load (): SiteState | undefined {
    let text: string
    try {
      text = readFileSync(path, 'utf8')
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
      throw error
    }
    const state: unknown = JSON.parse(text)
    if (!Value.Check(SiteStateSchema, state)) throw new Error(`${path} is not a stub-site state file`)
    return state
  }

  function save (state: SiteState): void {
    mkdirSync(dir, { recursive: true })
    // write then rename: a crash leaves either the old or the new file, never half of one
    writeFileSync(temporary, JSON.stringify(state))
    renameSync(temporary, path)
  }

  return { path, load, save }
}
