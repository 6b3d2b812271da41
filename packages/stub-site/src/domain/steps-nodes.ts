// The steps about the nodes: checking the site and the target nodes, provisioning and tearing nodes down (this
// site's own node states, changed directly), and relabelling them through the bootstrap service.
import type { StepName } from '../schemas/steps.ts'
import type { Site } from './site.ts'
import { skipped, type Step, type StepContext } from './steps-context.ts'
import { designLabels, designRevision, FIXED_NODE_LABELS, namedTargets, StepFailure, TARGETED_DAGS } from './steps-conf.ts'

type NodeStep = Extract<StepName, 'verify_site' | 'verify_nodes_exist' | 'deploy_nodes' | 'destroy_nodes' | 'relabel_nodes'>

/** Every node the site knows, after reading the committed design when the site follows a store. */
async function hostnames (site: Site): Promise<string[]> {
  await site.refresh()
  return site.inventory.list().map((n) => n.hostname)
}

/** Moves one node; false when the site does not know it. */
async function moveNode (site: Site, hostname: string, status: string, power: string): Promise<boolean> {
  await site.refreshFor(hostname)
  if (site.inventory.find(hostname) === undefined) return false
  site.inventory.setState(hostname, { status_name: status, power_state: power })
  return true
}

/** The nodes a step acts on: those the action names in a targeted workflow, else every node of the site. */
async function targetNodes (ctx: StepContext): Promise<string[]> {
  if (TARGETED_DAGS.has(ctx.dagId)) return namedTargets(ctx.conf)
  return await hostnames(ctx.targets.site)
}

/** Provisioning moves each node through these states in turn, every node before the next state. */
const DEPLOY_PHASES = [['Allocated', 'on'], ['Deploying', 'on'], ['Deployed', 'on']] as const

export const NODE_STEPS: Record<NodeStep, Step> = {
  async verify_site (ctx) {
    const nodes = await hostnames(ctx.targets.site)
    ctx.log(`Site answers with ${nodes.length} node(s)`)
  },

  async verify_nodes_exist (ctx) {
    const known = new Set(await hostnames(ctx.targets.site))
    const missing = (await targetNodes(ctx)).filter((n) => !known.has(n))
    if (missing.length > 0) throw new StepFailure(`Nodes not known to the site: ${missing.join(', ')}`)
    ctx.log('Every target node exists')
  },

  async deploy_nodes (ctx) {
    const nodes = await targetNodes(ctx)
    ctx.log(`Provisioning ${nodes.length} node(s): ${nodes.join(', ')}`)
    for (const [status, power] of DEPLOY_PHASES) {
      for (const node of nodes) {
        if (!await moveNode(ctx.targets.site, node, status, power)) throw new StepFailure(`Node ${node} is not known to the site`)
      }
      ctx.log(`Nodes now ${status} (power ${power})`)
    }
  },

  async destroy_nodes (ctx) {
    const nodes = await targetNodes(ctx)
    for (const node of nodes) {
      if (!await moveNode(ctx.targets.site, node, 'Ready', 'off')) throw new StepFailure(`Node ${node} is not known to the site`)
    }
    ctx.log(`Released and powered off ${nodes.length} node(s): ${nodes.join(', ')}`)
  },

  async relabel_nodes (ctx) {
    const { bootstrap, store } = ctx.targets
    if (bootstrap === null) { skipped(ctx, 'bootstrap', 'node relabelling'); return }
    const nodes = await targetNodes(ctx)
    const revision = designRevision(ctx.conf)
    // without a design (or a store to read it from) every node gets the fixed labels
    const documents = revision !== null && store !== null ? await store.renderedDocuments(revision, ctx.call) : []
    for (const node of nodes) {
      const labels = designLabels(documents, node) ?? { ...FIXED_NODE_LABELS }
      await bootstrap.putNodeLabels(node, labels, ctx.call)
      ctx.log(`Labels of ${node} set: ${Object.keys(labels).join(', ')}`)
    }
  }
}
