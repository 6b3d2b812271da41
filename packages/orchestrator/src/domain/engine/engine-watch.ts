// The engine watch: one loop per orchestrator process keeps the engine's runs, their task instances and the DAGs'
// pause flags, so that action and workflow reads need no engine call while it is fresh. A full read at start; then
// only what the engine changed since the last poll began (`updated_at_gte`; Airflow filters on its rows'
// `updated_at` but does not return it, so the watermark is this process's clock, reaching back `OVERLAP_MS` for clock
// skew and late commits); every `resyncMs` the run list again (runs deleted in the engine leave the watch then) and
// the task instances of the runs still moving and of a slice of the others, in turn.
// What it holds does not grow with the history: a run that ended and has not changed for `keepTasksMs` leaves it, its
// compact final summary (run-summaries.ts: its steps' states, all a list of actions needs, and the run's few fields
// read) written to the orchestrator's database, from where the list reads it; reads of its whole task instances go
// to the engine; a run that changes again is held and read whole at the next poll, and written anew when it ends.
// With a database, a resync asks the engine only for the runs not ended and what changed, not every run ever made
// (without one, as in some tests, the watch keeps the summaries itself and reads every run again). A
// read that finds the watch older than `staleMs`, stopped, or invalidated by one of this process's writes calls the
// engine itself, so no answer is older than that bound.
// Several orchestrators each keep their own; correctness never depends on it. What it holds and how an answer is
// taken into it: engine-watch-held.ts; the polls: engine-watch-poll.ts; the reads it serves: engine-watch-reads.ts.
import { directReads, type EngineReads } from './engine-reads.ts'
import { emptyHeldRuns } from './engine-watch-held.ts'
import { createWatchPoller, type PollOptions } from './engine-watch-poll.ts'
import { watchReads } from './engine-watch-reads.ts'

export { directReads, type EngineReads }

export interface WatchOptions extends PollOptions {
  intervalMs: number
  staleMs: number
  /** Longest pause between polls while the engine fails. */
  maxBackoffMs?: number
  now?: () => number
  log?: (error: unknown) => void
}

export function createEngineWatch (options: WatchOptions) {
  const now = options.now ?? Date.now
  const held = emptyHeldRuns()
  const { poll, syncedAt } = createWatchPoller(held, { ...options, now })
  let invalidatedAt = -1
  let stopped = true
  let timer: NodeJS.Timeout | undefined
  let failures = 0
  const stats = { polls: 0, errors: 0 }
  // what a list shows of the engine changed this many times (held.changes); with a token of this watch, so that no
  // other process's (or an earlier start's) count is ever taken for its own
  const epoch = Math.random().toString(36).slice(2, 10)

  function schedule (delayMs: number): void {
    if (stopped) return
    timer = setTimeout(() => {
      poll().then(() => { failures = 0; stats.polls++ }, (error: unknown) => {
        failures++
        stats.errors++
        options.log?.(error)
      }).finally(() => {
        // the engine failing: wait twice as long each time, up to the longest back-off
        const backoff = failures === 0 ? options.intervalMs : Math.min(options.intervalMs * 2 ** failures, options.maxBackoffMs ?? 30_000)
        schedule(backoff)
      })
    }, delayMs)
    timer.unref()
  }

  /** Fresh: polled successfully within the bound, after this process's last write. */
  const fresh = (): boolean => {
    const at = syncedAt()
    return !stopped && at !== undefined && at > invalidatedAt && now() - at <= options.staleMs
  }

  const reads = watchReads(held, {
    engine: options.engine,
    store: options.store,
    now,
    fresh,
    invalidate: () => { invalidatedAt = now() },
    version: () => fresh() ? `${epoch}.${held.changes}` : undefined
  })

  return {
    reads,
    start (): void {
      if (!stopped) return
      stopped = false
      schedule(0)
    },
    stop (): void {
      stopped = true
      if (timer !== undefined) clearTimeout(timer)
    },
    /**
     * Milliseconds since the last successful poll started (undefined before the first), polls and errors; `held`: how
     * many runs the watch holds (whole or as a summary of its own).
     */
    status: () => {
      const at = syncedAt()
      return { lagMs: at === undefined ? undefined : now() - at, fresh: fresh(), held: held.runs.size, ...stats }
    },
    /** One poll now (tests). */
    poll
  }
}

export type EngineWatch = ReturnType<typeof createEngineWatch>
