// The site work of a workflow step, done here for every engine that runs the site workflows: a step reads the
// run's conf, calls the store and the bootstrap service when they are configured, moves this site's own nodes, and
// answers its log lines and whether it succeeded. A failing step is an answer like any other, never an HTTP error.
import type { CallContext } from '@slipway/common'
import type { StepAnswer, StepLogLine, StepName, StepRequest } from '../schemas/steps.ts'
import type { Step, StepContext, StepTargets } from './steps-context.ts'
import { callContext, StepFailure } from './steps-conf.ts'
import { DESIGN_STEPS } from './steps-design.ts'
import { NODE_STEPS } from './steps-nodes.ts'

const STEPS: Record<StepName, Step> = { ...DESIGN_STEPS, ...NODE_STEPS }

/** The error line of a step that threw: a step's own failure as it is, anything else with its kind and cause. */
function errorLine (error: unknown): string {
  const e = error as { name?: string, message?: string, reason?: string }
  // errors of the outbound clients carry what failed, and how, in `reason`
  const detail = e.reason !== undefined && e.reason !== e.message ? `${e.message ?? ''} (${e.reason})` : e.message ?? String(error)
  return error instanceof StepFailure ? detail : `${e.name ?? 'Error'}: ${detail}`
}

export async function runStep (step: StepName, request: StepRequest, headers: CallContext, targets: StepTargets): Promise<StepAnswer> {
  const log: StepLogLine[] = []
  const ctx: StepContext = {
    dagId: request.dag_id,
    taskId: request.task_id,
    conf: request.conf,
    taskStates: request.task_states ?? {},
    call: callContext(request.conf, headers),
    targets,
    log: (event, level = 'info') => { log.push({ level, event }) }
  }
  try {
    await STEPS[step](ctx)
    return { outcome: 'success', log }
  } catch (error) {
    log.push({ level: 'error', event: errorLine(error) })
    return { outcome: 'failed', log }
  }
}
