// The step runs the runner holds: each started at once in the background, its log read in pieces by the caller
// that polls it, stopped on request (the step's signal aborts), and forgotten a while after it ended.
import { randomUUID } from 'node:crypto'
import { failureText } from '../run.ts'
import type { StepLibrary } from '../library.ts'
import type { LogLevel, StepCall, StepKind } from '../types.ts'

export type RunState = 'running' | 'success' | 'failed'

export interface StepRunView {
  id: string
  kind: StepKind
  state: RunState
  /** The log lines from `since` on, and where the next read starts. */
  log: Array<{ level: LogLevel, event: string }>
  next: number
  output?: unknown
  follow?: string[]
  error?: string
}

interface StepRun {
  id: string
  kind: StepKind
  state: RunState
  log: Array<{ level: LogLevel, event: string }>
  dropped: number
  output?: unknown
  follow?: string[]
  error?: string
  controller: AbortController
  endedAt?: number
}

/** Most lines a run keeps (the earliest are dropped after, with a line saying so). */
const MAX_LINES = 20_000

export function createStepRuns (options: { library: StepLibrary, keepMs: number, maxRuns: number, now?: () => number }) {
  const now = options.now ?? Date.now
  const runs = new Map<string, StepRun>()

  /** Ended runs past their keep time leave; when too many are held, the oldest ended ones leave first. */
  function prune (): void {
    for (const [id, run] of runs) if (run.endedAt !== undefined && now() - run.endedAt > options.keepMs) runs.delete(id)
    for (const [id, run] of runs) {
      if (runs.size < options.maxRuns) break
      if (run.endedAt !== undefined) runs.delete(id)
    }
  }

  function start (kind: StepKind, call: StepCall): { id: string, state: RunState } | undefined {
    prune()
    if (runs.size >= options.maxRuns) return undefined
    const run: StepRun = { id: randomUUID(), kind, state: 'running', log: [], dropped: 0, controller: new AbortController() }
    runs.set(run.id, run)
    const log = (event: string, level: LogLevel = 'info'): void => {
      run.log.push({ level, event })
      if (run.log.length > MAX_LINES) { run.log.shift(); run.dropped++ }
    }
    options.library.run(kind, call, { log, signal: run.controller.signal }).then((result) => {
      run.state = 'success'
      if (result.output !== undefined) run.output = result.output
      if (result.follow !== undefined) run.follow = result.follow
    }, (error: unknown) => {
      run.state = 'failed'
      run.error = run.controller.signal.aborted ? 'The step was stopped' : failureText(error)
    }).finally(() => { run.endedAt = now() })
    return { id: run.id, state: run.state }
  }

  function read (id: string, since: number): StepRunView | undefined {
    const run = runs.get(id)
    if (run === undefined) return undefined
    const from = Math.max(since - run.dropped, 0)
    const view: StepRunView = { id, kind: run.kind, state: run.state, log: run.log.slice(from), next: run.dropped + run.log.length }
    if (run.state === 'running') return view
    if (run.output !== undefined) view.output = run.output
    if (run.follow !== undefined) view.follow = run.follow
    if (run.error !== undefined) view.error = run.error
    return view
  }

  function stop (id: string): RunState | undefined {
    const run = runs.get(id)
    if (run === undefined) return undefined
    run.controller.abort()
    return run.state
  }

  /** Stops every running step, as the runner closes. */
  function stopAll (): void {
    for (const run of runs.values()) run.controller.abort()
  }

  return { start, read, stop, stopAll, size: () => runs.size }
}
export type StepRuns = ReturnType<typeof createStepRuns>
