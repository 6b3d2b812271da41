// The engine reads that actions and workflows make, and those reads straight from the engine (no watch).
import type { CallContext } from '@slipway/common'
import type { EngineClient, EngineRun, EngineTask } from '../../clients/engine.ts'
import type { StepState } from '../steps.ts'

/** The engine reads that actions and workflows make; the watch serves them, or passes them to the engine. */
export interface EngineReads {
  run: (dagId: string, runId: string, ctx?: CallContext) => Promise<EngineRun | undefined>
  isPaused: (dagId: string, ctx?: CallContext) => Promise<boolean | undefined>
  tasks: (dagId: string, runId: string, ctx?: CallContext) => Promise<EngineTask[]>
  /** Runs of these DAGs, from that date; `runIds`: only those (what the engine is asked for is not narrowed by it). */
  runs: (filter: { dagIds?: string[], logicalDateGte?: string, runIds?: string[] }, ctx?: CallContext) => Promise<EngineRun[]>
  tasksOfRuns: (filter: { dagIds?: string[], runIds: string[] }, ctx?: CallContext) => Promise<StepState[]>
  /** This process changed the engine: a run it triggered, a DAG it paused or unpaused, anything else. */
  triggered: (run: EngineRun) => void
  paused: (dagId: string, isPaused: boolean) => void
  changed: () => void
  /**
   * While reads are served from a fresh watch, a token that changes whenever what a list of actions shows of the
   * engine does (a run added, gone or in another state, a task instance added or in another state, a pause flag);
   * undefined when reads go to the engine.
   */
  version: () => string | undefined
}

/** Reads straight from the engine (no watch): a missing DAG reads as undefined. */
export function directReads (engine: EngineClient): EngineReads {
  return {
    run: engine.run,
    isPaused: async (dagId, ctx) => await engine.dag(dagId, ctx).then((d) => d.is_paused, (error: unknown) => {
      if ((error as { statusCode?: number }).statusCode === 404) return undefined
      throw error
    }),
    tasks: engine.tasks,
    async runs (filter, ctx) {
      const all = await engine.runs({ dagIds: filter.dagIds, logicalDateGte: filter.logicalDateGte }, ctx)
      if (filter.runIds === undefined) return all
      const wanted = new Set(filter.runIds)
      return all.filter((r) => wanted.has(r.dag_run_id))
    },
    tasksOfRuns: engine.tasksOfRuns,
    triggered: () => {},
    paused: () => {},
    changed: () => {},
    version: () => undefined
  }
}
