// What the simulated engine is built with. A module of its own that imports types only, so that the parts
// createEngine wires together (state, executor, scheduler, reads, control) can name their options without
// importing the module that imports them.
import type { InjectionRules } from './injection.ts'
import type { SideEffects } from './operators.ts'
import type { EngineChanges, EngineSnapshot, RunRecord } from './records.ts'

export interface EngineOptions {
  taskMs: number
  retryDelayMs: number
  tickMs: number
  maxPageLimit: number
  maxActiveRuns: number
  pausedAtCreation: boolean
  rules: InjectionRules
  importErrorDags: ReadonlySet<string>
  effects: SideEffects
  /** Signs log continuation tokens. */
  secret: string
  /**
   * Persistence; absent: memory only. `save` gets only what changed, so its cost follows the changes, not the history.
   * With `readRun` (one saved run by number), ended runs' log lines are kept in their saved files, not in memory.
   */
  persistence?: {
    load: () => EngineSnapshot | null
    save: (changes: EngineChanges) => void
    readRun?: (seq: number) => RunRecord | undefined
  }
  log?: (fields: Record<string, unknown>, message: string) => void
}
