// Loaded into a process only by a benchmark (NODE_OPTIONS="--expose-gc --import <this file>", MEMORY_HOOK_FILE set):
// on SIGUSR2 the process collects its garbage (when gc is exposed) and writes process.memoryUsage() as one JSON line
// to MEMORY_HOOK_FILE, so the benchmark reads where the memory is (V8's heap, buffers, the rest) after the same
// collection at every level. With MEMORY_HOOK_GC_FILE set, every collection's pause (perf_hooks' 'gc' entries: when,
// how long, which kind) is appended to it as a JSON line, a second's worth at a time; with MEMORY_HOOK_PROFILE set,
// SIGWINCH starts a CPU profile and the next SIGWINCH writes it there (a .cpuprofile for Chrome's tools). Nothing of
// this is in the services themselves: no route, no setting.
import { appendFileSync, writeFileSync } from 'node:fs'
import { Session } from 'node:inspector/promises'
import { PerformanceObserver, constants, performance } from 'node:perf_hooks'

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

const gcFile = process.env.MEMORY_HOOK_GC_FILE
if (gcFile !== undefined && gcFile !== '') {
  const kinds: Record<number, string> = {
    [constants.NODE_PERFORMANCE_GC_MINOR]: 'minor',
    [constants.NODE_PERFORMANCE_GC_MAJOR]: 'major',
    [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental',
    [constants.NODE_PERFORMANCE_GC_WEAKCB]: 'weak'
  }
  let lines = ''
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const kind = ((entry as { detail?: unknown }).detail as { kind?: number } | null | undefined)?.kind ?? -1
      // wall-clock milliseconds, comparable with Date.now() in the benchmark's process
      const at = performance.timeOrigin + entry.startTime
      lines += `${JSON.stringify({ at, ms: entry.duration, kind: kinds[kind] ?? String(kind) })}\n`
    }
  }).observe({ entryTypes: ['gc'] })
  writeFileSync(gcFile, '')
  setInterval(() => {
    if (lines === '') return
    appendFileSync(gcFile, lines)
    lines = ''
  }, 1000).unref()
}

const profileFile = process.env.MEMORY_HOOK_PROFILE
if (profileFile !== undefined && profileFile !== '') {
  let session: Session | undefined
  process.on('SIGWINCH', () => {
    (async () => {
      if (session === undefined) {
        session = new Session()
        session.connect()
        await session.post('Profiler.enable')
        await session.post('Profiler.setSamplingInterval', { interval: 500 })
        await session.post('Profiler.start')
        return
      }
      const { profile } = await session.post('Profiler.stop')
      session.disconnect()
      session = undefined
      writeFileSync(profileFile, JSON.stringify(profile))
    })().catch((error: unknown) => { console.error('memory-hook: the CPU profile failed', error) })
  })
}
