// The steps that drive Drydock: verify and prepare the site, check the target nodes exist, prepare and deploy the
// nodes group by group under the deployment strategy, and relabel nodes.
import type { DrydockClient } from '../clients/drydock.ts'
import { targetNodes } from '../domain/conf.ts'
import { groupOrder, namesFilter, selectorFilter } from '../domain/deployment-groups.ts'
import { runDrydockTask, type TaskTiming } from '../domain/drydock-task.ts'
import { StepFailure } from '../types.ts'
import type { Step, StepContext } from './context.ts'
import { PREFLIGHT_TASK } from './design.ts'
import { deployGroups } from './deploy-groups.ts'
import { strategyOf } from './strategy.ts'

/** Drydock, or null when the step is to do nothing: not configured, or down with continue-on-fail. */
export async function drydockFor (ctx: StepContext, what: string): Promise<DrydockClient | null> {
  const preflight = ctx.call.xcom[PREFLIGHT_TASK] as { drydock_continue_on_fail?: unknown } | undefined
  if (preflight?.drydock_continue_on_fail === true) {
    ctx.io.log(`Skipped ${what}: Drydock failed its health check and continue-on-fail is set`, 'warning')
    return null
  }
  const drydock = await ctx.drydock()
  if (drydock === null) await ctx.skipped('drydock', what)
  return drydock
}

async function siteTask (ctx: StepContext, action: 'verify_site' | 'prepare_site', timing: TaskTiming): Promise<undefined> {
  const drydock = await drydockFor(ctx, `Drydock's ${action}`)
  if (drydock === null) return undefined
  const outcome = await runDrydockTask(drydock, action, await ctx.designRef(), null, timing, ctx.io, ctx.ctx)
  if (outcome.timedOut) throw new StepFailure(`Drydock ${action} task ${outcome.taskId} timed out after ${timing.timeoutS} s`)
  if (outcome.result !== 'success') {
    throw new StepFailure(`Drydock ${action} task ${outcome.taskId} ended ${outcome.status}/${outcome.result}`)
  }
  return undefined
}

export const DRYDOCK_STEPS = {
  async verify_site (ctx) {
    const c = await ctx.configuration()
    return await siteTask(ctx, 'verify_site', {
      intervalS: c['physical_provisioner.verify_interval'], timeoutS: c['physical_provisioner.verify_timeout']
    })
  },

  async prepare_site (ctx) {
    const c = await ctx.configuration()
    return await siteTask(ctx, 'prepare_site', {
      intervalS: c['physical_provisioner.prepare_site_interval'], timeoutS: c['physical_provisioner.prepare_site_timeout']
    })
  },

  async verify_nodes_exist (ctx) {
    const drydock = await drydockFor(ctx, 'checking that the nodes exist')
    if (drydock === null) return undefined
    const { name, groups } = await strategyOf(ctx)
    groupOrder(groups)
    const designRef = await ctx.designRef()
    const wanted = new Set<string>()
    for (const g of groups) for (const n of await drydock.nodesForFilter(designRef, selectorFilter(g.selectors), ctx.ctx)) wanted.add(n)
    const known = new Set(await drydock.nodes(ctx.ctx))
    const missing = [...wanted].filter((n) => !known.has(n))
    if (missing.length > 0) throw new StepFailure(`Nodes of ${name} that Drydock does not know: ${missing.join(', ')}`)
    ctx.io.log(`All ${wanted.size} node(s) of ${name} exist in Drydock`)
    return undefined
  },

  async deploy_nodes (ctx) {
    const drydock = await drydockFor(ctx, 'preparing and deploying the nodes')
    if (drydock === null) return undefined
    const { name, groups } = await strategyOf(ctx)
    ctx.io.log(`Deployment strategy ${name} has ${groups.length} group(s)`)
    return await deployGroups(ctx, drydock, groups)
  },

  async relabel_nodes (ctx) {
    const drydock = await drydockFor(ctx, "Drydock's relabel_nodes")
    if (drydock === null) return undefined
    const nodes = targetNodes(ctx.call)
    const c = await ctx.configuration()
    const timing = {
      intervalS: c['physical_provisioner.relabel_nodes_interval'], timeoutS: c['physical_provisioner.relabel_nodes_timeout']
    }
    const outcome = await runDrydockTask(drydock, 'relabel_nodes', await ctx.designRef(), namesFilter(nodes), timing, ctx.io, ctx.ctx)
    const failed = nodes.filter((n) => !outcome.successes.has(n))
    if (outcome.timedOut) throw new StepFailure(`Drydock relabel_nodes task ${outcome.taskId} timed out after ${timing.timeoutS} s`)
    if (failed.length > 0 || outcome.result !== 'success') {
      throw new StepFailure(`Drydock relabel_nodes task ${outcome.taskId} ended ${outcome.result}; not relabelled: ${failed.join(', ') || 'none named'}`)
    }
    ctx.io.log(`Relabelled ${nodes.join(', ')}`)
    return undefined
  }
} satisfies Record<string, Step>
