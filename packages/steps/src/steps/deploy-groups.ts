// prepare_and_deploy_nodes: the deployment groups in dependency order, each prepared then deployed by Drydock
// tasks on its nodes not taken by an earlier group, the deployed nodes awaited in Kubernetes, each group judged by
// its success criteria, and the step failing when a critical group failed. The summary goes to the log.
import type { DrydockClient } from '../clients/drydock.ts'
import {
  groupOrder, missedCriteria, namesFilter, selectorFilter, type GroupSpec, type Stage
} from '../domain/deployment-groups.ts'
import { runDrydockTask } from '../domain/drydock-task.ts'
import { wait } from '../domain/wait.ts'
import { StepFailure, type StepResult } from '../types.ts'
import type { StepContext } from './context.ts'

/** The deployed nodes that joined the cluster and are Ready within the configured wait; the others are dropped. */
async function joined (ctx: StepContext, deployed: Set<string>): Promise<Set<string>> {
  const kubernetes = ctx.deps.kubernetes
  if (kubernetes === null || deployed.size === 0) {
    if (deployed.size > 0) await ctx.skipped('kubernetes', 'waiting for the deployed nodes to join the cluster')
    return deployed
  }
  const c = await ctx.configuration()
  const joinWait = c['physical_provisioner.join_wait']
  ctx.io.log(`Nodes ${[...deployed].join(', ')} reported deployed; waiting ${joinWait} s before checking that they joined Kubernetes`)
  await wait(joinWait * 1000, ctx.io.signal)
  const deadline = Date.now() + c['kubernetes.node_status_timeout'] * 1000
  let waiting = [...deployed]
  for (;;) {
    const still: string[] = []
    for (const name of waiting) {
      const node = await kubernetes.getNode(name)
      const conditions = (node?.status as { conditions?: Array<{ type?: string, status?: string }> } | undefined)?.conditions ?? []
      if (node === null || !conditions.some((k) => k.type === 'Ready' && k.status === 'True')) still.push(name)
    }
    waiting = still
    if (waiting.length === 0 || Date.now() >= deadline) break
    await wait(Math.min(c['kubernetes.node_status_interval'] * 1000, Math.max(deadline - Date.now(), 0)), ctx.io.signal)
  }
  for (const name of waiting) ctx.io.log(`Node ${name} did not join the Kubernetes cluster and become Ready in time`, 'error')
  return new Set([...deployed].filter((n) => !waiting.includes(n)))
}

export async function deployGroups (ctx: StepContext, drydock: DrydockClient, groups: GroupSpec[]): Promise<StepResult | undefined> {
  const order = groupOrder(groups)
  const byName = new Map(groups.map((g) => [g.name, g]))
  const designRef = await ctx.designRef()
  const c = await ctx.configuration()
  const nodeStage = new Map<string, Stage>()
  const groupStage = new Map<string, Stage>(order.map((g) => [g, 'NOT_STARTED']))
  const full = new Map<string, string[]>()
  const actionable = new Map<string, string[]>()
  for (const name of order) {
    const nodes = await drydock.nodesForFilter(designRef, selectorFilter(byName.get(name)!.selectors), ctx.ctx)
    full.set(name, nodes)
    actionable.set(name, nodes.filter((n) => !nodeStage.has(n)))
    for (const n of nodes) if (!nodeStage.has(n)) nodeStage.set(n, 'NOT_STARTED')
    ctx.io.log(`Group ${name}${byName.get(name)!.critical ? ' (critical)' : ''} selects ${nodes.join(', ') || 'no node'}`)
  }
  const failGroup = (name: string): void => {
    if (groupStage.get(name) === 'FAILED') return
    groupStage.set(name, 'FAILED')
    for (const g of groups) {
      if (!g.depends_on.includes(name)) continue
      ctx.io.log(`Group ${g.name} fails with ${name}, which it depends on`, 'warning')
      failGroup(g.name)
    }
  }
  const withStage = (...stages: Stage[]): Set<string> => new Set([...nodeStage].filter(([, s]) => stages.includes(s)).map(([n]) => n))
  /** Judges a group at a stage: deployed nodes count as prepared. False when it missed a criterion (it is failed). */
  const judge = (name: string, stage: 'PREPARED' | 'DEPLOYED'): boolean => {
    const successes = stage === 'PREPARED' ? withStage('PREPARED', 'DEPLOYED') : withStage('DEPLOYED')
    const missed = missedCriteria(byName.get(name)!.success_criteria, full.get(name)!, successes)
    if (missed.length > 0) {
      ctx.io.log(`Group ${name} missed its success criteria on the way to ${stage}: ${missed.join('; ')}`, 'error')
      failGroup(name)
      return false
    }
    groupStage.set(name, stage)
    ctx.io.log(`Group ${name} met its success criteria: ${stage}`)
    return true
  }
  const settle = (name: string, successes: Set<string>, stage: 'PREPARED' | 'DEPLOYED'): void => {
    for (const n of actionable.get(name)!) nodeStage.set(n, successes.has(n) ? stage : 'FAILED')
  }

  for (const name of order) {
    if (groupStage.get(name) !== 'NOT_STARTED') continue
    const nodes = actionable.get(name)!
    ctx.io.log(`*** Deployment group ${name} ***`)
    if (nodes.length === 0) {
      ctx.io.log(`Group ${name} has no node of its own to act on (its nodes were taken by earlier groups): judged as it stands`)
      if (judge(name, 'PREPARED')) judge(name, 'DEPLOYED')
      continue
    }
    const prepareTiming = {
      intervalS: c['physical_provisioner.prepare_node_interval'], timeoutS: c['physical_provisioner.prepare_node_timeout']
    }
    const prepared = await runDrydockTask(drydock, 'prepare_nodes', designRef, namesFilter(nodes), prepareTiming, ctx.io, ctx.ctx)
    settle(name, prepared.successes, 'PREPARED')
    if (!judge(name, 'PREPARED')) continue
    const toDeploy = nodes.filter((n) => prepared.successes.has(n))
    // an empty node_names in a Drydock filter selects every node: with no node prepared there is nothing to deploy
    if (toDeploy.length === 0) {
      ctx.io.log(`Group ${name} has no prepared node to deploy`, 'warning')
    } else {
      const deployTiming = { intervalS: c['physical_provisioner.deploy_interval'], timeoutS: c['physical_provisioner.deploy_timeout'] }
      const deployed = await runDrydockTask(drydock, 'deploy_nodes', designRef, namesFilter(toDeploy), deployTiming, ctx.io, ctx.ctx)
      settle(name, await joined(ctx, deployed.successes), 'DEPLOYED')
    }
    judge(name, 'DEPLOYED')
  }

  ctx.io.log('Group summary: ' + order.map((g) => `${g}${byName.get(g)!.critical ? ' [critical]' : ''} ${groupStage.get(g)}`).join('; '))
  for (const stage of ['NOT_STARTED', 'PREPARED', 'DEPLOYED', 'FAILED'] as const) {
    const nodes = [...withStage(stage)]
    if (nodes.length > 0) ctx.io.log(`Nodes ${stage}: ${nodes.join(', ')}`, stage === 'FAILED' ? 'warning' : 'info')
  }
  const failedCritical = order.filter((g) => groupStage.get(g) === 'FAILED' && byName.get(g)!.critical)
  if (failedCritical.length > 0) {
    const failedNodes = [...withStage('FAILED')].join(', ') || 'none'
    throw new StepFailure(`Critical deployment group(s) failed: ${failedCritical.join(', ')}; failed nodes: ${failedNodes}`)
  }
  ctx.io.log('All critical groups met their success criteria')
  return { output: { groups: Object.fromEntries(groupStage), nodes: Object.fromEntries(nodeStage) } }
}
