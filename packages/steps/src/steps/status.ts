// The steps that leave a mark of the action: the revision's site-action tag in Deckhand, and the deployment-status
// ConfigMap in the cluster (running while the action runs, completed at its end, with its result).
import { TAG_WATCHED_TASKS } from '@slipway/airflow-contract'
import { stringify } from 'yaml'
import { actionOf } from '../domain/conf.ts'
import { StepFailure } from '../types.ts'
import type { Step, StepContext } from './context.ts'

/** The tasks whose end decides the action's tag (the workflow catalog's): the armada build's last task and either side
 * of the upgrade branch. */
export { TAG_WATCHED_TASKS }
const FAILED = new Set(['failed', 'upstream_failed'])

/** Failure when a watched task failed or could not run for a failure; else success. */
export function siteActionTag (states: Readonly<Record<string, string | null>>): 'site-action-success' | 'site-action-failure' {
  return TAG_WATCHED_TASKS.some((t) => FAILED.has(states[t] ?? '')) ? 'site-action-failure' : 'site-action-success'
}

/** The run's result for the status map: failed when any task failed, pending while it runs, else successful. */
function resultOf (ctx: StepContext, final: boolean): 'successful' | 'failed' | 'pending' {
  const others = Object.entries(ctx.call.taskStates).filter(([task]) => task !== ctx.call.taskId)
  if (others.some(([, state]) => FAILED.has(state ?? ''))) return 'failed'
  return final ? 'successful' : 'pending'
}

export const STATUS_STEPS = {
  async create_action_tag (ctx) {
    const tag = siteActionTag(ctx.call.taskStates)
    const deckhand = await ctx.deckhand()
    const revision = ctx.revision()
    if (deckhand === null) { await ctx.skipped('deckhand', `tagging revision ${revision} ${tag}`); return undefined }
    await deckhand.tag(revision, tag, ctx.ctx)
    ctx.io.log(`Revision ${revision} tagged ${tag}`)
    return undefined
  },

  async deployment_status (ctx) {
    // as upstream: the status is not written for a run that another site action was running beside
    if (ctx.call.taskStates.dag_concurrency_check !== undefined && ctx.call.taskStates.dag_concurrency_check !== 'success') {
      throw new StepFailure('The concurrency check did not pass, so the deployment status is not updated')
    }
    const final = ctx.call.taskId === 'final_deployment_status'
    const c = await ctx.configuration()
    const name = c['deployment_status.configmap'] ?? ctx.deps.deploymentStatus.configmap
    const namespace = c['deployment_status.namespace'] ?? ctx.deps.deploymentStatus.namespace
    const action = actionOf(ctx.call)
    const status = {
      status: final ? 'completed' : 'running',
      results: resultOf(ctx, final),
      'context-marker': action.context_marker ?? null,
      action: action.id ?? null,
      document_url: await ctx.designRef(),
      user: action.user ?? null,
      date: new Date().toISOString()
    }
    const kubernetes = ctx.deps.kubernetes
    if (kubernetes === null) {
      await ctx.skipped('kubernetes', `writing ConfigMap ${namespace}/${name} (status ${status.status}, ${status.results})`)
      return undefined
    }
    const how = await kubernetes.writeConfigMap(namespace, name, { release: stringify({ deployment: status }) })
    ctx.io.log(`ConfigMap ${namespace}/${name} ${how}: status ${status.status}, results ${status.results}`)
    return undefined
  }
} satisfies Record<string, Step>
