// The simulated Airflow (its run and task-instance state machines): createEngine wires the shared state, the executor
// of tries, the scheduler loop, the control operations and the reads into the one object the routes call.
import { createControl } from './control.ts'
import { createEngineState } from './engine-state.ts'
import { createExecutor } from './executor.ts'
import type { EngineOptions } from './engine-options.ts'
import { createReads } from './reads.ts'
import { createScheduler } from './scheduler.ts'

export type { RunFilter, TiFilter } from './reads.ts'

export function createEngine (options: EngineOptions) {
  const shared = createEngineState(options)
  const executor = createExecutor(shared, options)
  const scheduler = createScheduler(shared, executor, options)
  const reads = createReads(shared, options)
  const control = createControl(shared, executor, reads, options)
  let timer: NodeJS.Timeout | undefined

  return {
    start (): void {
      shared.restore()
      timer = setInterval(scheduler.tick, options.tickMs)
      timer.unref()
    },

    async close (): Promise<void> {
      if (timer !== undefined) clearInterval(timer)
      executor.stopAll()
      if (options.persistence !== undefined) shared.flush()
    },

    /** One scheduler pass (tests drive the loop by hand with it). */
    tick: scheduler.tick,

    listDags: reads.listDags,
    dagResponse: reads.dagResponse,
    patchDag: control.patchDag,
    trigger: control.trigger,
    getRun: reads.getRun,
    listRuns: reads.listRuns,
    patchRun: control.patchRun,
    deleteRun: control.deleteRun,
    clearRun: control.clearRun,
    clearTaskInstances: control.clearTaskInstances,
    listTaskInstances: reads.listTaskInstances,
    listMapped: reads.listMapped,
    getTaskInstance: reads.getTaskInstance,
    tries: reads.tries,
    tryOf: reads.tryOf,
    logOf: reads.logOf,
    patchTaskInstance: control.patchTaskInstance,
    allStates: reads.allStates,

    healthy: () => timer !== undefined
  }
}

export type Engine = ReturnType<typeof createEngine>
