// What each kind of site-workflow task does when it runs. The engine's own kinds (a log line, the concurrency
// check, the upgrade branch) run here; every kind that touches the site asks stub-site to do that step's work and
// puts the answer's log lines into the try's log, its failure becoming the task's failure.
import type { CallContext } from '@slipway/common'
import type { StubConf } from '../schemas/stub.ts'
import type { TaskInstanceState } from '@slipway/airflow-contract'
import type { TaskAddress } from './injection.ts'
import type { TaskKind } from './workflows.ts'

export type LogLevel = 'info' | 'warning' | 'error'

/** The kinds each engine runs itself; every other kind is a step of stub-site's. */
type EngineKind = 'log' | 'concurrency_check' | 'branch_upgrade'
export type SiteStep = Exclude<TaskKind, EngineKind>

/** What a site step is sent: the task, its try, the run's conf and the states of the run's tasks. */
export interface SiteStepCall {
  dag_id: string
  task_id: string
  run_id: string
  try_number: number
  conf: Record<string, unknown>
  task_states: Record<string, TaskInstanceState | null>
}

/** What the site answers: whether the step succeeded, and its log lines. */
export interface SiteStepAnswer {
  outcome: 'success' | 'failed'
  log: Array<{ level: LogLevel, event: string }>
}

/** The outbound target; null = not configured, and a site step logs that it skipped the call. */
export interface SideEffects {
  site: null | {
    runStep: (step: SiteStep, call: SiteStepCall, ctx: CallContext) => Promise<SiteStepAnswer>
  }
}

export interface OperatorContext {
  address: TaskAddress
  runId: string
  tryNumber: number
  conf: Record<string, unknown>
  stub: StubConf | undefined
  effects: SideEffects
  log: (event: string, level?: LogLevel, extra?: Record<string, unknown>) => void
  /** One simulated step of the task's work; rejects when the try is stopped. */
  pause: () => Promise<void>
  /** Other running site-action runs that forbid this one (the concurrency check). */
  concurrencyConflicts: () => string[]
  /** The current state of every task of the same run, by engine task id. */
  taskStates: () => Record<string, TaskInstanceState | null>
}

/** A task that ends in failure; the message is the log's error line. */
export class TaskFailure extends Error { override name = 'TaskFailure' }

export interface OperatorResult { follow?: string[] }

/** The context forwarded with a site step: the action's context marker and user. */
function callContext (conf: Record<string, unknown>): CallContext {
  const action = typeof conf.action === 'object' && conf.action !== null ? conf.action as Record<string, unknown> : {}
  return {
    contextMarker: typeof action.context_marker === 'string' ? action.context_marker : undefined,
    user: typeof action.user === 'string' ? action.user : undefined
  }
}

/** The site steps that took a while on the site before the work moved there: the engine still paces them. */
const PACED: ReadonlySet<SiteStep> = new Set(['verify_site', 'deploy_nodes', 'destroy_nodes'])

async function siteStep (step: SiteStep, ctx: OperatorContext): Promise<undefined> {
  const site = ctx.effects.site
  if (site === null) {
    ctx.log(`No site configured (SITE_URL empty or none): skipped the site step ${step}`, 'warning')
  } else {
    const call: SiteStepCall = {
      dag_id: ctx.address.dagId,
      task_id: ctx.address.taskId,
      run_id: ctx.runId,
      try_number: ctx.tryNumber,
      conf: ctx.conf,
      task_states: ctx.taskStates()
    }
    const answer = await site.runStep(step, call, callContext(ctx.conf))
    // the failure's reason, the answer's last error line, is the error line the failed try ends with
    const reason = answer.outcome === 'failed' ? answer.log.findLastIndex((l) => l.level === 'error') : -1
    answer.log.forEach((line, i) => { if (i !== reason) ctx.log(line.event, line.level) })
    if (answer.outcome === 'failed') throw new TaskFailure(answer.log[reason]?.event ?? `The site step ${step} failed without saying why`)
  }
  if (PACED.has(step)) await ctx.pause()
  return undefined
}

const ENGINE_OPERATORS: Record<EngineKind, (ctx: OperatorContext) => Promise<OperatorResult | undefined>> = {
  async log (ctx) {
    ctx.log(`${ctx.address.taskId}: simulated work (no component of this stack performs it)`)
    await ctx.pause()
    return undefined
  },

  async concurrency_check (ctx) {
    const conflicts = ctx.concurrencyConflicts()
    if (conflicts.length > 0) throw new TaskFailure(`Concurrency check failed: conflicting runs ${conflicts.join(', ')}`)
    ctx.log('Concurrency check passed: no conflicting site action is running')
    return undefined
  },

  async branch_upgrade (ctx) {
    const follow = ctx.stub?.upgrade_airflow === true ? 'upgrade_airflow' : 'skip_upgrade_airflow'
    ctx.log(`Following branch ${follow}`)
    return { follow: [follow] }
  }
}

const isEngineKind = (kind: TaskKind): kind is EngineKind => Object.hasOwn(ENGINE_OPERATORS, kind)

export async function runOperator (kind: TaskKind, ctx: OperatorContext): Promise<OperatorResult | undefined> {
  return isEngineKind(kind) ? await ENGINE_OPERATORS[kind](ctx) : await siteStep(kind, ctx)
}
