// The data folder of `npm start` (SLIPWAY_DATA_DIR): state that outlived the tokens it belongs with, and a folder
// deleted under a running stack, are said out loud (README: data folder, resetting).
import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'

const STATE_FOLDERS = ['orchestrator', 'store', 'engine', 'site']

/**
 * The process folders holding state in a data folder that has no admin token: what is left of an earlier stack
 * whose folder was deleted while it ran (the engine and site write their state again when they stop).
 */
export function leftoverState (dataDir: string): string[] {
  if (existsSync(join(dataDir, 'admin-token'))) return []
  return STATE_FOLDERS.filter((name) => {
    try { return readdirSync(join(dataDir, name)).length > 0 } catch { return false }
  })
}

/** Calls `onGone` once when the data folder disappears while the stack runs; returns a function that stops watching. */
export function watchDataFolder (dataDir: string, onGone: () => void, intervalMs = 2000): () => void {
  const timer = setInterval(() => {
    if (existsSync(join(dataDir, 'admin-token'))) return
    clearInterval(timer)
    onGone()
  }, intervalMs)
  timer.unref()
  return () => { clearInterval(timer) }
}
