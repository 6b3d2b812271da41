// The deployment strategy a run deploys by: the targeted workflows' named nodes as one group, else the strategy
// document the deployment configuration names, else upstream's all-at-once default. Read by drydock_validate (to
// refuse a broken strategy before anything is touched) and by the node steps.
import { TARGETED_DAGS, targetNodes } from '../domain/conf.ts'
import { DEFAULT_STRATEGY, readStrategy, type GroupSpec } from '../domain/deployment-groups.ts'
import { StepFailure } from '../types.ts'
import type { StepContext } from './context.ts'

export const DEPLOYMENT_STRATEGY_SCHEMA = 'shipyard/DeploymentStrategy/v1'

/** The groups of the strategy document of that name in the action's revision, checked (readStrategy). */
export async function namedStrategy (ctx: StepContext, named: string): Promise<GroupSpec[]> {
  const deckhand = await ctx.deckhand()
  if (deckhand === null) {
    throw new StepFailure(`The deployment strategy ${named} cannot be read: no deckhand, ${await ctx.deps.peers.describe('deckhand')}`)
  }
  const revision = ctx.revision()
  const filters = { schema: DEPLOYMENT_STRATEGY_SCHEMA, 'metadata.name': named }
  const documents = await deckhand.renderedDocuments(revision, ctx.ctx, filters)
  if (documents.length !== 1) {
    throw new StepFailure(`The deployment strategy ${named} (${DEPLOYMENT_STRATEGY_SCHEMA}) is not in revision ${revision}`)
  }
  try {
    return readStrategy((documents[0] as { data?: unknown }).data)
  } catch (error) {
    if (error instanceof StepFailure) throw new StepFailure(`The deployment strategy ${named} is invalid: ${error.message}`)
    throw error
  }
}

/** The groups a run deploys: the targeted workflows' named nodes as one group, else the configured strategy. */
export async function strategyOf (ctx: StepContext): Promise<{ name: string, groups: GroupSpec[] }> {
  if (TARGETED_DAGS.has(ctx.call.dagId)) {
    const nodes = targetNodes(ctx.call)
    const selector = { node_names: nodes, node_labels: [], node_tags: [], rack_names: [] }
    const group = {
      name: 'target-nodes', critical: true, depends_on: [], selectors: [selector], success_criteria: { percent_successful_nodes: 100 }
    }
    return { name: `the target nodes (${nodes.join(', ')})`, groups: [group] }
  }
  const named = (await ctx.configuration())['physical_provisioner.deployment_strategy']
  if (named === null) return { name: 'all-at-once (defaulted)', groups: DEFAULT_STRATEGY }
  return { name: named, groups: await namedStrategy(ctx, named) }
}
