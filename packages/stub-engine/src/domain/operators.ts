// What each kind of site-workflow task does when it runs. The engine's own kinds (a log line, the concurrency
// check) run here; every other kind is a step of the step library (@slipway/steps), which does the site work over
// each peer's own protocol (Deckhand, Drydock, Armada, Promenade, Kubernetes), exactly as it does for the Airflow
// DAG files through the step runner.
import type { StepKind, StepLibrary, StepResult } from '@slipway/steps'
import type { StubConf } from '../schemas/stub.ts'
import type { TaskInstanceState } from '@slipway/airflow-contract'
import type { TaskAddress } from './injection.ts'
import type { TaskKind } from './workflows.ts'

export type LogLevel = 'info' | 'warning' | 'error'

/** The step library the site tasks run; null = no peers configured, and a site task logs that it skipped its work. */
export interface SideEffects {
  steps: Pick<StepLibrary, 'run'> | null
}

export interface OperatorContext {
  address: TaskAddress
  runId: string
  tryNumber: number
  conf: Record<string, unknown>
  stub: StubConf | undefined
  effects: SideEffects
  log: (event: string, level?: LogLevel, extra?: Record<string, unknown>) => void
  /** Aborted when the try is stopped. */
  signal: AbortSignal
  /** One simulated step of the task's work; rejects when the try is stopped. */
  pause: () => Promise<void>
  /** Other running site-action runs that forbid this one (the concurrency check). */
  concurrencyConflicts: () => string[]
  /** The current state of every task of the same run, by engine task id. */
  taskStates: () => Record<string, TaskInstanceState | null>
  /** What earlier tasks of the run handed on, by task id (Airflow's XCom return values). */
  xcom: () => Record<string, unknown>
}

/** A task that ends in failure; the message is the log's error line. */
export class TaskFailure extends Error { override name = 'TaskFailure' }

export type OperatorResult = StepResult

/** The kinds the engine runs itself; every other kind is a step of the library. */
type EngineKind = 'log' | 'concurrency_check'

const ENGINE_OPERATORS: Record<EngineKind, (ctx: OperatorContext) => Promise<OperatorResult | undefined>> = {
  async log (ctx) {
    ctx.log(`${ctx.address.taskId}: nothing to do beyond this line (a placeholder of upstream's workflow)`)
    await ctx.pause()
    return undefined
  },

  async concurrency_check (ctx) {
    const conflicts = ctx.concurrencyConflicts()
    if (conflicts.length > 0) throw new TaskFailure(`Concurrency check failed: conflicting runs ${conflicts.join(', ')}`)
    ctx.log('Concurrency check passed: no conflicting site action is running')
    return undefined
  }
}

const isEngineKind = (kind: TaskKind): kind is EngineKind => Object.hasOwn(ENGINE_OPERATORS, kind)

async function siteStep (kind: StepKind, ctx: OperatorContext): Promise<OperatorResult | undefined> {
  const steps = ctx.effects.steps
  if (steps === null) {
    ctx.log(`No peers configured: skipped the site work of ${ctx.address.taskId}`, 'warning')
    return kind === 'decide_upgrade' ? { follow: ['skip_upgrade_airflow'] } : undefined
  }
  try {
    return await steps.run(kind, {
      dagId: ctx.address.dagId,
      taskId: ctx.address.taskId,
      runId: ctx.runId,
      tryNumber: ctx.tryNumber,
      conf: ctx.conf,
      taskStates: ctx.taskStates(),
      xcom: ctx.xcom()
    }, { log: (event, level) => ctx.log(event, level), signal: ctx.signal })
  } catch (error) {
    throw new TaskFailure((error as Error).message)
  }
}

export async function runOperator (kind: TaskKind, ctx: OperatorContext): Promise<OperatorResult | undefined> {
  return isEngineKind(kind) ? await ENGINE_OPERATORS[kind](ctx) : await siteStep(kind, ctx)
}
