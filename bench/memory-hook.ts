// Loaded into a process only by a benchmark (NODE_OPTIONS="--expose-gc --import <this file>", MEMORY_HOOK_FILE set):
// on SIGUSR2 the process collects its garbage (when gc is exposed) and writes process.memoryUsage() as one JSON line
// to MEMORY_HOOK_FILE, so the benchmark reads where the memory is (V8's heap, buffers, the rest) after the same
// collection at every level. Nothing of this is in the services themselves: no route, no setting.
import { writeFileSync } from 'node:fs'

const file = process.env.MEMORY_HOOK_FILE
if (file !== undefined && file !== '') {
  const write = (collected: boolean): void => {
    writeFileSync(file, `${JSON.stringify({ ...process.memoryUsage(), collected })}\n`)
  }
  // at once: the benchmark sends its signal only once this file is there (an unhandled SIGUSR2 ends a process)
  write(false)
  process.on('SIGUSR2', () => {
    const collect = (globalThis as { gc?: () => void }).gc
    collect?.()
    // a second collection: what the first one left for finalizers to free
    setTimeout(() => {
      collect?.()
      write(collect !== undefined)
    }, 200)
  })
}
