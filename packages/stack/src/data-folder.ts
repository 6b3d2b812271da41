// The data folder of `npm start` (SLIPWAY_DATA_DIR): state that outlived the tokens it belongs with, and a folder
// deleted under a running stack, are said out loud (docs/operations.md: the data folder, resetting).
import { existsSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'

const STATE_FOLDERS = ['orchestrator', 'store', 'engine', 'site']
// every start writes the service token; the admin token only when SLIPWAY_ADMIN_TOKEN does not give it
const TOKEN_FILES = ['admin-token', 'service-token']

/**
 * The process folders holding state in a data folder that has none of the tokens a start writes: what is left of an
 * earlier stack whose folder was deleted while it ran (the engine and site write their state again when they stop).
 */
export function leftoverState (dataDir: string): string[] {
  if (TOKEN_FILES.some((name) => existsSync(join(dataDir, name)))) return []
  return STATE_FOLDERS.filter((name) => {
    try { return readdirSync(join(dataDir, name)).length > 0 } catch { return false }
  })
}

/** Whether the data folder itself is gone (or is no longer a folder); what is in it does not matter. */
export function dataFolderGone (dataDir: string): boolean {
  try { return !statSync(dataDir).isDirectory() } catch { return true }
}

/** Calls `onGone` once when the data folder disappears while the stack runs; returns a function that stops watching. */
export function watchDataFolder (dataDir: string, onGone: () => void, intervalMs = 2000): () => void {
  const timer = setInterval(() => {
    if (!dataFolderGone(dataDir)) return
    clearInterval(timer)
    onGone()
  }, intervalMs)
  timer.unref()
  return () => { clearInterval(timer) }
}
