// An engine watch for the watch's own tests: it counts as started (its reads are served while fresh), but its loop
// never runs on its own (fake timers): the test polls it, at the times its clock says. Stopped when the test ends.
import { onTestFinished, vi } from 'vitest'
import { createEngineWatch, type WatchOptions } from '../../src/domain/engine/engine-watch.ts'

export function startedWatch (options: WatchOptions) {
  vi.useFakeTimers()
  const watch = createEngineWatch(options)
  watch.start()
  onTestFinished(() => { watch.stop(); vi.useRealTimers() })
  return watch
}
