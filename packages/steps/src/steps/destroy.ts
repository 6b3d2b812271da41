// redeploy_server's destroy_nodes, for each target node: cordoned and drained through the Kubernetes eviction API
// (the configured grace period, waiting up to the drain timeout for its pods to go), its labels cleared through
// Promenade (the bootstrap service), torn down by Drydock's destroy_nodes, then removed from the cluster.
// Upstream's drain, clear-labels and decommission operators only sleep; these do the work.
import type { KubeObject, KubernetesClient } from '../clients/kubernetes.ts'
import { namesFilter } from '../domain/deployment-groups.ts'
import { runDrydockTask } from '../domain/drydock-task.ts'
import { targetNodes } from '../domain/conf.ts'
import { wait } from '../domain/wait.ts'
import { StepFailure } from '../types.ts'
import type { Step, StepContext } from './context.ts'
import { drydockFor } from './drydock.ts'

/** How often a drain looks again at the pods it is waiting for, in ms. */
const DRAIN_POLL_MS = 1000

/** Pods a drain leaves: those a DaemonSet runs on every node, and mirror pods of the kubelet's own manifests. */
function stays (pod: KubeObject): boolean {
  return (pod.metadata.ownerReferences ?? []).some((o) => o.kind === 'DaemonSet') ||
    pod.metadata.annotations?.['kubernetes.io/config.mirror'] !== undefined
}

const podName = (pod: KubeObject): string => `${pod.metadata.namespace ?? 'default'}/${pod.metadata.name}`

async function drain (ctx: StepContext, kubernetes: KubernetesClient, node: string): Promise<void> {
  const c = await ctx.configuration()
  const grace = c['kubernetes_provisioner.drain_grace_period']
  const deadline = Date.now() + c['kubernetes_provisioner.drain_timeout'] * 1000
  await kubernetes.patchNode(node, { spec: { unschedulable: true } })
  ctx.io.log(`Node ${node} cordoned`)
  let pending = (await kubernetes.podsOnNode(node)).filter((p) => !stays(p))
  const listed = pending.length > 0 ? ` (${pending.map(podName).join(', ')})` : ''
  ctx.io.log(`Draining ${node}: ${pending.length} pod(s) to evict${listed}, grace period ${grace} s`)
  const evicted = new Set<string>()
  for (;;) {
    for (const pod of pending) {
      if (evicted.has(podName(pod))) continue
      const answer = await kubernetes.evict(pod.metadata.namespace ?? 'default', pod.metadata.name, grace)
      if (answer.outcome === 'refused') ctx.io.log(`Eviction of ${podName(pod)} refused for now: ${answer.reason}`, 'warning')
      else { evicted.add(podName(pod)); ctx.io.log(`Evicted ${podName(pod)}`) }
    }
    const left = new Set(pending.map(podName))
    pending = (await kubernetes.podsOnNode(node)).filter((p) => !stays(p) && left.has(podName(p)))
    if (pending.length === 0) break
    if (Date.now() >= deadline) {
      const left = pending.map(podName).join(', ')
      throw new StepFailure(`Draining ${node} timed out after ${c['kubernetes_provisioner.drain_timeout']} s; pods still there: ${left}`)
    }
    await wait(Math.min(DRAIN_POLL_MS, Math.max(deadline - Date.now(), 0)), ctx.io.signal)
  }
  ctx.io.log(`Node ${node} drained`)
}

/** Clears a node's labels through Promenade: an empty set of labels (Promenade keeps those of kubernetes.io). */
async function clearLabels (ctx: StepContext, node: string): Promise<void> {
  const http = (await ctx.deps.peers.client('promenade'))!
  const response = await http.request('PUT', `/node-labels/${encodeURIComponent(node)}`, { ctx: ctx.ctx, json: {} })
  if (response.statusCode === 404) {
    ctx.io.log(`Promenade does not know node ${node}: no labels to clear`, 'warning')
    return
  }
  if (response.statusCode >= 300) {
    throw new StepFailure(`Promenade answered ${response.statusCode} clearing the labels of ${node}: ${response.text.slice(0, 300)}`)
  }
  ctx.io.log(`Labels of ${node} cleared (those of kubernetes.io kept)`)
}

export const DESTROY_STEPS = {
  async destroy_nodes (ctx) {
    const nodes = targetNodes(ctx.call)
    const kubernetes = ctx.deps.kubernetes
    const promenade = await ctx.promenade()
    for (const node of nodes) {
      if (kubernetes === null) await ctx.skipped('kubernetes', `cordoning and draining ${node}`)
      else if (await kubernetes.getNode(node) !== null) await drain(ctx, kubernetes, node)
      else ctx.io.log(`Node ${node} is not in the Kubernetes cluster: nothing to drain`, 'warning')
      if (promenade === null) await ctx.skipped('promenade', `clearing the labels of ${node}`)
      else await clearLabels(ctx, node)
    }
    const drydock = await drydockFor(ctx, "Drydock's destroy_nodes")
    if (drydock !== null) {
      const c = await ctx.configuration()
      const timing = { intervalS: c['physical_provisioner.destroy_interval'], timeoutS: c['physical_provisioner.destroy_timeout'] }
      const outcome = await runDrydockTask(drydock, 'destroy_nodes', await ctx.designRef(), namesFilter(nodes), timing, ctx.io, ctx.ctx)
      const failed = nodes.filter((n) => !outcome.successes.has(n))
      if (outcome.timedOut) throw new StepFailure(`Drydock destroy_nodes task ${outcome.taskId} timed out after ${timing.timeoutS} s`)
      if (failed.length > 0) {
        throw new StepFailure(`Drydock destroy_nodes task ${outcome.taskId} ended ${outcome.result}; not destroyed: ${failed.join(', ')}`)
      }
    }
    for (const node of nodes) {
      if (kubernetes === null) { await ctx.skipped('kubernetes', `removing ${node} from the cluster`); continue }
      const removed = await kubernetes.deleteNode(node)
      ctx.io.log(removed ? `Node ${node} decommissioned: removed from the cluster` : `Node ${node} was not in the cluster`)
    }
    return undefined
  }
} satisfies Record<string, Step>
